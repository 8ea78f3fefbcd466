// Content type of an upload from its first bytes, never from its name or the client's header.

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' | 'image/avif';

export const IMAGE_EXTENSIONS: Record<ImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

/** The image types an upload may be, for messages. */
export const IMAGE_TYPE_NAMES = 'png, jpeg, webp, gif or avif';

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0): boolean => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** AVIF brands: a still image, an image sequence. */
const AVIF_BRANDS = new Set(['avif', 'avis']);

/**
 * An ISO BMFF file (AVIF, HEIC, mp4…) starts with its `ftyp` box: size, "ftyp", the major brand, a
 * version, then compatible brands. It is an AVIF when one of those brands is (a `mif1` file that
 * lists `avif`, say); HEIC and mp4 are not, as the renderer's decoder reads AV1 only.
 */
function isAvif(b: Uint8Array): boolean {
  if (!startsWith(b, ascii('ftyp'), 4)) return false;
  const size = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
  const end = Math.min(size, b.length, 256);
  const brand = (at: number) => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
  if (end >= 12 && AVIF_BRANDS.has(brand(8))) return true;
  for (let at = 16; at + 4 <= end; at += 4) if (AVIF_BRANDS.has(brand(at))) return true;
  return false;
}

export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (isAvif(bytes)) return 'image/avif';
  return undefined;
}
