// Chart objects placed: the chart's items (chart/chart.ts) in the object's group, clipped to its box.
import type { SceneChart } from '../../scene/scene.js';
import { layoutChart } from '../chart/chart.js';
import { castShadow, group, localBox, type ObjectLayout } from '../place.js';

export const chartLayout: ObjectLayout<SceneChart> = (o, ctx) => {
  const local = localBox(o);
  // Clipped like mockups: labels near the edges never paint outside the chart's box.
  return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, { kind: 'rect', rect: local }, layoutChart(o, ctx.fonts)), o.shadow) };
};
