// Render warnings: what a render that succeeded did not draw as meant (characters no font has), as
// plain data the CLI prints, interface A returns with the task and the webhook carries.
import type { FitReport } from '../layout/layout.js';

/** A render finished, but not as the template meant it. */
export interface RenderWarning {
  /** Stable code: `missing_characters`, characters no font of the fallback chain can draw. */
  code: 'missing_characters';
  /** The text object's name; null for an unnamed one. */
  object: string | null;
  /** Zero-based page of a multi-page pdf; absent otherwise. */
  page?: number;
  /** The characters, each once, in the order they first appear. */
  characters: string[];
  /** What happened and what to do about it. */
  description: string;
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
    const characters = [...new Set(entry.missing_characters)];
    if (characters.length === 0) continue;
    const shown = characters.slice(0, SHOWN).map((c) => `${c} (${codePoint(c)})`);
    const more = characters.length > SHOWN ? ` and ${characters.length - SHOWN} more` : '';
    const page = entry.page !== undefined ? `page ${entry.page + 1}, ` : '';
    const where = `${page}${entry.name === null ? 'an unnamed text object' : `text object "${entry.name}"`}`;
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
