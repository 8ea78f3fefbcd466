// The chart widget's table: `chart_data` (row 0 `[null, "column title", …]`, then `["series", number
// or null, …]`) as a grid of strings the user types into, checked cell by cell (a number cell holds a
// number or nothing), and back to `chart_data` only when every cell is valid — a table with a
// marked cell is not sent. Adding and removing rows and columns keep it rectangular. No DOM.

export type ChartData = (string | number | null)[][];
export type Grid = string[][];

/** The service's limits (CHART_LIMITS in src/objects/chart/schema.ts): 50 series (rows after the header), 100 value columns. */
export const MAX_SERIES = 50;
export const MAX_COLUMNS = 100;

export function gridFromChartData(data: unknown): Grid {
  if (!Array.isArray(data) || data.length === 0)
    return [
      ['', 'A'],
      ['Series 1', ''],
    ];
  const width = Math.max(2, ...data.map((r) => (Array.isArray(r) ? r.length : 0)));
  return data.map((row, r) =>
    Array.from({ length: width }, (_, c) => {
      const v: unknown = Array.isArray(row) ? row[c] : undefined;
      if (r === 0 && c === 0) return '';
      return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
    }),
  );
}

export type CellKind = 'corner' | 'title' | 'number';

export function cellKind(row: number, col: number): CellKind {
  if (row === 0 && col === 0) return 'corner';
  return row === 0 || col === 0 ? 'title' : 'number';
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Why a cell's text cannot be sent, or undefined when it can. */
export function cellProblem(row: number, col: number, text: string): string | undefined {
  if (cellKind(row, col) !== 'number') return undefined;
  const t = text.trim();
  if (t === '') return undefined;
  if (!NUMBER.test(t) || !Number.isFinite(Number(t))) return `"${t}" is not a number (leave the cell empty for no value)`;
  return undefined;
}

export interface CellProblem {
  row: number;
  col: number;
  message: string;
}

export type GridResult = { ok: true; data: ChartData } | { ok: false; problems: CellProblem[] };

export function chartDataFromGrid(grid: Grid): GridResult {
  const problems: CellProblem[] = [];
  const data: ChartData = grid.map((row, r) =>
    row.map((text, c) => {
      const kind = cellKind(r, c);
      if (kind === 'corner') return null;
      if (kind === 'title') return text;
      const message = cellProblem(r, c, text);
      if (message) problems.push({ row: r, col: c, message });
      return text.trim() === '' ? null : Number(text.trim());
    }),
  );
  return problems.length ? { ok: false, problems } : { ok: true, data };
}

export function setCell(grid: Grid, row: number, col: number, text: string): Grid {
  return grid.map((r, i) => (i === row ? r.map((v, j) => (j === col ? text : v)) : r));
}

export function addRow(grid: Grid): Grid {
  if (grid.length - 1 >= MAX_SERIES) return grid;
  const width = grid[0]?.length ?? 2;
  return [...grid, [`Series ${grid.length}`, ...Array.from({ length: width - 1 }, () => '')]];
}

export function addColumn(grid: Grid): Grid {
  const width = grid[0]?.length ?? 1;
  if (width - 1 >= MAX_COLUMNS) return grid;
  return grid.map((r, i) => [...r, i === 0 ? `Column ${width}` : '']);
}

/** Removes the last series; one always stays. */
export function removeRow(grid: Grid): Grid {
  return grid.length > 2 ? grid.slice(0, -1) : grid;
}

/** Removes the last column; one value column always stays. */
export function removeColumn(grid: Grid): Grid {
  return (grid[0]?.length ?? 0) > 2 ? grid.map((r) => r.slice(0, -1)) : grid;
}
