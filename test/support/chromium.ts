// Headless Chromium (Debian's package), the tests' reference for text layout and drawing: a page whose
// script writes JSON into <pre id="out"> once its fonts are ready, or a screenshot of a page.
import { spawnSync } from 'node:child_process';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'];

/**
 * Loads the page file and returns what its script wrote into <pre id="out">, parsed as JSON; throws
 * with the end of Chromium's stderr when it wrote nothing. `budgetMs` is virtual time for fonts to load.
 */
export function chromiumJson<T>(page: string, { budgetMs = 10_000, timeoutMs = 60_000 } = {}): T {
  const run = spawnSync('chromium', [...FLAGS, `--virtual-time-budget=${budgetMs}`, '--dump-dom', `file://${page}`], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: timeoutMs,
  });
  const json = /<pre id="out">([^<]*)<\/pre>/.exec(run.stdout)?.[1];
  if (!json) throw new Error(`chromium wrote no result into <pre id="out">: ${run.stderr.slice(-500)}`);
  // --dump-dom serialises the text as HTML.
  return JSON.parse(
    json
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&'),
  ) as T;
}

/** A png screenshot of the page file, `width`×`height` CSS pixels at device scale 1, written to `out`. */
export function chromiumScreenshot(page: string, out: string, width: number, height: number, { budgetMs = 5000, timeoutMs = 60_000 } = {}): void {
  const run = spawnSync(
    'chromium',
    [
      ...FLAGS,
      '--hide-scrollbars',
      '--force-device-scale-factor=1',
      `--virtual-time-budget=${budgetMs}`,
      `--window-size=${width},${height}`,
      `--screenshot=${out}`,
      `file://${page}`,
    ],
    { encoding: 'utf8', timeout: timeoutMs },
  );
  if (run.status !== 0) throw new Error(`chromium did not take the screenshot (exit ${run.status}): ${run.stderr.slice(-500)}`);
}
