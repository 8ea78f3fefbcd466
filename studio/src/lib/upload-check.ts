// What the Studio checks of an image before it uploads it: a file the service would refuse (not an
// image, or over its size limit) gets its message at once, in the page, instead of after sending
// megabytes. The service checks again (its sniffing of the bytes is the real test). No DOM.

/** The service's limit of one upload (MAX_UPLOAD_BYTES in src/service/uploads.ts; a test keeps the two equal). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

const IMAGE_NAME = /\.(png|jpe?g|webp|avif|gif|svg)$/i;

/** Why the file cannot be an uploaded image, or null when it may be sent. */
export function imageFileProblem(file: { name: string; size: number; type: string }): string | null {
  const looksLikeImage = file.type.startsWith('image/') || (file.type === '' && IMAGE_NAME.test(file.name));
  if (!looksLikeImage) return `“${file.name}” is not an image: choose a png, jpg, webp, avif, gif or svg file.`;
  if (file.size > MAX_UPLOAD_BYTES) {
    const mb = (n: number) => (n / 1048576).toFixed(1).replace(/\.0$/, '');
    return `“${file.name}” is ${mb(file.size)} MB: images of up to ${mb(MAX_UPLOAD_BYTES)} MB can be uploaded; make it smaller.`;
  }
  return null;
}
