// Charts as data: nice ticks, number formats, domains, pie shares, and the laid-out marks.
import { describe, expect, it } from 'vitest';
import type { DisplayItem, DisplayList } from '../src/scene/display-list.js';
import { valueDomain } from '../src/layout/chart/cartesian.js';
import { formatNumber, labelDecimals } from '../src/layout/chart/format.js';
import { pieShares } from '../src/layout/chart/pie.js';
import { niceTicks } from '../src/layout/chart/scale.js';
import { designWith, layoutOf, objectGroup } from './support/scene.js';

const FMT = { decimals: null, thousands: ',', decimal: '.', prefix: '', suffix: '' };

describe('niceTicks', () => {
  it.each([
    [0, 937, 5, [0, 200, 400, 600, 800, 1000]],
    [0, 100, 5, [0, 20, 40, 60, 80, 100]],
    [-120, 937, 4, [-500, 0, 500, 1000]],
    [3, 7.5, 5, [3, 4, 5, 6, 7, 8]],
    [0, 0.37, 4, [0, 0.1, 0.2, 0.3, 0.4]],
    [0, 0, 5, [0, 0.2, 0.4, 0.6, 0.8, 1]],
    [42, 42, 5, [0, 10, 20, 30, 40, 50]],
    [-8, -8, 4, [-8, -6, -4, -2, 0]],
  ])('covers %d..%d with about %d steps: %j', (lo, hi, target, values) => {
    const t = niceTicks(lo, hi, target);
    expect(t.values).toEqual(values);
    expect(t.min).toBeLessThanOrEqual(Math.min(lo, hi));
    expect(t.max).toBeGreaterThanOrEqual(Math.max(lo, hi));
  });

  it('reports the decimals a step needs and never yields -0 or float noise', () => {
    const t = niceTicks(-0.3, 0.3, 6);
    expect(t.decimals).toBe(1);
    expect(t.values).toEqual([-0.4, -0.2, 0, 0.2, 0.4]);
    expect(Object.is(t.values[2], 0)).toBe(true);
    expect(niceTicks(0, 0.7, 7).values).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
  });
});

describe('formatNumber', () => {
  it.each([
    [1234567.891, { ...FMT, prefix: '$' }, 2, '$1,234,567.89'],
    [-1200, { ...FMT, prefix: '$' }, 0, '\u2212$1,200'],
    [-0.004, FMT, 2, '0.00'],
    [1500, { ...FMT, thousands: ' ', suffix: ' kg' }, 0, '1 500 kg'],
    [1234.5, { ...FMT, thousands: '.', decimal: ',' }, 1, '1.234,5'],
    [999, { ...FMT, thousands: '' }, 0, '999'],
  ])('%d → %s', (v, f, d, expected) => expect(formatNumber(v, f, d)).toBe(expected));

  it('data labels use what the value needs unless the format says', () => {
    expect(labelDecimals(12, FMT)).toBe(0);
    expect(labelDecimals(12.5, FMT)).toBe(1);
    expect(labelDecimals(1 / 3, FMT)).toBe(2);
    expect(labelDecimals(12, { ...FMT, decimals: 3 })).toBe(3);
  });
});

const chartScene = (chart_type: string, chart_data: unknown, extra: Record<string, unknown> = {}) => ({
  chart: {
    chartType: chart_type,
    categories: ((chart_data as unknown[][])[0] ?? []).slice(1),
    series: (chart_data as unknown[][]).slice(1).map((r) => ({ name: String(r[0]), values: r.slice(1) as (number | null)[] })),
  },
  design: designWith([{ type: 'chart', name: 'c', x: 0, y: 0, width: 500, height: 300, chart_type, chart_data, legend: 'none', ...extra }]),
});

function walk(items: readonly DisplayItem[], visit: (it: DisplayItem) => void): void {
  for (const it of items) {
    visit(it);
    if (it.kind === 'group') walk(it.items, visit);
  }
}

function hasNaN(list: DisplayList): boolean {
  let bad = false;
  JSON.stringify(list, (_, v: unknown) => {
    if (typeof v === 'number' && !Number.isFinite(v)) bad = true;
    return v;
  });
  return bad;
}

const rects = (list: DisplayList) => {
  const out: { x: number; y: number; width: number; height: number }[] = [];
  walk(objectGroup(list, 0).items, (it) => it.kind === 'fill' && it.geometry.kind === 'rect' && out.push(it.geometry.rect));
  return out;
};

describe('chart layout', () => {
  it('column bars are proportional to their values and stand on the zero line', () => {
    const { design } = chartScene('column', [
      [null, 'a', 'b', 'c'],
      ['s', 250, 500, 1000],
    ]);
    const [a, b, c] = rects(layoutOf(design).displayList);
    expect(b!.height / a!.height).toBeCloseTo(2, 6);
    expect(c!.height / a!.height).toBeCloseTo(4, 6);
    expect(a!.y + a!.height).toBeCloseTo(c!.y + c!.height, 6);
  });

  it('negative values hang below the zero line', () => {
    const { design } = chartScene('column', [
      [null, 'a', 'b'],
      ['s', 300, -300],
    ]);
    const [up, down] = rects(layoutOf(design).displayList);
    expect(up!.y + up!.height).toBeCloseTo(down!.y, 6);
    expect(down!.height).toBeCloseTo(up!.height, 6);
  });

  it('stacks positive values upward and negatives downward', () => {
    const chart = chartScene('stacked_column', [
      [null, 'a', 'b'],
      ['x', 3, -1],
      ['y', 4, -2],
    ]).chart;
    expect(valueDomain({ chart } as never)).toEqual([-3, 7]);
  });

  it.each(['column', 'stacked_column', 'bar', 'line', 'area', 'pie', 'donut'])(
    '%s: all-zero, single-category and all-null data lay out without NaN',
    (type) => {
      for (const data of [
        [
          [null, 'a', 'b'],
          ['s', 0, 0],
        ],
        [
          [null, 'only'],
          ['s', 42],
        ],
        [
          [null, 'a', 'b'],
          ['s', null, null],
        ],
      ]) {
        const { displayList } = layoutOf(chartScene(type, data, { data_labels: true, legend: 'bottom', title: 'T' }).design);
        expect(hasNaN(displayList)).toBe(false);
      }
    },
  );

  it('line and area break at null gaps', () => {
    const { design } = chartScene('line', [
      [null, 'a', 'b', 'c', 'd', 'e'],
      ['s', 1, 2, null, 4, 5],
    ]);
    const lines: number[] = [];
    walk(
      objectGroup(layoutOf(design).displayList, 0).items,
      (it) =>
        it.kind === 'stroke' && it.geometry.kind === 'polyline' && it.geometry.points.length > 2 - 1 && it.width === 3 && lines.push(it.geometry.points.length),
    );
    expect(lines).toEqual([2, 2]);
  });

  it('slants long category labels that do not fit their band', () => {
    const categories = Array.from({ length: 12 }, (_, i) => `Category number ${i + 1}`);
    const { design } = chartScene('column', [
      [null, ...categories],
      ['s', ...categories.map((_, i) => i * 10)],
    ]);
    let slanted = 0;
    walk(objectGroup(layoutOf(design).displayList, 0).items, (it) => it.kind === 'group' && it.transform[1] < 0 && slanted++);
    expect(slanted).toBeGreaterThan(0);
  });

  it('pie shares: negatives and gaps count as 0, an all-zero table gives zeros, not NaN', () => {
    expect(pieShares([1, 3])).toEqual([0.25, 0.75]);
    expect(pieShares([2, null, -5, 2])).toEqual([0.5, 0, 0, 0.5]);
    expect(pieShares([0, 0])).toEqual([0, 0]);
  });

  it('a pie draws one wedge per non-zero value of the first series only', () => {
    const { design } = chartScene('pie', [
      [null, 'a', 'b', 'c'],
      ['first', 1, 0, 3],
      ['second', 9, 9, 9],
    ]);
    const wedges: number[] = [];
    walk(
      objectGroup(layoutOf(design).displayList, 0).items,
      (it) => it.kind === 'fill' && it.geometry.kind === 'wedge' && wedges.push(it.geometry.end - it.geometry.start),
    );
    expect(wedges.map((a) => a / (2 * Math.PI))).toEqual([0.25, 0.75]);
  });

  it('the chart_data override replaces the table and the axis rescales', () => {
    const { design } = chartScene('column', [
      [null, 'a'],
      ['s', 90],
    ]);
    const before = rects(layoutOf(design).displayList)[0]!;
    const after = rects(
      layoutOf(design, {
        c: {
          chart_data: [
            [null, 'a', 'b'],
            ['s', 90, 9000],
          ],
        },
      }).displayList,
    );
    expect(after).toHaveLength(2);
    expect(after[0]!.height).toBeLessThan(before.height / 50);
  });
});
