// Text objects: override fields text, text_align and config.*; markup → spans; font checks.
import { z } from 'zod';
import { parseHexColor } from '../format/color.js';
import { childPath } from '../format/json-path.js';
import { TextConfig, TextObject, type TextObject as TextObjectT } from '../design/schema.js';
import type { SceneText } from '../scene/scene.js';
import { validationError } from '../errors.js';
import { MarkupError, parseMarkup } from '../text/markup.js';
import type { CheckContext, ObjectHandler } from './handler.js';
import { mergeFields, placementOf, placementOverrideFields } from './placement.js';

export const DEFAULT_FONT_FAMILY = 'Inter';

export const TextOverride = z.strictObject({
  ...placementOverrideFields,
  text: TextObject.shape.text.optional(),
  text_align: TextObject.shape.text_align,
  config: TextConfig.optional(),
});

/** A family must be bundled and declared in the design's `fonts`; `at` is the font_family path. */
export function checkFontFamily(family: string, at: string, ctx: CheckContext): void {
  if (!ctx.fonts.has(family)) throw validationError(at, `font family "${family}" is not bundled: use one of ${ctx.fonts.familyNames().join(', ')}`);
  if (!ctx.designFonts.includes(family)) {
    throw validationError(at, `font family "${family}" is not listed in $.fonts: add it there (listed: ${ctx.designFonts.join(', ')})`);
  }
}

/** `textAt` is the JSON path of the text field. */
function spansOf(o: TextObjectT, textAt: string): ReturnType<typeof parseMarkup> {
  try {
    return parseMarkup(o.text);
  } catch (e) {
    if (e instanceof MarkupError) throw validationError(textAt, e.message);
    throw e;
  }
}

export const textHandler: ObjectHandler<TextObjectT> = {
  type: 'text',
  what: 'a text object',
  override: TextOverride,
  merge: mergeFields,
  check(o, at, ctx) {
    spansOf(o, childPath(at, 'text'));
    checkFontFamily(o.font_family ?? DEFAULT_FONT_FAMILY, childPath(at, 'font_family'), ctx);
    if (o.min_font_size !== undefined && o.font_size !== undefined && o.min_font_size > o.font_size) {
      throw validationError(childPath(at, 'min_font_size'), `min_font_size (${o.min_font_size}) must not exceed font_size (${o.font_size})`);
    }
  },
  toScene(o, fieldPath): SceneText {
    const color = o.color ?? '#000000';
    const weight = o.font_weight ?? 400;
    const fontSize = o.font_size ?? 48;
    return {
      type: 'text',
      ...placementOf(o),
      spans: spansOf(o, fieldPath('text')).map((s) => ({
        text: s.text,
        weight: s.style.weight ?? weight,
        color: parseHexColor(s.style.color ?? color),
        underline: s.style.underline ?? false,
        ...(s.style.link === undefined ? {} : { link: s.style.link }),
      })),
      family: o.font_family ?? DEFAULT_FONT_FAMILY,
      fontSize,
      minFontSize: Math.min(o.min_font_size ?? 6, fontSize),
      align: o.text_align ?? 'left',
      lineHeight: o.line_height ?? 1.2,
      letterSpacing: o.letter_spacing ?? 0,
      strategy: o.config?.text_replacement_strategy ?? 'fit',
      valign: o.config?.text_replacement_strategy_fit_valign ?? 'center',
    };
  },
};
