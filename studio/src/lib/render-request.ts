// The render requests the Studio sends, built once and shown as they are sent: interface A's
// POST /public/v2/render, or interface B's POST /api/videos/<id>/render?v=1.0 for a video design's
// mp4, with the same body as JSON and as a curl command. The key is never in them: the command reads
// it from $IMPRINT_API_KEY, and the Studio adds the real one only to its own fetch. No DOM.
import type { Fps, OutputFormat, VideoSize } from '../../../src/output-formats.js';
import { toInterfaceB, type Overrides, type SlideOverride } from './overrides.js';

/** What interface A renders to: the engine's formats, the spec's jpg, png, pdf and mp4 and the service's webp and avif (docs/api.md). */
export type Format = OutputFormat;
export type { Fps };
export type SizeType = VideoSize;

export interface RenderRequest {
  interface: 'A' | 'B';
  method: 'POST';
  /** Absolute URL (the page's origin + path). */
  url: string;
  body: Record<string, unknown>;
}

export function renderRequestA(origin: string, designId: number, format: Format, overrides: Overrides): RenderRequest {
  const body: Record<string, unknown> = { design_id: designId, format };
  if (Object.keys(overrides).length) body.objects_overrides = overrides;
  return { interface: 'A', method: 'POST', url: `${origin}/public/v2/render`, body };
}

export interface VideoParameters {
  fps: Fps;
  sizeType: SizeType;
  demo: boolean;
}

export function renderRequestB(
  origin: string,
  videoId: number,
  p: VideoParameters,
  overrides: Overrides,
  slides: Record<string, SlideOverride>,
): RenderRequest {
  const body: Record<string, unknown> = { parameters: { fps: p.fps, size_type: p.sizeType, demo: p.demo } };
  const list = toInterfaceB(overrides, slides);
  if (list.length) body.overrides = list;
  return { interface: 'B', method: 'POST', url: `${origin}/api/videos/${videoId}/render?v=1.0`, body };
}

/** Free (demo) renders are sd at 30 fps only: the parameters a demo render is sent with. */
export function demoParameters(p: VideoParameters): VideoParameters {
  return p.demo ? { fps: 30, sizeType: 'sd', demo: true } : p;
}

/** A single-quoted shell word: safe for any text, `'` written as `'\''`. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The request as a curl command; the key comes from the shell's $IMPRINT_API_KEY (double quotes, so it expands). */
export function curlCommand(req: RenderRequest): string {
  return [
    `curl -X ${req.method} ${shellQuote(req.url)}`,
    `  -H "Authorization: Bearer $IMPRINT_API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  --data-raw ${shellQuote(JSON.stringify(req.body))}`,
  ].join(' \\\n');
}

/** The request's body as pretty JSON (valid JSON alone: the method and URL are shown beside it). */
export function requestJson(req: RenderRequest): string {
  return JSON.stringify(req.body, null, 2);
}
