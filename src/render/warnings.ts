// Render warnings: what a render that succeeded did not draw as meant (characters no font has, a face
// or family substituted), as plain data the CLI prints, interface A returns with the task and the
// webhook carries.
import type { FitReport } from '../layout/layout.js';
import type { FontSubstitution } from '../layout/text.js';
import { catalogueFamily } from '../text/catalogue.js';

interface WarningBase {
  /** The text object's name; null for an unnamed one. */
  object: string | null;
  /** Zero-based page of a multi-page pdf; absent otherwise. */
  page?: number;
  /** What happened and what to do about it. */
  description: string;
}

/** A render finished, but not as the template meant it. */
export type RenderWarning =
  | (WarningBase & {
      /** Characters no font of the fallback chain can draw. */
      code: 'missing_characters';
      /** The characters, each once, in the order they first appear. */
      characters: string[];
    })
  | (WarningBase & {
      /** Text drawn with another family (missing_fonts "fallback") or another weight or style than asked (the nearest the family has). */
      code: 'font_substituted';
      substitutions: FontSubstitution[];
    });

const faceText = (family: string, weight: number, style: string) => `${family} ${weight}${style === 'italic' ? ' italic' : ''}`;

function substitutionText(s: FontSubstitution): string {
  if (s.used_family.toLowerCase() !== s.family.toLowerCase()) {
    const fix = catalogueFamily(s.family) ? `install it with npx imprint fonts install "${s.family}"` : "add its file to the design's fonts";
    return `font family "${s.family}" is not available, so it was drawn with ${s.used_family} (${fix})`;
  }
  return `${faceText(s.family, s.weight, s.style)} was asked for but the family has no such face, so the nearest, ${faceText(s.used_family, s.used_weight, s.used_style)}, was used`;
}

/** Characters shown by name in a description; the rest are counted. */
const SHOWN = 20;

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * One warning per text object with characters the fonts cannot draw (the report's missing_characters).
 * Entries of a multi-page pdf carry their page (render/pdf.ts); other reports have none.
 */
export function renderWarnings(report: FitReport): RenderWarning[] {
  const out: RenderWarning[] = [];
  for (const entry of report) {
    const page = entry.page !== undefined ? `page ${entry.page + 1}, ` : '';
    const where = `${page}${entry.name === null ? 'an unnamed text object' : `text object "${entry.name}"`}`;
    if (entry.font_substitutions) {
      out.push({
        code: 'font_substituted',
        object: entry.name,
        ...(entry.page !== undefined ? { page: entry.page } : {}),
        substitutions: entry.font_substitutions,
        description: `${where}: ${entry.font_substitutions.map(substitutionText).join('; ')}`,
      });
    }
    const characters = [...new Set(entry.missing_characters)];
    if (characters.length === 0) continue;
    const shown = characters.slice(0, SHOWN).map((c) => `${c} (${codePoint(c)})`);
    const more = characters.length > SHOWN ? ` and ${characters.length - SHOWN} more` : '';
    out.push({
      code: 'missing_characters',
      object: entry.name,
      ...(entry.page !== undefined ? { page: entry.page } : {}),
      characters,
      description: `${where} has characters the fonts cannot draw, shown as the font's empty box: ${shown.join(' ')}${more}. Add a font that has them to the design's fonts, or change the text`,
    });
  }
  return out;
}
