// A chart's `chart_data` as an editable table: titles in the first row and column, numbers elsewhere
// (checked as typed: a cell that is not a number is marked aria-invalid and the table is not sent
// until it is fixed), with buttons to add and remove rows and columns. Logic in lib/chart-grid.ts.
import { useEffect, useState } from 'preact/hooks';
import {
  addColumn,
  addRow,
  cellKind,
  cellProblem,
  chartDataFromGrid,
  gridFromChartData,
  removeColumn,
  removeRow,
  setCell,
  type ChartData,
  type Grid,
} from '../lib/chart-grid.js';

interface Props {
  label: string;
  /** The legend's tooltip (the field's JSON key). */
  title?: string | undefined;
  value: unknown;
  overridden: boolean;
  error?: string | undefined;
  onChange: (data: ChartData) => void;
}

export function ChartGrid({ label, title, value, overridden, error, onChange }: Props) {
  const [grid, setGrid] = useState<Grid>(() => gridFromChartData(value));
  // A reset (or another object's data) from outside replaces the grid, unless it is what the grid already says.
  useEffect(() => {
    const mine = chartDataFromGrid(grid);
    if (!mine.ok || JSON.stringify(mine.data) !== JSON.stringify(value)) setGrid(gridFromChartData(value));
  }, [JSON.stringify(value)]);

  const update = (next: Grid) => {
    setGrid(next);
    const out = chartDataFromGrid(next);
    if (out.ok) onChange(out.data);
  };
  const result = chartDataFromGrid(grid);
  const invalid = result.ok ? 0 : result.problems.length;

  return (
    <fieldset class={`field chart${overridden ? ' overridden' : ''}`}>
      <legend title={title}>{label}</legend>
      <div class="chart-scroll">
        <table class="chart-grid">
          <tbody>
            {grid.map((row, r) => (
              <tr key={r}>
                {row.map((cell, c) => {
                  const kind = cellKind(r, c);
                  if (kind === 'corner') return <td key={c} class="corner" aria-hidden="true" />;
                  const problem = cellProblem(r, c, cell);
                  return (
                    <td key={c} class={kind}>
                      <input
                        type="text"
                        inputMode={kind === 'number' ? 'decimal' : 'text'}
                        aria-label={`Cell ${r},${c}`}
                        aria-invalid={problem ? 'true' : undefined}
                        title={problem ?? (kind === 'title' ? (r === 0 ? 'column title' : 'series title') : 'a number, or empty for no value')}
                        value={cell}
                        onInput={(e) => update(setCell(grid, r, c, e.currentTarget.value))}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="row-buttons">
        <button type="button" onClick={() => update(addRow(grid))}>
          Add row
        </button>
        <button type="button" onClick={() => update(addColumn(grid))}>
          Add column
        </button>
        <button type="button" onClick={() => update(removeRow(grid))} disabled={grid.length <= 2}>
          Remove row
        </button>
        <button type="button" onClick={() => update(removeColumn(grid))} disabled={(grid[0]?.length ?? 0) <= 2}>
          Remove column
        </button>
      </div>
      {invalid ? (
        <p class="field-error">
          {invalid === 1 ? 'A cell is' : `${invalid} cells are`} not a number: fix the marked {invalid === 1 ? 'cell' : 'cells'}; until then the table is not
          sent.
        </p>
      ) : null}
      {error ? <p class="field-error">{error}</p> : null}
    </fieldset>
  );
}
