// Package entry `imprint`: the engine only — the render API, each pipeline stage on its own, types and
// errors. The service core is `imprint/service` and the HTTP adapters `imprint/http`, so a host that
// renders never loads a database driver, a queue client or an HTTP server (test/entry-points.test.ts).
export {
  Engine,
  render,
  renderStream,
  MAX_PAGES,
  type DesignInput,
  type EngineOptions,
  type OutputFormat,
  type PageInput,
  type RenderOptions,
  type RenderResult,
  type RenderStream,
} from './engine.js';
export { RENDER_LIMITS, MAX_VIDEO_SECONDS, MAX_SLIDE_VIDEO_SECONDS, type RenderLimits } from './render-checks.js';
export type { ObjectOverride, ObjectsOverrides, OverrideListEntry, Overrides } from './resolve/types.js';
export { PDF_FIXED_DATE } from './encode/pdf.js';
export { encodePdf } from './render/pdf.js';
export { PT_PER_PX } from './paint/pdf.js';
export { ImprintError, ERROR_CATALOGUE, type ErrorCode } from './errors.js';
export { parseDesign } from './design/parse.js';
export { Design as DesignSchema, type Design } from './design/schema.js';
export { LIMITS } from './format/fields.js';
export type { DesignObject } from './objects/registry.js';
export type { PolotnoDocument } from './design/polotno/schema.js';
export type { Scene, SceneObject, ImageRef } from './scene/scene.js';
export { resolveScene } from './resolve/resolve.js';
export { layout, type FitReport, type ImageSizes } from './layout/layout.js';
export { sampleScene, stillTime } from './layout/timeline.js';
export type { TextFitReport } from './layout/text.js';
export type { DisplayList, DisplayItem } from './scene/display-list.js';
export { rasterBackend } from './paint/raster.js';
export type { PaintBackend, RasterImage } from './paint/backend.js';
export { encodeImage, ENCODE_DEFAULTS, type PngOptions, type JpgOptions, type WebpOptions, type AvifOptions } from './encode/image.js';
export type { ImageFormat } from './output-formats.js';
export { fileAssetResolver, AssetNotFoundError, type AssetResolver, type FileAssetOptions } from './assets/resolver.js';
export { bundledFonts, FontSet } from './text/fonts.js';
export { loadShaper } from './text/harfbuzz.js';
export { designJsonSchema, overridesJsonSchema, fieldReferenceMarkdown } from './design/json-schema.js';
