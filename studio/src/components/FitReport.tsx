// The text fit report of the last preview (font size used, lines, shrunk, clipped, split words,
// characters no font has): for the selected text object, or every named text object when none is.
import type { FitReport as Report, RenderWarning } from '../lib/api.js';

interface Props {
  report: Report[];
  warnings: RenderWarning[];
  selected: string | null;
}

export function FitReport({ report, warnings, selected }: Props) {
  const named = report.filter((r) => r.name !== null);
  const shown = selected ? named.filter((r) => r.name === selected) : named;
  return (
    <section class="panel-box" data-testid="fit-report" aria-label="Text fit">
      <h2>Text fit</h2>
      {shown.length === 0 ? (
        <p class="muted small">{selected ? `${selected} is not a text object: nothing to fit.` : 'No named text objects.'}</p>
      ) : (
        <table class="fit">
          <thead>
            <tr>
              <th scope="col">object</th>
              <th scope="col">font size</th>
              <th scope="col">lines</th>
              <th scope="col">fit</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r, i) => {
              const flags = [r.shrunk ? 'shrunk' : null, r.clipped ? 'clipped' : null, r.word_broken ? 'word broken' : null].filter(Boolean);
              return (
                <tr key={`${r.name}-${r.page ?? 0}-${i}`} class={r.clipped ? 'bad' : r.shrunk ? 'warn' : ''}>
                  <th scope="row">{r.name}</th>
                  <td>{round(r.font_size)} px</td>
                  <td>{r.line_count}</td>
                  <td>{flags.length ? flags.join(', ') : 'fits'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {shown
        .filter((r) => r.missing_characters.length)
        .map((r) => (
          <p key={`m-${r.name}`} class="field-error">
            {r.name}: missing characters {r.missing_characters.join(' ')}
          </p>
        ))}
      {warnings
        .filter((w) => w.code !== 'missing_characters' && (!selected || w.object === selected))
        .map((w, i) => (
          <p key={`w-${i}`} class="muted small">
            {w.description}
          </p>
        ))}
    </section>
  );
}

const round = (n: number) => Math.round(n * 10) / 10;
