// Font families of text and chart objects: the default, and the check that a family is both bundled
// and declared in the design's `fonts`.
import { validationError } from '../errors.js';
import type { CheckContext } from './handler.js';

export const DEFAULT_FONT_FAMILY = 'Inter';

/**
 * A family must be available (bundled or one of the design's font files) and declared in the design's
 * `fonts`; `at` is the path of the field naming it. `what` names the setting when the path does not
 * (a substyle's font_family is found at `…text`); at `…font_family` the path says it already.
 */
export function checkFontFamily(family: string, at: string, ctx: CheckContext, what?: string): void {
  const prefix = what === undefined ? '' : `${what}: `;
  if (!ctx.fonts.has(family) && !ctx.fileFamilies?.includes(family)) {
    throw validationError(
      at,
      `${prefix}font family "${family}" is not available: use one of ${ctx.fonts.familyNames().join(', ')}, or add its file to $.fonts`,
    );
  }
  if (!ctx.designFonts.includes(family)) {
    throw validationError(at, `${prefix}font family "${family}" is not listed in $.fonts: add it there (listed: ${ctx.designFonts.join(', ')})`);
  }
}
