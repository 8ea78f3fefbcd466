// Font families of text and chart objects: the default, and the check that a family is both bundled
// and declared in the design's `fonts`.
import { validationError } from '../errors.js';
import type { CheckContext } from './handler.js';

export const DEFAULT_FONT_FAMILY = 'Inter';

/** A family must be bundled and declared in the design's `fonts`; `at` is the font_family path. */
export function checkFontFamily(family: string, at: string, ctx: CheckContext): void {
  if (!ctx.fonts.has(family)) throw validationError(at, `font family "${family}" is not bundled: use one of ${ctx.fonts.familyNames().join(', ')}`);
  if (!ctx.designFonts.includes(family)) {
    throw validationError(at, `font family "${family}" is not listed in $.fonts: add it there (listed: ${ctx.designFonts.join(', ')})`);
  }
}
