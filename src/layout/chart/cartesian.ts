// Charts on a value axis and a category axis: column, stacked_column, bar (horizontal), line, area.
// Axis ranges come from niceTicks; negative values hang below the zero line; null is a gap.
import type { RGBA, Point, Rect } from '../../scene/scene.js';
import type { DisplayItem } from '../../scene/display-list.js';
import { labelMetrics, placeLabel, shapeLabel } from '../label.js';
import type { ChartContext } from './context.js';
import { formatNumber, labelDecimals } from './format.js';
import { linear, niceTicks, type Ticks } from './scale.js';

/** The value range to show: stacked charts stack, bars and areas keep 0 on the axis. */
export function valueDomain(ctx: Pick<ChartContext, 'chart'>): [number, number] {
  const { chart } = ctx;
  const values: number[] = [];
  if (chart.chartType === 'stacked_column') {
    chart.categories.forEach((_, j) => {
      let pos = 0;
      let neg = 0;
      for (const s of chart.series) {
        const v = s.values[j] ?? 0;
        if (v > 0) pos += v;
        else neg += v;
      }
      values.push(pos, neg);
    });
  } else {
    for (const s of chart.series) for (const v of s.values) if (v !== null) values.push(v);
  }
  if (chart.chartType !== 'line') values.push(0);
  if (values.length === 0) return [0, 1];
  return [Math.min(...values), Math.max(...values)];
}

/** Where bars start: 0 when the axis spans it, else the axis end nearest to 0. */
function baselineOf(t: Ticks): number {
  return t.min > 0 ? t.min : t.max < 0 ? t.max : 0;
}

/** The densest nice ticks (2-8 intervals) whose labels keep `room(ticks)` apart along `length`. */
function fittingTicks(lo: number, hi: number, length: number, room: (t: Ticks) => number): Ticks {
  let best = niceTicks(lo, hi, 1);
  for (let target = 2; target <= 8; target++) {
    const t = niceTicks(lo, hi, target);
    if (t.values.length > best.values.length && length / (t.values.length - 1) >= room(t)) best = t;
  }
  return best;
}

function rotated(item: DisplayItem | null, ax: number, ay: number, bounds: Rect): DisplayItem | null {
  if (!item) return null;
  const r = Math.SQRT1_2; // −45°: text rises to the right and ends at the anchor
  return { kind: 'group', transform: [r, -r, r, r, ax, ay], opacity: 1, bounds, clip: null, items: [item] };
}

function hline(x0: number, x1: number, y: number, color: RGBA, width = 1): DisplayItem {
  return {
    kind: 'stroke',
    geometry: {
      kind: 'polyline',
      points: [
        [x0, y],
        [x1, y],
      ],
    },
    color,
    width,
    dash: null,
  };
}

function vline(x: number, y0: number, y1: number, color: RGBA, width = 1): DisplayItem {
  return {
    kind: 'stroke',
    geometry: {
      kind: 'polyline',
      points: [
        [x, y0],
        [x, y1],
      ],
    },
    color,
    width,
    dash: null,
  };
}

/** Width of the widest data label. */
function dataLabelWidth({ chart, fonts, style }: ChartContext): number {
  let widest = 0;
  for (const s of chart.series) {
    for (const v of s.values)
      if (v !== null) widest = Math.max(widest, shapeLabel(formatNumber(v, chart.numberFormat, labelDecimals(v, chart.numberFormat)), style, fonts).width);
  }
  return widest;
}

export function layoutCartesian(ctx: ChartContext, area: Rect): DisplayItem[] {
  return ctx.chart.chartType === 'bar' ? layoutBars(ctx, area) : layoutColumns(ctx, area);
}

/** Vertical value axis: column, stacked_column, line, area. */
function layoutColumns(ctx: ChartContext, area: Rect): DisplayItem[] {
  const { chart, fonts, style } = ctx;
  const m = labelMetrics(style, fonts);
  const lineH = m.ascent + m.descent;
  const pad = style.size * 0.5;
  const [lo, hi] = valueDomain(ctx);
  const fmt = chart.numberFormat;
  const tickText = (t: Ticks, v: number): string => formatNumber(v, fmt, fmt.decimals ?? t.decimals);
  const axisWidth = (t: Ticks): number => Math.max(...t.values.map((v) => shapeLabel(tickText(t, v), style, fonts).width)) + pad;
  const n = Math.max(1, chart.categories.length);

  // First pass with a rough plot height, to size the value labels and choose the category label mode.
  const rowRoom = (): number => lineH * 2;
  let ticks = fittingTicks(lo, hi, area.height, rowRoom);
  let plotX = area.x + axisWidth(ticks);
  let plotW = Math.max(1, area.x + area.width - plotX);
  let band = plotW / n;
  const catWidths = chart.categories.map((c) => shapeLabel(c, style, fonts).width);
  const flat = Math.max(0, ...catWidths) <= band * 0.95;
  const slantRoom = Math.min(Math.max(0, ...catWidths) * Math.SQRT1_2 + lineH, area.height * 0.35);
  const catHeight = (flat ? lineH : slantRoom) + pad;
  // Data labels above the highest and below the lowest marks need a line of room there.
  const labelRoom = chart.dataLabels && chart.chartType !== 'stacked_column' ? lineH + pad * 0.5 : 0;
  const top = Math.max(lineH / 2, hi > 0 ? labelRoom : 0);
  // Lines put labels under valleys, so they need the room below even without negative values.
  const bottom = lo < 0 || chart.chartType === 'line' || chart.chartType === 'area' ? labelRoom : 0;
  const plotY = area.y + top;
  const plotH = Math.max(1, area.height - catHeight - top - bottom);
  ticks = fittingTicks(lo, hi, plotH, rowRoom);
  plotX = area.x + axisWidth(ticks);
  plotW = Math.max(1, area.x + area.width - plotX);
  band = plotW / n;
  const y = linear(ticks, plotY + plotH, plotY);
  const base = baselineOf(ticks);
  const items: DisplayItem[] = [];

  // Gridlines and value labels.
  for (const v of ticks.values) {
    if (chart.gridlines && v !== base) items.push(hline(plotX, plotX + plotW, y(v), ctx.faint(0.15)));
    const label = placeLabel(shapeLabel(tickText(ticks, v), style, fonts), style, plotX - pad, y(v) + (m.ascent - m.descent) / 2, 'right');
    if (label) items.push(label);
  }
  items.push(hline(plotX, plotX + plotW, y(base), ctx.faint(0.55)));

  // Category labels: flat and centred, or slanted when they do not fit; thinned when bands are tiny.
  const every = Math.max(1, Math.ceil((lineH * 1.1) / band));
  const maxSlant = (slantRoom - lineH * 0.7) / Math.SQRT1_2;
  chart.categories.forEach((c, j) => {
    if (j % every !== 0) return;
    const cx = plotX + (j + 0.5) * band;
    const labelTop = plotY + plotH + bottom + pad;
    if (flat) {
      const label = placeLabel(shapeLabel(c, style, fonts, band), style, cx, labelTop + m.ascent, 'center');
      if (label) items.push(label);
    } else {
      const shaped = shapeLabel(c, style, fonts, Math.max(style.size, maxSlant));
      const label = placeLabel(shaped, style, 0, m.ascent / 2, 'right');
      const slanted = rotated(label, cx, labelTop, { x: -shaped.width, y: -m.ascent, width: shaped.width, height: lineH });
      if (slanted) items.push(slanted);
    }
  });

  const dataLabel = (v: number, x: number, yy: number, above: boolean): void => {
    if (!chart.dataLabels) return;
    const text = formatNumber(v, fmt, labelDecimals(v, fmt));
    const baseline = above ? yy - pad * 0.5 - m.descent : yy + pad * 0.5 + m.ascent;
    const label = placeLabel(shapeLabel(text, style, fonts), style, x, baseline, 'center');
    if (label) items.push(label);
  };

  if (chart.chartType === 'column') {
    const group = band * 0.72;
    const barW = group / Math.max(1, chart.series.length);
    chart.series.forEach((s, i) => {
      s.values.forEach((v, j) => {
        if (v === null) return;
        const x = plotX + j * band + (band - group) / 2 + i * barW;
        const top = y(Math.max(v, base));
        const bottom = y(Math.min(v, base));
        const inset = barW * 0.08;
        items.push({
          kind: 'fill',
          geometry: { kind: 'rect', rect: { x: x + inset, y: top, width: barW - 2 * inset, height: bottom - top } },
          color: ctx.colorOf(i),
        });
        dataLabel(v, x + barW / 2, v >= base ? top : bottom, v >= base);
      });
    });
  } else if (chart.chartType === 'stacked_column') {
    const barW = band * 0.6;
    chart.categories.forEach((_, j) => {
      let pos = 0;
      let neg = 0;
      const x = plotX + j * band + (band - barW) / 2;
      chart.series.forEach((s, i) => {
        const v = s.values[j];
        if (v === null || v === undefined || v === 0) return;
        const from = v > 0 ? pos : neg;
        const to = from + v;
        if (v > 0) pos = to;
        else neg = to;
        const top = y(Math.max(from, to));
        const bottom = y(Math.min(from, to));
        items.push({ kind: 'fill', geometry: { kind: 'rect', rect: { x, y: top, width: barW, height: bottom - top } }, color: ctx.colorOf(i) });
        if (chart.dataLabels && bottom - top >= lineH) {
          const label = placeLabel(
            shapeLabel(formatNumber(v, fmt, labelDecimals(v, fmt)), { ...style, color: [255, 255, 255, 1] }, fonts, barW),
            { ...style, color: [255, 255, 255, 1] },
            x + barW / 2,
            (top + bottom) / 2 + (m.ascent - m.descent) / 2,
            'center',
          );
          if (label) items.push(label);
        }
      });
    });
  } else {
    // line and area: one point per category, split into runs at nulls.
    const markers = chart.categories.length <= 40;
    chart.series.forEach((s, i) => {
      const color = ctx.colorOf(i);
      const runs: Point[][] = [[]];
      s.values.forEach((v, j) => {
        if (v === null) {
          if (runs[runs.length - 1]!.length) runs.push([]);
          return;
        }
        runs[runs.length - 1]!.push([plotX + (j + 0.5) * band, y(v)]);
      });
      for (const run of runs) {
        if (run.length === 0) continue;
        if (chart.chartType === 'area' && run.length > 1) {
          const first = run[0]!;
          const last = run[run.length - 1]!;
          const fill: RGBA = [color[0], color[1], color[2], color[3] * 0.3];
          items.push({ kind: 'fill', geometry: { kind: 'polygon', points: [...run, [last[0], y(base)], [first[0], y(base)]] }, color: fill });
        }
        if (run.length > 1)
          items.push({ kind: 'stroke', geometry: { kind: 'polyline', points: run }, color, width: chart.lineWidth, dash: null, join: 'round' });
        if (markers || run.length === 1) {
          const r = Math.max(2, chart.lineWidth * 1.3);
          for (const [px, py] of run)
            items.push({ kind: 'fill', geometry: { kind: 'ellipse', rect: { x: px - r, y: py - r, width: 2 * r, height: 2 * r } }, color });
        }
      }
      // Labels go above a point, or below it at a valley, where the line leaves upwards on both sides.
      s.values.forEach((v, j) => {
        if (v === null) return;
        const prev = s.values[j - 1] ?? null;
        const next = s.values[j + 1] ?? null;
        const valley = (prev === null || prev > v) && (next === null || next > v) && (prev !== null || next !== null);
        dataLabel(v, plotX + (j + 0.5) * band, y(v) + (valley ? chart.lineWidth : -chart.lineWidth), !valley);
      });
    });
  }
  return items;
}

/** Horizontal bars: categories down the left, values along the bottom. */
function layoutBars(ctx: ChartContext, area: Rect): DisplayItem[] {
  const { chart, fonts, style } = ctx;
  const m = labelMetrics(style, fonts);
  const lineH = m.ascent + m.descent;
  const pad = style.size * 0.5;
  const [lo, hi] = valueDomain(ctx);
  const fmt = chart.numberFormat;
  const n = Math.max(1, chart.categories.length);
  const catColumn = Math.min(Math.max(0, ...chart.categories.map((c) => shapeLabel(c, style, fonts).width)), area.width * 0.3);
  const tickText = (t: Ticks, v: number): string => formatNumber(v, fmt, fmt.decimals ?? t.decimals);
  const widest = (t: Ticks): number => Math.max(...t.values.map((v) => shapeLabel(tickText(t, v), style, fonts).width));

  // Data labels sit beyond the bar ends: keep room for them on the sides that have bars.
  const dataWidth = chart.dataLabels ? dataLabelWidth(ctx) + pad * 0.5 : 0;
  const plotX = area.x + catColumn + pad + (lo < 0 ? dataWidth : 0);
  const right = (t: Ticks): number => Math.max(widest(t) / 2, hi > 0 ? dataWidth : 0);
  const room = (t: Ticks): number => widest(t) + style.size * 1.5;
  const ticks = fittingTicks(lo, hi, Math.max(1, area.x + area.width - plotX - right(niceTicks(lo, hi, 5))), room);
  const plotW = Math.max(1, area.x + area.width - plotX - right(ticks));
  const plotY = area.y;
  const plotH = Math.max(1, area.height - lineH - pad);
  const band = plotH / n;
  const x = linear(ticks, plotX, plotX + plotW);
  const base = baselineOf(ticks);
  const items: DisplayItem[] = [];

  for (const v of ticks.values) {
    if (chart.gridlines && v !== base) items.push(vline(x(v), plotY, plotY + plotH, ctx.faint(0.15)));
    const label = placeLabel(shapeLabel(tickText(ticks, v), style, fonts), style, x(v), plotY + plotH + pad + m.ascent, 'center');
    if (label) items.push(label);
  }
  items.push(vline(x(base), plotY, plotY + plotH, ctx.faint(0.55)));

  const every = Math.max(1, Math.ceil((lineH * 1.1) / band));
  chart.categories.forEach((c, j) => {
    if (j % every !== 0) return;
    const label = placeLabel(shapeLabel(c, style, fonts, catColumn), style, area.x + catColumn, plotY + (j + 0.5) * band + (m.ascent - m.descent) / 2, 'right');
    if (label) items.push(label);
  });

  const group = band * 0.72;
  const barH = group / Math.max(1, chart.series.length);
  chart.series.forEach((s, i) => {
    s.values.forEach((v, j) => {
      if (v === null) return;
      const y = plotY + j * band + (band - group) / 2 + i * barH;
      const left = x(Math.min(v, base));
      const right = x(Math.max(v, base));
      const inset = barH * 0.08;
      items.push({
        kind: 'fill',
        geometry: { kind: 'rect', rect: { x: left, y: y + inset, width: right - left, height: barH - 2 * inset } },
        color: ctx.colorOf(i),
      });
      if (chart.dataLabels) {
        const text = shapeLabel(formatNumber(v, fmt, labelDecimals(v, fmt)), style, fonts);
        const label = placeLabel(
          text,
          style,
          v >= base ? right + pad * 0.5 : left - pad * 0.5,
          y + barH / 2 + (m.ascent - m.descent) / 2,
          v >= base ? 'left' : 'right',
        );
        if (label) items.push(label);
      }
    });
  });
  return items;
}
