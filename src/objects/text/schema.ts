// Text objects in template format v1: the text (with substyle markup), font and paragraph fields, how
// replaced text is sized; and the fields an override may set.
import { Shadow } from '../../format/shadow.js';
import { z } from 'zod';
import { Color, doc, LIMITS } from '../../format/fields.js';
import { gradientFields } from '../../format/fill.js';
import { LangTag } from '../../format/lang.js';
import { common, placementOverrideFields } from '../common.js';

export const TextAlign = doc(
  z.enum(['left', 'center', 'right', 'justify', 'start', 'end']),
  'Horizontal alignment of each line. start and end follow the paragraph direction (start is left for left-to-right text, right for Arabic or Hebrew). justify stretches every line but the last of a paragraph. Default start.',
  'center',
);

export const TextConfig = z
  .strictObject({
    text_replacement_strategy: doc(
      z.enum(['fit', 'fixed-width']),
      'fit (default): keep the box, shrink the font until the text fits (never grow). fixed-width: keep width and font size; the box height follows the text, top edge fixed.',
      'fit',
    ).optional(),
    text_replacement_strategy_fit_valign: doc(
      z.enum(['top', 'center', 'bottom']),
      'With fit, where the text sits vertically when it is shorter than the box. Default center.',
      'top',
    ).optional(),
    text_replacement_strategy_fit_step: doc(
      z.number().finite().gt(0).max(100),
      "With fit, search sizes from the text's font_size down in steps of this many px and take the first at which the text fits (min_font_size is the last tried), as Polotno's change-font-size does with 0.5. Default: the largest size that fits, to a quarter pixel (which can be a little larger: line breaks do not always move in step with the size).",
      0.5,
    ).optional(),
    text_replacement_strategy_fit_height: doc(
      z.enum(['box', 'text']),
      "With fit, the object's height once the size is found: box (default) keeps it and places the text by fit_valign; text makes it the text's height, top edge fixed, as fixed-width does (a gradient fill spreads over it, a rotation turns about its centre): Polotno's change-font-size, which sets the element's height to its text's after fitting.",
      'text',
    ).optional(),
    text_replacement_strategy_fit_split_words: doc(
      z.boolean(),
      'With fit, a size at which a word wider than the box is split across lines (overflow_wrap break-word) still fits: fit shrinks only until the lines fit the height, as Polotno does with textSplitAllowed. Default false: it also shrinks until every word fits whole on a line.',
      true,
    ).optional(),
  })
  .meta({ description: 'How replaced text is sized.', examples: [{ text_replacement_strategy: 'fit', text_replacement_strategy_fit_valign: 'top' }] });

export const TextStroke = z
  .strictObject({
    color: doc(Color, 'Outline colour; a #rrggbbaa alpha makes it translucent.', '#000000'),
    width: doc(
      z.number().finite().min(0).max(200),
      'Outline width in px, centred on the glyph outlines and painted under the fill (CSS -webkit-text-stroke with paint-order: stroke), so half of it shows outside the letters. It does not change the layout or scale with fit. 0 draws none.',
      4,
    ),
  })
  .meta({
    description: 'An outline around the glyphs, painted under the fill so the letters keep their full shape.',
    examples: [{ color: '#000000', width: 6 }],
  });

const px = (what: string, max: number) =>
  z
    .number()
    .finite()
    .min(0, { error: `expected ${what} of at least 0 pixels` })
    .max(max, { error: `expected ${what} of at most ${max} pixels` });

export const TextBackgroundPadding = z
  .union([
    px('a padding', 1000),
    z.strictObject({
      x: doc(px('a padding', 1000), 'Padding left and right, px.', 16),
      y: doc(px('a padding', 1000), 'Padding above and below, px.', 6),
    }),
  ])
  .meta({
    description: 'Space between the text and the edge of its background, px: one number for all sides, or { x, y }. Default 0.',
    examples: [12, { x: 16, y: 6 }],
  });

export const TextBackground = z
  .strictObject({
    color: doc(Color, 'Background colour; a #rrggbbaa alpha makes it see-through (overlapping line boxes do not double it).', '#ffeb3b'),
    padding: TextBackgroundPadding.optional(),
    corner_radius: doc(px('a corner radius', 1000), 'Radius of the rounded corners, px, capped at half the shorter side of each box. Default 0.', 8).optional(),
    mode: doc(
      z.enum(['lines', 'box', 'full_width']),
      "lines (default): one box per line around that line (its advance width × the line height) grown by the padding, the highlighter look (CSS background on an inline span with box-decoration-break: clone). box: one box around all lines grown by the padding, the button look. full_width: one box across the object's whole width, from the first line's top to the last line's bottom, grown by the padding, however long the lines are (Polotno's background of documents saved before its schema version 3).",
      'box',
    ).optional(),
  })
  .meta({
    description:
      'A box behind the text that sizes itself around the laid-out text: it follows text_align, fit shrinking and overridden text (a longer text gets a bigger background). Painted under the outline and the glyphs; may reach past the object box by the padding. A shadow of the text object is the shadow of background and glyphs together (like CSS box-shadow on the box, not text-shadow on the glyphs over it). Default none.',
    examples: [{ color: '#ffeb3b', padding: { x: 12, y: 4 }, corner_radius: 6, mode: 'lines' }],
  });

export const TextFill = z
  .strictObject({
    type: doc(
      z.enum(['linear_gradient', 'radial_gradient']),
      'linear_gradient or radial_gradient, with the same fields as a shape background of that type (stops, and angle, or center and radius).',
      'linear_gradient',
    ),
    ...gradientFields,
  })
  .meta({
    description:
      'A gradient painted through the glyphs instead of color, spread over the text object\'s box (its height after fixed-width sizing), like CSS background: linear-gradient(…) with background-clip: text on the element. A substyle color="…" still wins for its span; the outline (stroke) and the shadow keep their own colours; underlines take the gradient too. Default none (color).',
    examples: [
      {
        type: 'linear_gradient',
        angle: 90,
        stops: [
          { offset: 0, color: '#ff512f' },
          { offset: 1, color: '#dd2476' },
        ],
      },
    ],
  });

export const TextObject = z
  .strictObject({
    type: doc(z.literal('text'), 'Object type: a text box.', 'text'),
    ...common,
    text: doc(
      z.string().max(LIMITS.maxTextLength),
      'The text. \\n breaks lines. May contain <substyle bold="700" italic font_family="Lora" color="#hex" underline strikethrough link="(url:https://…)" lang="ja">…</substyle> tags, never nested.',
      'Summer <substyle bold="700" color="#e53935">sale</substyle>',
    ),
    font_family: doc(
      z.string().min(1),
      "A font family listed in the design fonts (bundled Inter or Lora, or one of the design's own font files). Default Inter.",
      'Inter',
    ).optional(),
    font_size: doc(z.number().finite().gt(0).max(LIMITS.maxFontSize), 'Font size in pixels; fit never exceeds it. Default 48.', 64).optional(),
    font_weight: doc(
      z.int().min(100).max(900),
      'Weight 100-900, matched like CSS font-weight: the face of that weight, a variable font instanced at it, or the nearest by the CSS rules. Default 400.',
      700,
    ).optional(),
    font_style: doc(
      z.enum(['normal', 'italic']),
      'normal or italic. Without an italic face the glyphs are slanted (synthetic italic). Default normal.',
      'italic',
    ).optional(),
    color: doc(Color, 'Text colour. Default #000000.', '#222222').optional(),
    fill: TextFill.optional(),
    text_align: TextAlign.optional(),
    direction: doc(
      z.enum(['auto', 'ltr', 'rtl']),
      'Base direction of each paragraph. auto (default) takes it from the first letter: right to left for Arabic or Hebrew, else left to right.',
      'rtl',
    ).optional(),
    lang: doc(
      LangTag,
      "The text's language as a BCP 47 tag (ja, ko, zh-Hans, zh-Hant, zh-TW, zh-HK, en-US, ar…), like HTML's lang attribute: Chinese characters and CJK punctuation the font lacks are drawn in the forms of that language (zh-Hant, zh-TW, zh-HK and zh-MO with Noto Sans TC, ja with Noto Sans JP, ko with Noto Sans KR, other zh with Noto Sans SC), and fonts apply their language-specific forms (OpenType locl). Tags match by prefix and case-insensitively, as CSS :lang() does (ja-JP is ja). Default: the design's lang; without one, forms follow the characters (kana: Japanese, Hangul: Korean, else Simplified Chinese).",
      'ja',
    ).optional(),
    line_height: doc(z.number().finite().min(0.5).max(5), 'Line height as a multiple of the font size. Default 1.2.', 1.1).optional(),
    letter_spacing: doc(
      z.number().finite().min(-0.5).max(2),
      'Extra space after each character, in em (0.05 = 5% of the font size). Default 0.',
      0.02,
    ).optional(),
    text_transform: doc(
      z.enum(['none', 'uppercase', 'lowercase', 'capitalize']),
      'Case change applied before shaping and line breaking, like CSS text-transform: uppercase, lowercase, or capitalize (the first letter of each word in titlecase, the rest unchanged). Locale-independent Unicode case mappings (ß becomes SS); substyles keep their parts. Default none.',
      'uppercase',
    ).optional(),
    overflow_wrap: doc(
      z.enum(['break-word', 'normal']),
      'A word wider than the box: break-word (default) splits it between characters; normal keeps it whole, as CSS overflow-wrap: normal and Polotno do, so it reaches past the box (fit first shrinks the text until it fits, down to min_font_size).',
      'normal',
    ).optional(),
    keep_trailing_spaces: doc(
      z.boolean(),
      "Spaces at the end of a paragraph's last line count when the line is aligned (center, right, end, and in the background's width), as Polotno's (Konva's) text does, so a centred \"Sale \" sits half a space to the left; spaces at a wrap still do not count, nor do they when the line with them would be wider than the box. Default false: trailing spaces hang past the line's end and never move it, as in CSS.",
      true,
    ).optional(),
    stroke: TextStroke.optional(),
    shadow: Shadow.optional(),
    background: TextBackground.optional(),
    underline: doc(z.boolean(), 'Underline all of the text (a substyle underline does a part). Default false.', true).optional(),
    strikethrough: doc(
      z.boolean(),
      "A line through all of the text (a substyle strikethrough does a part), placed and as thick as the font's OS/2 strikeout metrics say, in the text colour. Default false.",
      true,
    ).optional(),
    min_font_size: doc(
      z.number().finite().gt(0).max(LIMITS.maxFontSize),
      'Smallest size fit may shrink to; below it the text is clipped. Default 6.',
      12,
    ).optional(),
    config: TextConfig.optional(),
  })
  .meta({ description: 'A text box.' });

export const TextOverride = z.strictObject({
  ...placementOverrideFields,
  text: TextObject.shape.text.optional(),
  font_family: doc(
    z.string().min(1).max(100),
    "Addition to the spec: another family for the whole text: one of the design's fonts, a bundled family, or any Google Fonts family by name (installed when the render is requested).",
    'Playfair Display',
  ).optional(),
  text_align: TextObject.shape.text_align,
  text_transform: TextObject.shape.text_transform,
  lang: TextObject.shape.lang,
  overflow_wrap: TextObject.shape.overflow_wrap,
  // Field by field, like a shape's border: a colour alone restyles the template's outline.
  stroke: TextStroke.partial()
    .meta({ description: "The text's outline, field by field (color and width both when the template has none).", examples: [{ color: '#ffca28' }] })
    .optional(),
  // Field by field, like a shape's: a colour alone recolours the template's shadow.
  shadow: Shadow.optional(),
  // Field by field: a colour alone recolours the template's background (color too when it has none).
  background: TextBackground.partial()
    .meta({ description: "The text's background, field by field (color too when the template has none).", examples: [{ color: '#e53935' }] })
    .optional(),
  underline: TextObject.shape.underline,
  strikethrough: TextObject.shape.strikethrough,
  // Field by field, like a shape's background: stops alone recolour the template's gradient.
  fill: TextFill.partial()
    .meta(TextFill.meta() ?? {})
    .optional(),
  // The two fields a request changes; how fit searches (step, height, split words) belongs to the
  // template (a Polotno import sets it) and stays when an override changes the strategy.
  config: TextConfig.pick({ text_replacement_strategy: true, text_replacement_strategy_fit_valign: true })
    .meta(TextConfig.meta() ?? {})
    .optional(),
});

export type TextObject = z.infer<typeof TextObject>;
export type TextFill = z.infer<typeof TextFill>;
