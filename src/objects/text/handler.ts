// Text objects: override fields text, text_align, text_transform, lang, stroke, shadow, fill, background,
// underline, strikethrough and config.*; markup → spans; font checks.
import { shadowOf } from '../../format/shadow.js';
import { validationError } from '../../errors.js';
import { parseHexColor } from '../../format/color.js';
import { checkFill, fillOf, impliedFillType } from '../../format/fill.js';
import { childPath } from '../../format/json-path.js';
import { canonicalLang } from '../../format/lang.js';
import type { GradientSceneFill, SceneText, SceneTextBackground } from '../../scene/scene.js';
import { MarkupError, parseMarkup } from '../../text/markup.js';
import { transformTexts } from '../../text/transform.js';
import { mergeFields, placementOf } from '../common.js';
import { checkFontFamily, DEFAULT_FONT_FAMILY } from '../fonts.js';
import type { ObjectHandler } from '../handler.js';
import { TextOverride, type TextFill, TextObject } from './schema.js';

function backgroundOf(b: NonNullable<TextObject['background']>): SceneTextBackground {
  const p = b.padding ?? 0;
  return {
    color: parseHexColor(b.color),
    padding: typeof p === 'number' ? { x: p, y: p } : { x: p.x, y: p.y },
    cornerRadius: b.corner_radius ?? 0,
    mode: b.mode ?? 'lines',
  };
}

/** `textAt` is the JSON path of the text field. */
function spansOf(o: TextObject, textAt: string): ReturnType<typeof parseMarkup> {
  try {
    return parseMarkup(o.text);
  } catch (e) {
    if (e instanceof MarkupError) throw validationError(textAt, e.message);
    throw e;
  }
}

export const textHandler: ObjectHandler<typeof TextObject, typeof TextOverride, SceneText> = {
  type: 'text',
  schema: TextObject,
  what: 'a text object',
  override: TextOverride,
  merge(o, ov) {
    const fill = ov.fill as Partial<TextFill> | undefined;
    // An override without a type keeps the template's gradient type; without one, its fields imply
    // one as a shape background's do (angle: linear, center or radius: radial), else linear.
    if (fill && fill.type === undefined) {
      const type = o.fill?.type ?? impliedFillType(fill, undefined) ?? 'linear_gradient';
      ov = { ...ov, fill: { ...fill, type } };
    }
    return mergeFields(o, ov);
  },
  check(o, at, ctx) {
    if (o.fill) checkFill(o.fill, childPath(at, 'fill'), 'fill');
    const spans = spansOf(o, childPath(at, 'text'));
    checkFontFamily(o.font_family ?? DEFAULT_FONT_FAMILY, childPath(at, 'font_family'), ctx);
    for (const s of spans) if (s.style.family !== undefined) checkFontFamily(s.style.family, childPath(at, 'text'), ctx, 'substyle font_family');
    // An override may outline text the template does not; then it must give both fields.
    for (const field of ['width', 'color'] as const) {
      if (o.stroke && o.stroke[field] === undefined) {
        throw validationError(
          childPath(at, 'stroke', field),
          `the text has no stroke to restyle: give stroke.${field} (${field === 'width' ? 'in pixels' : '#rrggbb or #rrggbbaa'}) as well`,
        );
      }
    }
    if (o.background && o.background.color === undefined) {
      throw validationError(
        childPath(at, 'background', 'color'),
        'the text has no background to restyle: give background.color (#rrggbb or #rrggbbaa) as well',
      );
    }
    if (o.min_font_size !== undefined && o.font_size !== undefined && o.min_font_size > o.font_size) {
      throw validationError(childPath(at, 'min_font_size'), `min_font_size (${o.min_font_size}) must not exceed font_size (${o.font_size})`);
    }
  },
  toScene(o, fieldPath, ctx): SceneText {
    const color = o.color ?? '#000000';
    const weight = o.font_weight ?? 400;
    const fontSize = o.font_size ?? 48;
    const spans = spansOf(o, fieldPath('text'));
    const fill: GradientSceneFill | undefined = o.fill ? fillOf(o.fill, fieldPath('fill')) : undefined;
    // The object's own language, else the design's (both validated by the schema, so canonicalLang is not null).
    const lang = (o.lang === undefined ? undefined : (canonicalLang(o.lang) ?? undefined)) ?? ctx.lang;
    // The case change comes before shaping, so line breaks, fit and the pdf's text all see the changed text.
    const texts = transformTexts(
      spans.map((s) => s.text),
      o.text_transform ?? 'none',
    );
    return {
      type: 'text',
      ...placementOf(o),
      spans: spans.map((s, i) => ({
        text: texts[i]!,
        weight: s.style.weight ?? weight,
        ...(s.style.italic || o.font_style === 'italic' ? { style: 'italic' as const } : {}),
        ...(s.style.family === undefined ? {} : { family: s.style.family }),
        color: parseHexColor(s.style.color ?? color),
        underline: s.style.underline ?? o.underline ?? false,
        ...(s.style.strikethrough || o.strikethrough ? { strikethrough: true } : {}),
        // A substyle colour wins over the gradient for its span, as a coloured <span> inside CSS background-clip: text would.
        ...(fill && s.style.color === undefined ? { fill: true as const } : {}),
        ...(s.style.link === undefined ? {} : { link: s.style.link }),
        ...(s.style.lang === undefined || s.style.lang === lang ? {} : { lang: s.style.lang }),
      })),
      family: o.font_family ?? DEFAULT_FONT_FAMILY,
      fontSize,
      minFontSize: Math.min(o.min_font_size ?? 6, fontSize),
      align: o.text_align ?? 'start',
      ...(o.direction === undefined || o.direction === 'auto' ? {} : { direction: o.direction }),
      ...(lang === undefined ? {} : { lang }),
      lineHeight: o.line_height ?? 1.2,
      letterSpacing: o.letter_spacing ?? 0,
      strategy: o.config?.text_replacement_strategy ?? 'fit',
      valign: o.config?.text_replacement_strategy_fit_valign ?? 'center',
      ...(o.overflow_wrap === 'normal' ? { overflowWrap: 'normal' as const } : {}),
      ...(o.config?.text_replacement_strategy_fit_step === undefined ? {} : { fitStep: o.config.text_replacement_strategy_fit_step }),
      ...(o.config?.text_replacement_strategy_fit_height === 'text' ? { fitHeightFollowsText: true as const } : {}),
      ...(o.config?.text_replacement_strategy_fit_split_words ? { fitSplitWords: true as const } : {}),
      ...(o.keep_trailing_spaces ? { keepTrailingSpaces: true as const } : {}),
      ...(fill ? { fill } : {}),
      ...(o.stroke === undefined || o.stroke.width === 0 ? {} : { stroke: { color: parseHexColor(o.stroke.color), width: o.stroke.width } }),
      ...(o.shadow ? { shadow: shadowOf(o.shadow) } : {}),
      ...(o.background ? { background: backgroundOf(o.background) } : {}),
    };
  },
};
