// The chart widget's table model: chart_data in and out, numbers checked cell by cell (a table with
// a bad cell is not sent), rows and columns added and removed within the service's limits.
import { describe, expect, it } from 'vitest';
import {
  addColumn,
  addRow,
  cellProblem,
  chartDataFromGrid,
  gridFromChartData,
  MAX_COLUMNS,
  MAX_SERIES,
  removeColumn,
  removeRow,
  setCell,
} from '../src/lib/chart-grid.js';

const DATA = [
  [null, 'Q1', 'Q2', 'Q3'],
  ['2025', 120, 180, 150],
  ['2026', 140, 210, null],
];

describe('chart grid', () => {
  it('round-trips chart_data, gaps included', () => {
    const grid = gridFromChartData(DATA);
    expect(grid).toEqual([
      ['', 'Q1', 'Q2', 'Q3'],
      ['2025', '120', '180', '150'],
      ['2026', '140', '210', ''],
    ]);
    expect(chartDataFromGrid(grid)).toEqual({ ok: true, data: DATA });
  });

  it('marks a cell that is not a number and does not send the table until it is fixed', () => {
    const bad = setCell(gridFromChartData(DATA), 1, 2, '18O');
    expect(cellProblem(1, 2, '18O')).toMatch(/not a number/);
    const out = chartDataFromGrid(bad);
    expect(out.ok).toBe(false);
    expect(out.ok ? [] : out.problems).toEqual([{ row: 1, col: 2, message: '"18O" is not a number (leave the cell empty for no value)' }]);
    const fixed = chartDataFromGrid(setCell(bad, 1, 2, ' -1.5e3 '));
    expect(fixed).toEqual({ ok: true, data: [DATA[0], ['2025', 120, -1500, 150], DATA[2]] });
  });

  it('accepts any text in title cells, and never a number check there', () => {
    expect(cellProblem(0, 1, 'not a number')).toBeUndefined();
    expect(cellProblem(2, 0, '2027?')).toBeUndefined();
    for (const t of ['1,5', 'NaN', 'Infinity', '1e999', '--1', '']) {
      expect(cellProblem(1, 1, t) === undefined, t).toBe(t === '');
    }
  });

  it('adds and removes rows and columns, keeping the table rectangular and at least 1 × 1', () => {
    let g = gridFromChartData(DATA);
    g = addColumn(addRow(g));
    expect(g).toHaveLength(4);
    expect(g.every((r) => r.length === 5)).toBe(true);
    expect(g[3]![0]).toBe('Series 3');
    expect(g[0]![4]).toBe('Column 4');
    g = removeRow(removeRow(removeRow(removeRow(g))));
    g = removeColumn(removeColumn(removeColumn(removeColumn(removeColumn(g)))));
    expect(g).toEqual([
      ['', 'Q1'],
      ['2025', '120'],
    ]);
  });

  it(`stops at ${MAX_SERIES} series and ${MAX_COLUMNS} value columns`, () => {
    let g = gridFromChartData(DATA);
    for (let i = 0; i < 60; i++) g = addRow(g);
    expect(g.length - 1).toBe(MAX_SERIES);
    for (let i = 0; i < 120; i++) g = addColumn(g);
    expect(g[0]!.length - 1).toBe(MAX_COLUMNS);
  });

  it('starts an empty or malformed chart_data with a small table', () => {
    expect(gridFromChartData(undefined)).toEqual([
      ['', 'A'],
      ['Series 1', ''],
    ]);
    expect(gridFromChartData([[null, 'a', { x: 1 }]])[0]).toEqual(['', 'a', '']);
  });
});
