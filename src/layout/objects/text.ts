// Text objects placed: the laid-out text (text.ts: shaping, fit, lines) in a group sized by it, with
// room for what reaches past the glyph boxes, clipped when the fit says so, and its fit report.
import type { SceneText } from '../../scene/scene.js';
import { castShadow, group, type ObjectLayout } from '../place.js';

export const textLayout: ObjectLayout<SceneText> = (o, ctx) => {
  const t = ctx.layOutText(o);
  // Glyphs reach outside their em box a little; an outline a further half its width.
  // A background reaches past the lines by its padding.
  const pad = o.background ? Math.max(o.background.padding.x, o.background.padding.y) : 0;
  const margin = t.report.font_size + Math.max(o.stroke ? o.stroke.width / 2 : 0, pad);
  const bounds = { x: -margin, y: -margin, width: t.box.width + 2 * margin, height: t.box.height + 2 * margin };
  const g = group(o.box, t.box, o.rotation, o.scale, o.opacity, bounds, t.clip ? { kind: 'rect', rect: t.box } : null, t.items);
  return { group: castShadow(g, o.shadow), report: t.report };
};
