// What every benchmark does with its figures: a plain-text table on stdout, and its entries merged
// into bench/results/latest.json (an entry replaces the one of the same name from an earlier run).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const RESULTS = join(import.meta.dirname, 'results');

/** `cols`: [header, (entry) => cell text]; the first column is left-aligned, the others right. */
export function printTable(cols, entries) {
  const rows = [cols.map(([h]) => h), ...entries.map((e) => cols.map(([, f]) => f(e)))];
  const widths = cols.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const [j, r] of rows.entries()) {
    console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
    if (j === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

export function mergeResults(entries) {
  const out = join(RESULTS, 'latest.json');
  mkdirSync(RESULTS, { recursive: true });
  const previous = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : [];
  const names = new Set(entries.map((e) => e.name));
  writeFileSync(out, `${JSON.stringify([...previous.filter((e) => !names.has(e.name)), ...entries], null, 2)}\n`);
  console.log(`wrote ${out}`);
}
