// Polotno store JSON → an Imprint design (template format v1) plus the files its data: URLs embed.
// Pure: no I/O (remote files are fetched by the import, src/service/remote-files.ts, and handed in).
// Each element becomes the object that draws it exactly (elements/, one file per element type); a field
// Imprint cannot draw exactly is refused at its Polotno JSON path, never approximated. Errors found
// later in the converted design are traced back to the element they came from (polotnoPath).
import { validationError } from '../../errors.js';
import { Converter, type PolotnoOptions, type RemoteRef } from './context.js';
import { audioOf, designSize, fontEntries, pageBackground, printFields } from './document.js';
import type { ConvertedObject, ImprintDesign } from './imprint-types.js';
import { readDocument } from './input.js';
import { convertPage } from './page.js';

export type { FetchedFile, PolotnoOptions, RemoteKind, RemoteRef } from './context.js';

export interface PolotnoConversion {
  /** The Imprint design (template format v1), to be validated by parseDesign like any other. */
  design: ImprintDesign;
  /** Files embedded as data: URLs, by the relative path the design refers to them with. */
  files: Map<string, Uint8Array>;
  /** Imprint JSON path → the Polotno path it came from, most specific first (see polotnoPath). */
  origins: [imprint: string, polotno: string][];
  /** The http(s) URLs the document refers to, in document order (with `remote: 'list'`: every one). */
  remote: RemoteRef[];
}

/** A Polotno document: pages whose entries hold children, and no Imprint objects or slides. */
export function isPolotnoDocument(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v.pages) && !('objects' in v) && !('slides' in v) && v.pages.every((p) => p !== null && typeof p === 'object');
}

/**
 * The Polotno path an error at `imprintPath` (rooted at "$") of the converted design belongs to, or
 * undefined when it is not a path of the design (an override's, say).
 */
export function polotnoPath(conversion: PolotnoConversion, imprintPath: string): string | undefined {
  for (const [from, to] of conversion.origins) {
    if (imprintPath === from || imprintPath.startsWith(`${from}.`) || imprintPath.startsWith(`${from}[`)) return to;
  }
  return undefined;
}

const DEFAULT_PAGE_MS = 5000;

/** A converted object that changes over time: it has animations, or it is a video clip. */
const moves = (o: ConvertedObject): boolean => o.type === 'video' || (o.animations !== undefined && o.animations.length > 0);

export function convertPolotno(input: unknown, options: PolotnoOptions = {}): PolotnoConversion {
  const root = options.root ?? '$';
  const doc = readDocument(input, root);
  const c = new Converter(root, doc.schemaVersion ?? 0, options.remote ?? 'refuse', options.textSplitAllowed ?? false);
  const fonts = fontEntries(c, doc, options);
  const size = designSize(c, doc);

  const design: ImprintDesign = { width: size.width, height: size.height, ...printFields(c, doc) };
  const pages = doc.pages.map((page, i) => {
    const seconds = (page.duration ?? DEFAULT_PAGE_MS) / 1000;
    if (seconds <= 0) throw validationError(c.at(['pages', i, 'duration']), 'expected a page duration greater than 0 ms');
    const objects = convertPage(c, page, i, seconds, doc.pages.length === 1 ? '$.objects' : `$.slides[${i}].objects`);
    return { seconds, background: pageBackground(c, page.background, size.width, size.height, c.at(['pages', i, 'background'])), objects };
  });

  const audio = audioOf(c, doc);
  if (pages.length === 1) {
    const p = pages[0]!;
    design.background = p.background;
    // Polotno gives every page a duration (5000 ms by default), animated or not: a page becomes an
    // animated design only when something in it moves or plays (or it has a soundtrack), otherwise
    // a one-page card would import as a 5 s video.
    if (audio || p.objects.some(moves)) design.duration = p.seconds;
    design.objects = p.objects;
    c.origin('$.background', c.at(['pages', 0, 'background']));
  } else {
    design.slides = pages.map((p, i) => {
      c.origin(`$.slides[${i}].background`, c.at(['pages', i, 'background']));
      return { duration: p.seconds, background: p.background, objects: p.objects };
    });
  }
  if (audio) design.audio = audio;
  // The font files first, then every other family the texts use, by name.
  const families = [...c.families.keys()];
  const allFonts: NonNullable<ImprintDesign['fonts']> = [...fonts, ...families.filter((f) => !fonts.some((x) => x.family === f))];
  design.fonts = allFonts;
  families.forEach((f) => {
    const i = allFonts.findIndex((x) => x === f);
    if (i >= 0) c.origin(`$.fonts[${i}]`, c.families.get(f)!);
  });
  for (const f of ['width', 'height', 'duration', 'bleed']) c.origin(`$.${f}`, c.at(['pages', 0]));
  c.origin('$.dpi', c.at(['dpi']));
  if (c.sources.size > 0) design.sources = Object.fromEntries(c.sources);
  // Most specific first: field paths before their element, elements before the root.
  const origins = c.origins.sort((a, b) => b[0].length - a[0].length);
  return { design, files: c.files, origins, remote: c.remote };
}
