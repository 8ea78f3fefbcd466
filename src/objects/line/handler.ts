// Line objects: override fields color, stroke_width, dash, line_cap, heads and shadow; the dash is
// checked here (a pattern of only zeros draws nothing and no backend accepts it).
import { validationError } from '../../errors.js';
import { parseHexColor } from '../../format/color.js';
import { childPath } from '../../format/json-path.js';
import { shadowOf } from '../../format/shadow.js';
import type { SceneLine } from '../../scene/scene.js';
import { mergeFields, placementOf } from '../common.js';
import type { ObjectHandler } from '../handler.js';
import { LineOverride, LineObject } from './schema.js';

export const lineHandler: ObjectHandler<typeof LineObject, typeof LineOverride, SceneLine> = {
  type: 'line',
  schema: LineObject,
  what: 'a line object',
  override: LineOverride,
  merge: (o, ov) => mergeFields(o, ov),
  check(o, at) {
    if (o.dash && o.dash.length > 0 && o.dash.every((d) => d === 0)) {
      throw validationError(childPath(at, 'dash'), 'expected at least one dash length above 0 (for example [4, 2]), or [] for a solid line');
    }
  },
  toScene(o): SceneLine {
    return {
      type: 'line',
      ...placementOf(o),
      color: parseHexColor(o.color ?? '#000000'),
      width: o.stroke_width ?? o.height,
      // An odd count repeats twice, as canvas and pdf do, so both draw the same pattern.
      dash: o.dash && o.dash.length % 2 === 1 ? [...o.dash, ...o.dash] : (o.dash ?? []),
      cap: o.line_cap ?? 'butt',
      startHead: o.start_head ?? 'none',
      endHead: o.end_head ?? 'none',
      shadow: shadowOf(o.shadow),
    };
  },
};
