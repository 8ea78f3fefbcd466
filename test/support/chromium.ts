// Headless Chromium (Debian's package), the tests' reference for text layout and drawing: a page whose
// script writes JSON into <pre id="out"> once its fonts are ready, or a screenshot of a page.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

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

/**
 * The same scene drawn by Chromium: `body` (absolutely placed elements) on a `background` page of
 * `width`×`height`, screenshotted into `dir`, then compared with `ours` (a png of that size): how
 * many pixels differ in some RGB channel by more than `levels`, and the largest difference.
 */
export async function compareWithChromium(
  ours: Buffer,
  body: string,
  opts: { width: number; height: number; background: string; levels: number; dir: string; name: string },
): Promise<{ off: number; share: number; worst: number; screenshot: string }> {
  const { width, height } = opts;
  const page = join(opts.dir, `${opts.name}.html`);
  writeFileSync(
    page,
    `<!doctype html><html><body style="margin:0;background:${opts.background};width:${width}px;height:${height}px;overflow:hidden">${body}</body></html>`,
  );
  const screenshot = join(opts.dir, `${opts.name}.png`);
  chromiumScreenshot(page, screenshot, width, height);
  const rgb = async (png: Buffer | string) => (await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })).data;
  const [a, b] = await Promise.all([rgb(ours), rgb(screenshot)]);
  let off = 0;
  let worst = 0;
  for (let i = 0; i < width * height; i++) {
    let d = 0;
    for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(a[i * 3 + c]! - b[i * 3 + c]!));
    worst = Math.max(worst, d);
    if (d > opts.levels) off++;
  }
  return { off, share: off / (width * height), worst, screenshot };
}
