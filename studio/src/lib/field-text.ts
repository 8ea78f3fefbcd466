// What a person reads for a form field: a label in words made from its JSON key (a few keys the
// generic rule reads badly are named by hand; every other key is split at `_` and capitalised, so a
// new schema field gets a readable label with nothing to keep in step), the key itself for the
// tooltip, and what a select shows for "no override": the value the template leaves in use. No DOM.

/** Keys whose words alone would not say what they do; every other key gets the generic label. */
const NAMED: Readonly<Record<string, string>> = {
  text_replacement_strategy: 'Text fitting',
  text_replacement_strategy_fit_valign: 'Vertical alignment when fitting',
  media_replacement_strategy: 'How the image fills its box',
  focal_point: 'Point kept in view',
  mockup_data: 'Layers',
  clip_svg: 'Clip to an SVG shape',
  flip_x: 'Flip horizontally',
  flip_y: 'Flip vertically',
  lang: 'Language',
  path: 'Image',
  image_url: 'Image',
  overflow_wrap: 'Breaking long words',
  text_align: 'Alignment',
  text_transform: 'Letter case',
  stops: 'Colour stops',
  color: 'Colour',
  config: 'Fitting',
};

/** Words written their own way inside a generic label. */
const WORDS: Readonly<Record<string, string>> = {
  valign: 'vertical alignment',
  halign: 'horizontal alignment',
  color: 'colour',
  colors: 'colours',
  center: 'centre',
  url: 'URL',
  svg: 'SVG',
  id: 'ID',
  x: 'X',
  y: 'Y',
};

/** `text_replacement_strategy_fit_valign` → "Vertical alignment when fitting"; `offset_x` → "Offset X". */
export function fieldLabel(key: string): string {
  const named = NAMED[key];
  if (named) return named;
  const words = key
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((w) => WORDS[w.toLowerCase()] ?? w.toLowerCase());
  if (words.length === 0) return key;
  const [first, ...rest] = words;
  return [first!.charAt(0).toUpperCase() + first!.slice(1), ...rest].join(' ');
}

/** The tooltip of a field's label: its place in the JSON (`config.text_replacement_strategy`), then what the schema says of it. */
export function fieldTitle(id: string, description: string): string {
  return description ? `${id}: ${description}` : id;
}

/**
 * The value the renderer uses when neither the template nor an override sets the field, as the
 * schema's description states it ("Default center.", "cover (default) crops…"); only one of the
 * field's options counts.
 */
export function schemaDefault(description: string, options: readonly string[]): string | undefined {
  const found = [/\bdefault:?\s+([\w-]+)/i.exec(description)?.[1], /([\w-]+)\s+\(default\)/i.exec(description)?.[1]];
  return found.find((v): v is string => v !== undefined && options.includes(v));
}

/**
 * The text of a select's "no override" option: the value in use without one — the template's
 * (`top (template)`), else the renderer's default (`center (default)`), else just "template".
 */
export function noOverrideText(templateValue: unknown, description: string, options: readonly string[]): string {
  if (typeof templateValue === 'string' && templateValue !== '') return `${templateValue} (template)`;
  const d = schemaDefault(description, options);
  return d ? `${d} (default)` : '(as the template)';
}
