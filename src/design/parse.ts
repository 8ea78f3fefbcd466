// parse: JSON text or value → validated Design. Every error names the JSON path of the bad value.
import { Design as DesignSchema, type Design } from './schema.js';
import { validationError } from '../errors.js';
import { handlerFor, handlerForType } from '../objects/registry.js';
import type { CheckContext } from '../objects/handler.js';
import { DEFAULT_FONT_FAMILY, missingFamilyMessage } from '../objects/fonts.js';
import { bundledFonts, type FontSet } from '../text/fonts.js';
import { childPath, jsonPath, type PathSegment } from '../format/json-path.js';
import { slotsOf, type Slot } from './slots.js';
import { parseImageRef } from '../format/image-ref.js';
import { checkFill } from '../format/fill.js';
import { checkTimeline } from './timeline-check.js';
import { issueToError } from '../format/zod-error.js';
import { canonicalLang } from '../format/lang.js';

/** Parses JSON text; the error names the position, since a path does not exist yet. */
export function parseJson(text: string, root = '$', what = 'the document'): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw validationError(root, `${what} is not valid JSON (${(e as Error).message}): fix the syntax`);
  }
}

function describeDesignPath(input: unknown) {
  return (path: readonly PathSegment[]): string | undefined => {
    const n = path.length;
    if (n === 0) return 'a design';
    if (n < 2 || typeof path[n - 1] !== 'number') return undefined;
    // Entries of a list are named by their type: "a text object" (on the canvas or a slide), "a fade_in animation".
    const entry = path.reduce<unknown>((v, seg) => (v !== null && typeof v === 'object' ? (v as Record<PathSegment, unknown>)[seg] : undefined), input);
    const tag = entry !== null && typeof entry === 'object' ? (entry as { type?: unknown }).type : undefined;
    if (path[n - 2] === 'objects') return handlerForType(String(tag))?.what;
    if (path[n - 2] === 'animations') return typeof tag === 'string' ? `a ${tag} animation` : 'an animation';
    return undefined;
  };
}

/** The families a design's `fonts` entries name, files and bundled alike. */
function declaredFamilies(fonts: Design['fonts']): string[] {
  return [...new Set((fonts ?? []).map((f) => (typeof f === 'string' ? f : f.family)))];
}

export function checkContext(design: Design, fonts: FontSet): CheckContext {
  const fileFamilies = declaredFamilies(design.fonts?.filter((f) => typeof f !== 'string'));
  const lang = design.lang === undefined ? null : canonicalLang(design.lang);
  return { fonts, designFonts: design.fonts ? declaredFamilies(design.fonts) : [DEFAULT_FONT_FAMILY], fileFamilies, ...(lang === null ? {} : { lang }) };
}

/** A shape's `wrap` names a text object beside it: in the same design, or on the same slide. */
function checkWraps(slots: readonly Slot[]): void {
  for (const { object, at, slide } of slots) {
    if (object.type !== 'shape' || !object.wrap) continue;
    const name = object.wrap.object;
    const where = childPath(at, 'wrap', 'object');
    if (name === object.name) throw validationError(where, `a shape cannot wrap itself: name the text object it sits behind instead of "${name}"`);
    const targets = slots.filter((s) => s.object.name === name);
    const target = targets[0];
    const unique = (n: string | undefined) => n !== undefined && slots.filter((s) => s.object.name === n).length === 1;
    const texts = slots.filter((s) => s.slide === slide && s.object.type === 'text' && unique(s.object.name)).map((s) => JSON.stringify(s.object.name));
    const choose = texts.length > 0 ? `use one of ${texts.join(', ')}` : 'name a text object beside it first';
    if (!target) throw validationError(where, `expected the name of a text object for wrap.object but the design has no object named "${name}": ${choose}`);
    if (targets.length > 1) {
      throw validationError(
        where,
        `"${name}" names ${targets.length} objects (${targets.map((t) => t.at).join(', ')}), so wrap.object would not say which text the shape sits behind: give that text a name of its own and wrap it`,
      );
    }
    if (target.object.type !== 'text') {
      throw validationError(where, `expected a text object for wrap.object but "${name}" is ${handlerFor(target.object).what}: ${choose}`);
    }
    if (target.slide !== slide) {
      const there = target.slide === null ? 'the canvas objects' : `slides[${target.slide}]`;
      throw validationError(where, `expected a text object of the shape's own slide for wrap.object but "${name}" is on ${there}: ${choose}`);
    }
  }
}

/** `root` is where the design sits in the request, for error paths (`$.pages[1].design` in a multi-page pdf). */
export function parseDesign(input: unknown, fonts: FontSet = bundledFonts(), root = '$'): Design {
  const value = typeof input === 'string' ? parseJson(input, root, 'the design') : input;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw validationError(root, 'expected the design to be a JSON object with width, height and objects');
  }
  const result = DesignSchema.safeParse(value);
  if (!result.success) {
    throw issueToError(result.error.issues[0]!, value, { root, schema: DesignSchema, describe: describeDesignPath(value) });
  }
  const design = result.data;

  // Families of files are checked when the files load (assets/design-fonts.ts); a name must be one of them or known to `fonts`.
  const files = declaredFamilies(design.fonts?.filter((f) => typeof f !== 'string'));
  (design.fonts ?? []).forEach((family, i) => {
    if (typeof family === 'string' && !fonts.has(family) && !files.includes(family)) {
      throw validationError(jsonPath(['fonts', i], root), missingFamilyMessage(family, [...new Set([...files, ...fonts.familyNames()])]));
    }
  });
  if (design.background) checkFill(design.background, jsonPath(['background'], root));
  if (design.audio) parseImageRef(design.audio.path, jsonPath(['audio', 'path'], root));

  const ctx = checkContext(design, fonts);
  if (design.slides && design.objects?.length) {
    throw validationError(jsonPath(['objects'], root), 'a design has either objects or slides: move these objects into a slide');
  }
  if (!design.slides && !design.objects) throw validationError(jsonPath(['objects'], root), 'expected objects (or, for a slide video, slides)');
  // Names need not be unique: a name shared by several objects is a role, and an override of it applies
  // to every one of them (resolve/resolve.ts), as Polotno templates use names ("primary_colour" on 3 shapes).
  const slots = slotsOf(design, root);
  for (const { object, at, slide } of slots) {
    handlerFor(object).check(object, at, ctx);
    checkTimeline(object, at, slide === null ? design.duration : design.slides![slide]!.duration);
  }
  checkWraps(slots);
  const slideNames = new Set<string>();
  design.slides?.forEach((s, i) => {
    const at = jsonPath(['slides', i], root);
    if (s.background) checkFill(s.background, childPath(at, 'background'));
    if (s.name !== undefined) {
      if (slideNames.has(s.name)) throw validationError(childPath(at, 'name'), `slide name "${s.name}" is used twice: slide overrides need unique names`);
      slideNames.add(s.name);
    }
    const next = design.slides![i + 1];
    const d = s.transition && s.transition.type !== 'cut' ? (s.transition.duration ?? 0.5) : 0;
    if (next && d > Math.min(s.duration, next.duration)) {
      throw validationError(
        childPath(at, 'transition', 'duration'),
        `the transition (${d} s) must not be longer than this slide (${s.duration} s) or the next (${next.duration} s)`,
      );
    }
  });
  return design;
}
