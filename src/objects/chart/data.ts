// Checks a chart_data table cell by cell, so every error names the exact cell:
// `$.objects_overrides.sales.chart_data[2][3]: expected a number (or null for a gap) …`.
import { validationError } from '../../errors.js';
import { childPath } from '../../format/json-path.js';
import { CHART_LIMITS, type ChartData } from './schema.js';

function received(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return `the string ${JSON.stringify(v.length > 30 ? `${v.slice(0, 30)}…` : v)}`;
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return String(v);
    default:
      return v === null ? 'null' : Array.isArray(v) ? 'an array' : 'an object';
  }
}

/** `at` is the path of the chart_data field. */
export function checkChartData(data: ChartData, at: string): void {
  const header = data[0];
  if (!header) throw validationError(at, 'chart_data is empty: give a header row [null, "column title", …] and at least one series row');
  if (header[0] !== null) throw validationError(childPath(at, 0, 0), `the first cell of the table must be null but is ${received(header[0])}`);
  if (header.length < 2) throw validationError(childPath(at, 0), 'the header row needs at least one column title after the leading null');
  if (header.length - 1 > CHART_LIMITS.maxCategories) {
    throw validationError(childPath(at, 0), `the table has ${header.length - 1} columns: at most ${CHART_LIMITS.maxCategories} are allowed`);
  }
  header.forEach((cell, j) => {
    if (j > 0 && typeof cell !== 'string') throw validationError(childPath(at, 0, j), `expected a column title (a string) but received ${received(cell)}`);
  });
  if (data.length < 2) throw validationError(at, 'chart_data has no series: add rows like ["Series title", 12, 34, …] after the header');
  if (data.length - 1 > CHART_LIMITS.maxSeries) {
    throw validationError(at, `the table has ${data.length - 1} series rows: at most ${CHART_LIMITS.maxSeries} are allowed`);
  }
  data.forEach((row, i) => {
    if (i === 0) return;
    if (row.length !== header.length) {
      throw validationError(childPath(at, i), `row ${i} has ${row.length} cells but the header has ${header.length}: every row must be as long as row 0`);
    }
    row.forEach((cell, j) => {
      if (j === 0) {
        if (typeof cell !== 'string') throw validationError(childPath(at, i, 0), `expected a series title (a string) but received ${received(cell)}`);
      } else if (cell !== null && typeof cell !== 'number') {
        throw validationError(childPath(at, i, j), `expected a number (or null for a gap) but received ${received(cell)}`);
      }
    });
  });
}
