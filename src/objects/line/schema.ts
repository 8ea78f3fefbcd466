// Line objects in template format v1: a straight stroke across the middle of the box, left to right,
// with optional heads (arrows, triangles, circles, squares, bars) and a dash pattern.
import { z } from 'zod';
import { Color, doc, LIMITS } from '../../format/fields.js';
import { Shadow } from '../../format/shadow.js';
import { common, placementOverrideFields } from '../common.js';

const Head = z.enum(['none', 'arrow', 'triangle', 'circle', 'square', 'bar']);
const HEAD_TEXT =
  'none, arrow (open chevron), triangle (filled), circle (filled), square (filled) or bar (a cross stroke). Heads are 4 stroke widths across (arrow and triangle 3 long), outlined with the stroke width and never dashed. Default none.';

const fields = {
  color: doc(Color, 'Colour of the line and its heads. Default #000000.', '#1e88e5'),
  stroke_width: doc(
    z.number().finite().gt(0, { error: 'expected a stroke width greater than 0' }).max(LIMITS.maxObjectSide),
    'Thickness of the line in pixels. Default: the box height (so a Polotno-style 400 × 10 box is a 10 px line).',
    6,
  ),
  dash: doc(
    z.array(z.number().finite().min(0).max(1000)).max(16),
    'Dash pattern: lengths of dashes and gaps in multiples of the stroke width, repeated from the start. [] or absent = solid. [4, 2] is dashed; [0, 2] with line_cap round is dotted. At least one length must be above 0.',
    [4, 2],
  ),
  line_cap: doc(
    z.enum(['butt', 'round', 'square']),
    'Ends of the line and of each dash: butt (flat at the end, default), round or square (both reach half the stroke width further).',
    'round',
  ),
  start_head: doc(Head, `Head at the start (left end): ${HEAD_TEXT}`, 'circle'),
  end_head: doc(Head, `Head at the end (right end): ${HEAD_TEXT}`, 'arrow'),
};

/** A line's own fields: the template's and, all of them, an override's. */
const lineFields = {
  color: fields.color.optional(),
  stroke_width: fields.stroke_width.optional(),
  dash: fields.dash.optional(),
  line_cap: fields.line_cap.optional(),
  start_head: fields.start_head.optional(),
  end_head: fields.end_head.optional(),
  shadow: Shadow.optional(),
};

export const LineObject = z
  .strictObject({
    type: doc(z.literal('line'), 'Object type: a straight line from the left middle to the right middle of its box.', 'line'),
    ...common,
    ...lineFields,
  })
  .meta({
    description:
      'A straight line across the middle of its box, from left to right; width is its length and rotation turns it about the box centre. Heads may reach outside the box.',
  });

export const LineOverride = z.strictObject({
  ...placementOverrideFields,
  ...lineFields,
});

export type LineObject = z.infer<typeof LineObject>;
export type LineOverride = z.infer<typeof LineOverride>;
