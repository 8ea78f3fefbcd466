// What the engine outputs, as plain data: its formats with their MIME types, and a video's frame rates
// and sizes. The one list of each: the render options, the service's tasks, the HTTP schemas, the CLI
// and the Studio (as types) take them from here. It imports nothing, so any side may use it.

/** The raster formats (sharp encodes them). */
export const IMAGE_FORMATS = ['png', 'jpg', 'webp', 'avif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Every format a render outputs: the raster ones, then vector pdf and mp4 video. */
export const OUTPUT_FORMATS = [...IMAGE_FORMATS, 'pdf', 'mp4'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Each output format's MIME type: a render result's `mimeType`, a stored result's Content-Type. */
export const MIME_TYPES: Readonly<Record<OutputFormat, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
};

/** A video's frame rates; the first is the default. */
export const VIDEO_FPS = [30, 60] as const;
export type Fps = (typeof VIDEO_FPS)[number];
export const DEFAULT_FPS: Fps = VIDEO_FPS[0];
export const isFps = (v: unknown): v is Fps => (VIDEO_FPS as readonly unknown[]).includes(v);

/** Interface B's video sizes: short side 720 (sd) or 1080 (hd); a render may also keep the design's size. */
export const VIDEO_SIZES = ['sd', 'hd'] as const;
export type VideoSize = (typeof VIDEO_SIZES)[number];
export const isVideoSize = (v: unknown): v is VideoSize => (VIDEO_SIZES as readonly unknown[]).includes(v);

/** "png, jpg, webp, avif, pdf or mp4", "30 or 60": a list for messages. */
export function formatList(values: readonly (string | number)[] = OUTPUT_FORMATS): string {
  return `${values.slice(0, -1).join(', ')} or ${String(values[values.length - 1])}`;
}
