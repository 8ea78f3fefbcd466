// A task's result as a person meets it: the file it downloads as (after the design, not `task-12.png`),
// the address the page can read it from, whether it can be shown as a picture, and what kind of
// render the task was in plain words. No DOM: unit-tested.

/** Results the page can show as an <img> (pdf and mp4 get a label instead). */
const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'webp', 'avif', 'gif']);

/**
 * A design name as a file name: lower case, accents dropped, every run of other characters one `-`
 * (`Card 1080 — Été` → `card-1080-ete`), at most 60 characters; '' when nothing is left.
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

/** The extension of a result address (`…/abc.png?x` → `png`), or '' without one. */
export function resultExtension(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const m = /\.([a-z0-9]{1,5})$/i.exec(path.slice(path.lastIndexOf('/') + 1));
  return m ? m[1]!.toLowerCase() : '';
}

/**
 * The file a result downloads as: the design's name, the task (two renders of one design differ),
 * the result's own extension — `card-1080-task-12.png`; `design-7-task-12.png` for a design without a
 * usable name.
 */
export function downloadName(design: { name: string; id: number }, taskId: number, resultUrl: string): string {
  const ext = resultExtension(resultUrl);
  const stem = `${slugify(design.name) || `design-${design.id}`}-task-${taskId}`;
  return ext ? `${stem}.${ext}` : stem;
}

/**
 * The result's address asking the service to save it under `fileName` (`?download=`, an addition of
 * the service: Content-Disposition attachment, or a presigned S3 address that names the file).
 */
export function downloadUrl(url: string, fileName: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}download=${encodeURIComponent(fileName)}`;
}

/**
 * The result address on the page's own origin. The service writes result URLs with its configured
 * base (http://localhost:3000 by default), which may name the same server by another host than the
 * page was opened with (127.0.0.1); the page's CSP lets it read and show only its own origin, and
 * results are always served by the service at /public/v2/results/. Undefined for another address.
 */
export function sameOriginResult(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url, 'http://page.invalid');
  } catch {
    return undefined;
  }
  const at = u.pathname.indexOf('/public/v2/results/');
  return at < 0 ? undefined : u.pathname.slice(at) + u.search;
}

export function isImageResult(url: string): boolean {
  return IMAGE_EXTENSIONS.has(resultExtension(url));
}

/** What kind of render a task was, in words: interface A is the render API, interface B the video API. */
export function taskKindText(iface: 'A' | 'B'): { text: string; title: string } {
  return iface === 'A'
    ? { text: 'API render', title: 'Interface A: POST /public/v2/render' }
    : { text: 'Video render', title: 'Interface B: POST /api/videos/<id>/render (priced per render)' };
}
