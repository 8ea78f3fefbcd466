// Font families of text and chart objects: the default, and the check that a family is both bundled
// and declared in the design's `fonts`.
import { validationError } from '../errors.js';
import { catalogueFamily } from '../text/catalogue.js';
import type { CheckContext } from './handler.js';

export const DEFAULT_FONT_FAMILY = 'Inter';

/**
 * Why a family named in `fonts` cannot be used, and the fix: a Google Fonts family is installed by
 * name; any other is shipped as a file. (A Polotno document's errors say the same in Polotno's terms:
 * design/import.ts.)
 */
export function missingFamilyMessage(family: string, available: readonly string[]): string {
  const known = catalogueFamily(family);
  if (known) {
    return (
      `font family "${family}" is a Google Fonts family that is not installed: install it with npx imprint fonts install "${known.family}" ` +
      `(imprint render installs it on first use; the service when the design is imported), or use missing_fonts "fallback" (CLI --missing-fonts fallback, library missingFonts) to draw it with ${DEFAULT_FONT_FAMILY}`
    );
  }
  return `font family "${family}" is not available: use one of ${available.join(', ')}, or ship its file as {"family": "${family}", "path": "fonts/….woff2"}`;
}

/**
 * A family must be available (bundled or one of the design's font files) and declared in the design's
 * `fonts`; `at` is the path of the field naming it. `what` names the setting when the path does not
 * (a substyle's font_family is found at `…text`); at `…font_family` the path says it already.
 */
export function checkFontFamily(family: string, at: string, ctx: CheckContext, what?: string): void {
  const prefix = what === undefined ? '' : `${what}: `;
  if (!ctx.fonts.has(family) && !ctx.fileFamilies?.includes(family)) {
    const message = catalogueFamily(family)
      ? missingFamilyMessage(family, [])
      : `font family "${family}" is not available: use one of ${ctx.fonts.familyNames().join(', ')}, or add its file to $.fonts`;
    throw validationError(at, `${prefix}${message}`);
  }
  // A Google Fonts family from the font folder may be named without being listed (an override picking
  // a family: the service installs it when the render is requested).
  if (!ctx.designFonts.includes(family) && !(ctx.overrides && ctx.fonts.source(family)?.kind === 'installed')) {
    throw validationError(at, `${prefix}font family "${family}" is not listed in $.fonts: add it there (listed: ${ctx.designFonts.join(', ')})`);
  }
}
