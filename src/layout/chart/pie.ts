// Pie and donut charts: the first series only, one slice per column, clockwise from 12 o'clock.
// Negative values and gaps count as 0; a table that sums to 0 draws an empty ring, never NaN.
import type { Rect } from '../../scene/scene.js';
import type { DisplayItem } from '../../scene/display-list.js';
import { labelMetrics, placeLabel, shapeLabel } from '../label.js';
import type { ChartContext } from './context.js';

const TOP = -Math.PI / 2;

export function pieShares(values: readonly (number | null)[]): number[] {
  const clean = values.map((v) => (v !== null && v > 0 ? v : 0));
  const total = clean.reduce((a, b) => a + b, 0);
  return total > 0 ? clean.map((v) => v / total) : clean.map(() => 0);
}

export function layoutPie(ctx: ChartContext, area: Rect): DisplayItem[] {
  const { chart, fonts, style } = ctx;
  const radius = Math.max(1, Math.min(area.width, area.height) / 2);
  const cx = area.x + area.width / 2;
  const cy = area.y + area.height / 2;
  const inner = chart.chartType === 'donut' ? radius * chart.donutHole : 0;
  const shares = pieShares(chart.series[0]?.values ?? []);
  const items: DisplayItem[] = [];

  if (shares.every((s) => s === 0)) {
    items.push({ kind: 'fill', geometry: { kind: 'wedge', cx, cy, radius, innerRadius: inner, start: TOP, end: TOP + 2 * Math.PI }, color: ctx.faint(0.12) });
    return items;
  }

  const labelStyle = { ...style, color: [255, 255, 255, 1] as const, weight: 700 };
  const m = labelMetrics(labelStyle, fonts);
  let start = TOP;
  shares.forEach((share, i) => {
    if (share === 0) return;
    const end = start + share * 2 * Math.PI;
    items.push({ kind: 'fill', geometry: { kind: 'wedge', cx, cy, radius, innerRadius: inner, start, end }, color: ctx.colorOf(i) });
    // A share label where the slice is wide enough to hold it.
    const mid = (start + end) / 2;
    const r = inner > 0 ? (radius + inner) / 2 : radius * 0.62;
    const text = `${Math.round(share * 100)}%`;
    const label = shapeLabel(text, labelStyle, fonts);
    const room = (end - start) * r;
    if (chart.dataLabels && room > label.width * 1.1 && (inner === 0 || radius - inner > m.ascent + m.descent)) {
      const placed = placeLabel(label, labelStyle, cx + Math.cos(mid) * r, cy + Math.sin(mid) * r + (m.ascent - m.descent) / 2, 'center');
      if (placed) items.push(placed);
    }
    start = end;
  });
  return items;
}
