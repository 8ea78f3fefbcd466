// Chart layout: title, legend and plot area inside the object's box, then the chart type's marks.
// Everything is display-list primitives (paths, wedges, glyph runs), so pdf can draw it as vectors.
import type { Rect, SceneChart } from '../../scene/scene.js';
import type { FontSet } from '../../text/fonts.js';
import type { DisplayItem } from '../../scene/display-list.js';
import { labelMetrics, placeLabel, shapeLabel, type LabelStyle } from '../label.js';
import { layoutCartesian } from './cartesian.js';
import type { ChartContext } from './context.js';
import { layoutPie } from './pie.js';

export function isPie(c: SceneChart): boolean {
  return c.chartType === 'pie' || c.chartType === 'donut';
}

export function layoutChart(chart: SceneChart, fonts: FontSet): DisplayItem[] {
  const { width, height } = chart.box;
  const style: LabelStyle = {
    family: chart.family,
    size: chart.fontSize,
    weight: 400,
    color: chart.textColor,
    ...(chart.lang === undefined ? {} : { lang: chart.lang }),
  };
  const ctx: ChartContext = {
    chart,
    fonts,
    style,
    colorOf: (i) => chart.colors[i % chart.colors.length]!,
    faint: (a) => [chart.textColor[0], chart.textColor[1], chart.textColor[2], chart.textColor[3] * a],
  };
  const items: DisplayItem[] = [];
  const gap = chart.fontSize * 0.75;
  let area: Rect = { x: 0, y: 0, width, height };

  if (chart.title) {
    const titleStyle: LabelStyle = { ...style, size: chart.fontSize * 1.3, weight: 700 };
    const m = labelMetrics(titleStyle, fonts);
    const label = placeLabel(shapeLabel(chart.title, titleStyle, fonts, width), titleStyle, 0, m.ascent, 'left');
    if (label) items.push(label);
    const used = m.ascent + m.descent + gap;
    area = { ...area, y: area.y + used, height: area.height - used };
  }

  if (chart.legend !== 'none') {
    const names = isPie(chart) ? chart.categories : chart.series.map((s) => s.name);
    const legend = layoutLegend(ctx, names, area, chart.legend);
    items.push(...legend.items);
    area = legend.rest;
  }

  if (area.width > 1 && area.height > 1) items.push(...(isPie(chart) ? layoutPie(ctx, area) : layoutCartesian(ctx, area)));
  return items;
}

/** Swatch + name per entry: a wrapping row at the top or bottom, or a column on the right. */
function layoutLegend(ctx: ChartContext, names: readonly string[], area: Rect, position: 'top' | 'bottom' | 'right'): { items: DisplayItem[]; rest: Rect } {
  const { style, fonts } = ctx;
  const m = labelMetrics(style, fonts);
  const lineHeight = (m.ascent + m.descent) * 1.4;
  const swatch = style.size * 0.75;
  const pad = style.size * 0.4;
  const spacing = style.size * 1.2;
  const items: DisplayItem[] = [];
  const entry = (i: number, x: number, top: number, maxLabel: number): number => {
    const label = shapeLabel(names[i] ?? '', style, fonts, maxLabel);
    const mid = top + lineHeight / 2;
    items.push({
      kind: 'fill',
      geometry: { kind: 'round_rect', rect: { x, y: mid - swatch / 2, width: swatch, height: swatch }, radius: swatch * 0.2 },
      color: ctx.colorOf(i),
    });
    const text = placeLabel(label, style, x + swatch + pad, mid + (m.ascent - m.descent) / 2, 'left');
    if (text) items.push(text);
    return swatch + pad + label.width;
  };

  if (position === 'right') {
    const widest = Math.max(0, ...names.map((n) => shapeLabel(n, style, fonts).width));
    const columnWidth = Math.min(swatch + pad + widest, area.width * 0.35);
    const x = area.x + area.width - columnWidth;
    const rows = Math.max(1, Math.floor(area.height / lineHeight));
    const shown = Math.min(names.length, rows);
    const top = area.y + (area.height - shown * lineHeight) / 2;
    for (let i = 0; i < shown; i++) entry(i, x, top + i * lineHeight, columnWidth - swatch - pad);
    return { items, rest: { ...area, width: Math.max(0, area.width - columnWidth - spacing) } };
  }

  // Rows that wrap at the box width, each row centred.
  const widths = names.map((n) => Math.min(swatch + pad + shapeLabel(n, style, fonts).width, area.width));
  const rows: number[][] = [[]];
  let rowWidth = 0;
  widths.forEach((w, i) => {
    const row = rows[rows.length - 1]!;
    if (row.length > 0 && rowWidth + spacing + w > area.width) {
      rows.push([i]);
      rowWidth = w;
    } else {
      rowWidth += (row.length ? spacing : 0) + w;
      row.push(i);
    }
  });
  const blockHeight = rows.length * lineHeight;
  const top = position === 'top' ? area.y : area.y + area.height - blockHeight;
  rows.forEach((row, r) => {
    const total = row.reduce((s, i) => s + widths[i]!, 0) + spacing * (row.length - 1);
    let x = area.x + (area.width - total) / 2;
    for (const i of row) x += entry(i, x, top + r * lineHeight, widths[i]! - swatch - pad) + spacing;
  });
  const used = blockHeight + ctx.chart.fontSize * 0.75;
  return { items, rest: position === 'top' ? { ...area, y: area.y + used, height: area.height - used } : { ...area, height: area.height - used } };
}
