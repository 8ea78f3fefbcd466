// The text fit report of the last preview (font size used, lines, shrunk, clipped, split words,
// characters no font has): for the selected text object, or every named text object when none is.
// A text that is not on screen at the previewed time says so, with the second it appears, and a
// button that goes there.
import type { FitReport as Report, RenderWarning } from '../lib/api.js';

interface Props {
  report: Report[];
  warnings: RenderWarning[];
  selected: string | null;
  /** The selected object's type, to tell "not a text" from "a text with no entry". */
  selectedType: string | null;
  /** Moves the timeline (designs that move): offered for a text that appears later. */
  onTime?: (t: number) => void;
}

export function FitReport({ report, warnings, selected, selectedType, onTime }: Props) {
  const named = report.filter((r) => r.name !== null);
  const shown = selected ? named.filter((r) => r.name === selected) : named;
  return (
    <section class="panel-box" data-testid="fit-report" aria-label="Text fit">
      <h2>Text fit</h2>
      {shown.length === 0 ? (
        <p class="muted small">
          {!selected
            ? 'No named text objects.'
            : selectedType === 'text'
              ? `${selected} is not on screen at this time: nothing to fit.`
              : `${selected} is not a text object: nothing to fit.`}
        </p>
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
              if (r.hidden) {
                return (
                  <tr key={`${r.name}-${r.page ?? 0}-${i}`} class="hidden-text">
                    <th scope="row">{r.name}</th>
                    <td colSpan={3}>
                      {r.hidden_reason ?? 'not on screen at this time'}
                      {r.appears_at !== undefined && onTime ? (
                        <>
                          {' '}
                          <button type="button" class="link small" onClick={() => onTime(r.appears_at!)}>
                            Go to {round(r.appears_at)} s
                          </button>
                        </>
                      ) : null}
                    </td>
                  </tr>
                );
              }
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
