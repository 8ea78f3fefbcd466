// Polotno text elements → Imprint text objects: font, paragraph and decoration fields, rich text as
// substyle markup, and the sizing Polotno's server render gives every text (shrink to fit its box).
import { validationError } from '../../../errors.js';
import type { Converter } from '../context.js';
import type { TextInput } from '../imprint-types.js';
import { looksLikeRichText, parseRichText, RichTextError, type Run, type RunStyle } from '../rich-text.js';
import type { PolotnoText } from '../schema.js';
import { color, colorWithAlpha, fontWeightOf, paint, refuse, round } from '../shared.js';
import { animationsOf, begin, commonEffects } from './common.js';

const TEXT_DEFAULTS = { fontSize: 14, fontFamily: 'Roboto', fill: 'black', align: 'center', lineHeight: 1.2 } as const;

function lineHeightOf(v: number | string | undefined, at: string): number {
  if (v === undefined) return TEXT_DEFAULTS.lineHeight;
  if (typeof v === 'number') return v;
  const s = v.trim();
  const n = s.endsWith('%') ? Number(s.slice(0, -1)) / 100 : Number(s);
  if (s === 'auto' || !Number.isFinite(n)) {
    throw validationError(
      at,
      `expected a line height multiplier such as 1.2 (or "150%") but received ${JSON.stringify(v)} ("auto" depends on the browser's font metrics)`,
    );
  }
  return n;
}

export function convertText(c: Converter, e: PolotnoText, at: string, pageSeconds: number): TextInput {
  const fontSize = e.fontSize ?? TEXT_DEFAULTS.fontSize;
  const lineHeight = lineHeightOf(e.lineHeight, `${at}.lineHeight`);
  const width = e.width ?? 100;
  // 0 means "not measured yet": the editor sizes the box to the text.
  const savedHeight = e.height ?? 0;
  const height = savedHeight > 0 ? savedHeight : fontSize * lineHeight;
  if ((e.rotation ?? 0) !== 0 && savedHeight <= 0) {
    // Polotno turns the text about its top-left corner whatever its height; Imprint about the box
    // centre, which is only the same point when the height the editor measured is known.
    refuse(at, 'height', 'a rotated text needs the height the editor measured (it saves it): give height, the height of the text in pixels');
  }
  const { base } = begin(e, 'text', { defaultWidth: width, height });
  const family = e.fontFamily ?? TEXT_DEFAULTS.fontFamily;
  c.family(family, `${at}.fontFamily`);
  // Everything but the text, which comes last: it is markup made from the fields set before it.
  const out: Omit<TextInput, 'text'> = { ...base, font_family: family, font_size: fontSize };
  const weight = fontWeightOf(e.fontWeight, `${at}.fontWeight`);
  if (weight !== 400) out.font_weight = weight;
  if (e.fontStyle === 'italic') out.font_style = 'italic';
  out.text_align = e.align ?? TEXT_DEFAULTS.align;
  out.line_height = lineHeight;
  if (e.letterSpacing) {
    // Before schema version 1 the spacing was stored in rem (16 px).
    out.letter_spacing = round(c.schemaVersion < 1 ? (e.letterSpacing * 16) / fontSize : e.letterSpacing);
  }
  if (e.textTransform && e.textTransform !== 'none') out.text_transform = e.textTransform;
  // Konva counts the spaces ending a paragraph when it centres or right-aligns the line (CSS hangs them).
  out.keep_trailing_spaces = true;

  const fill = paint(e.fill ?? TEXT_DEFAULTS.fill, width, height, `${at}.fill`);
  const baseColor = 'color' in fill ? fill.color : fill.stops[0]!.color;
  if ('color' in fill) out.color = fill.color;
  else out.fill = fill;

  const strokeWidth = e.strokeWidth ?? 0;
  if (strokeWidth > 0) {
    if ((e.strokeLineJoin ?? 'round') !== 'round') {
      refuse(at, 'strokeLineJoin', `only round stroke joins are supported on text (received "${e.strokeLineJoin}"): set strokeLineJoin to "round"`);
    }
    out.stroke = { color: color(e.stroke ?? 'black', `${at}.stroke`), width: strokeWidth };
  }
  if (e.backgroundEnabled) {
    const unit = fontSize * lineHeight * 0.5;
    out.background = {
      color: colorWithAlpha(e.backgroundColor ?? '#7ED321', e.backgroundOpacity ?? 1, `${at}.backgroundColor`),
      padding: round((e.backgroundPadding ?? 0.5) * unit),
      corner_radius: round((e.backgroundCornerRadius ?? 0.5) * unit),
      // Polotno's loadJSON marks every text background of a document before schema version 3 (no
      // schemaVersion counts as 0) legacyBackground, drawn as one rectangle over the whole element.
      mode: e.legacyBackground === true || c.schemaVersion < 3 ? 'full_width' : 'lines',
    };
  }
  if (e.curveEnabled) refuse(at, 'curveEnabled', 'curved text is not supported: set curveEnabled to false');
  if (e.maxLines) refuse(at, 'maxLines', 'maxLines is not supported: remove it (fit shrinks text into its box instead)');

  // Sizing. Polotno's server render (polotno-node) sets textOverflow "change-font-size" for every text:
  // a text taller than its saved height shrinks by 0.5 px steps from its size until it fits, and (unless
  // textSplitAllowed) until no word is split across lines. An element's own textOverflow wins:
  // "resize" grows the box with the text, and Konva then splits a word too long for a line.
  const valign = e.verticalAlign ?? 'top';
  const overflow = e.textOverflow ?? 'change-font-size';
  if (overflow === 'ellipsis') refuse(at, 'textOverflow', 'textOverflow "ellipsis" is not supported: use "change-font-size" (shrink to fit) or "resize"');
  // Without a saved height (the editor always saves one) the default grows the box; a middle- or
  // bottom-aligned text with one is placed in it, and shrinks as a change-font-size one.
  const fit = (overflow !== 'resize' && (e.textOverflow !== undefined || savedHeight > 0)) || (valign !== 'top' && savedHeight > 0);
  const imprintValign = valign === 'middle' ? 'center' : valign;
  const split = overflow === 'resize' || c.textSplitAllowed;
  out.overflow_wrap = split ? 'break-word' : 'normal';
  // Field by field, not by conditional spreads: a field the schema renames must break the build.
  const config: NonNullable<TextInput['config']> = { text_replacement_strategy: fit ? 'fit' : 'fixed-width' };
  if (fit) {
    config.text_replacement_strategy_fit_valign = imprintValign;
    config.text_replacement_strategy_fit_step = 0.5;
    // Polotno then sets the element's height to its text's; a middle or bottom one keeps its box.
    if (valign === 'top') config.text_replacement_strategy_fit_height = 'text';
    if (split) config.text_replacement_strategy_fit_split_words = true;
  }
  out.config = config;
  // Polotno's fit shrinks down to minFontSize (default 1 px) and draws at most maxFontSize.
  if (fit) out.min_font_size = Math.min(e.minFontSize ?? 1, fontSize);
  if (fit && e.maxFontSize !== undefined && e.maxFontSize < fontSize) out.font_size = e.maxFontSize;

  // The markup sets the element's decoration (underline, strikethrough) on `out` before the text follows it.
  const markup = textMarkup(c, e, at, { weight, italic: e.fontStyle === 'italic', color: baseColor, family }, out);
  const text: TextInput = { ...out, text: markup };
  commonEffects(e, at, text);
  animationsOf(e.animations, text, at, pageSeconds);
  return text;
}

interface BaseStyle {
  underline?: boolean;
  strikethrough?: boolean;
  weight: number;
  italic: boolean;
  color: string;
  family: string;
}

/** The element's text as Imprint markup: rich-text runs and the element's decoration as substyles. */
function textMarkup(c: Converter, e: PolotnoText, at: string, base: BaseStyle, out: Pick<TextInput, 'underline' | 'strikethrough'>): string {
  const text = e.text ?? '';
  let runs: Run[];
  try {
    runs = looksLikeRichText(text) ? parseRichText(text) : [{ text, style: {} }];
  } catch (err) {
    if (err instanceof RichTextError) throw validationError(`${at}.text`, err.message);
    throw err;
  }
  const decoration = (e.textDecoration ?? '').toLowerCase();
  for (const word of decoration.split(/\s+/).filter(Boolean)) {
    if (word !== 'underline' && word !== 'line-through') {
      refuse(at, 'textDecoration', `expected "underline", "line-through" or both but received ${JSON.stringify(e.textDecoration)}`);
    }
  }
  // The element's decoration is the text object's own, so it stays when an override replaces the text.
  if (decoration.includes('underline')) out.underline = base.underline = true;
  if (decoration.includes('line-through')) out.strikethrough = base.strikethrough = true;
  return runs.map((r) => substyle(c, r.text, definedOnly(r.style), base, at)).join('');
}

function definedOnly(s: RunStyle): RunStyle {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined));
}

function substyle(c: Converter, text: string, s: RunStyle, base: BaseStyle, at: string): string {
  if (text.includes('<substyle') || text.includes('</substyle')) {
    throw validationError(`${at}.text`, 'the text contains "<substyle", which Imprint reads as markup: remove it');
  }
  const attrs: string[] = [];
  if (s.weight !== undefined && s.weight !== base.weight) attrs.push(`bold="${s.weight}"`);
  if (s.italic === true && !base.italic) attrs.push('italic');
  if (s.italic === false && base.italic) {
    throw validationError(
      `${at}.text`,
      'an upright span inside italic text cannot be expressed: make the element upright (fontStyle normal) and make the other parts italic with <em>',
    );
  }
  if (s.family !== undefined && s.family !== base.family) {
    if (s.family.includes('"')) throw validationError(`${at}.text`, `the font family ${JSON.stringify(s.family)} contains a double quote: rename it`);
    c.family(s.family, `${at}.text`);
    attrs.push(`font_family="${s.family}"`);
  }
  if (s.color !== undefined) {
    const hex = color(s.color, `${at}.text`);
    if (hex !== base.color) attrs.push(`color="${hex}"`);
  }
  if (s.underline && !base.underline) attrs.push('underline');
  if (s.strikethrough && !base.strikethrough) attrs.push('strikethrough');
  return attrs.length === 0 ? text : `<substyle ${attrs.join(' ')}>${text}</substyle>`;
}
