// Chromium is the reference for text layout: with the same font files, every run Imprint shapes must
// be as wide as Chromium lays it out (both shape with HarfBuzz). The strings are every single-line text
// of the examples and golden cases plus kerning, ligature, figure and Cyrillic samples, in each bundled
// face; Chromium measures them at 1000 px, where a font unit is about half a pixel.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FONTS_DIR, FontSet } from '../src/text/fonts.js';
import { toolsAvailable } from './support/tools.js';

const ROOT = join(import.meta.dirname, '..');
const SIZE = 1000;
const dir = mkdtempSync(join(tmpdir(), 'imprint-chromium-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Single-line texts of the designs and overrides under `folder`, markup removed. */
function textsUnder(folder: string, into: Set<string>): void {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) textsUnder(path, into);
    else if (name.endsWith('.json')) collect(JSON.parse(readFileSync(path, 'utf8')) as unknown, into);
  }
}
function collect(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    const text = value.replace(/<[^>]+>/g, '');
    if (text.length > 1 && text.length < 200 && !/[\n\t]/.test(text) && !/^[#./]|\.(png|jpe?g|mp4|json)$/.test(text)) into.add(text);
  } else if (Array.isArray(value)) for (const v of value) collect(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) collect(v, into);
}

const SAMPLES = [
  'AVATAR Type Wolf To Ty',
  'office affluent ffi fl',
  '24,310 2024 +26.6% −20% 1/2 ½ 10:30',
  '«Ünïcödé» “quotes” — dash',
  'Привет, мир! Ёлка',
  'The city at night',
];

describe('text widths against Chromium', () => {
  it.skipIf(!toolsAvailable(['chromium'], 'comparing text layout with Chromium needs it'))(
    'every run is as wide as Chromium lays it out with the same font files, in every bundled face',
    () => {
      const texts = new Set(SAMPLES);
      textsUnder(join(ROOT, 'examples'), texts);
      textsUnder(join(ROOT, 'golden'), texts);
      const fonts = new FontSet();
      const faces = fonts.familyNames().flatMap((family) => [400, 700].map((weight) => fonts.face(family, weight)));
      const runs = faces.flatMap((face) => [...texts].map((text) => ({ face, text })));

      const css = faces.map((f) => `@font-face { font-family: "${f.key}"; src: url("file://${resolve(FONTS_DIR, f.file)}"); }`).join('\n');
      const spans = runs
        .map((r, i) => `<span id="r${i}" style="font-family: '${r.face.key}'">${r.text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</span>`)
        .join('<br>');
      const page = join(dir, 'widths.html');
      writeFileSync(
        page,
        `<!doctype html><meta charset="utf-8"><style>${css}\nspan { font-size: ${SIZE}px; white-space: pre; font-synthesis: none; }</style>${spans}
<pre id="out"></pre><script>document.fonts.ready.then(() => { document.getElementById('out').textContent = JSON.stringify([...document.querySelectorAll('span')].map((s) => s.getBoundingClientRect().width)); });</script>`,
      );
      const chromium = spawnSync(
        'chromium',
        ['--headless', '--no-sandbox', '--disable-gpu', '--allow-file-access-from-files', '--virtual-time-budget=10000', '--dump-dom', `file://${page}`],
        { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 60_000 },
      );
      const json = /<pre id="out">([^<]*)<\/pre>/.exec(chromium.stdout)?.[1];
      expect(json, `chromium gave no widths: ${chromium.stderr.slice(-500)}`).toBeTruthy();
      const widths = JSON.parse(json!) as number[];
      expect(widths).toHaveLength(runs.length);

      let compared = 0;
      const mismatches = runs.flatMap(({ face, text }, i) => {
        const run = face.shaper.layout(text);
        // A character the face lacks is drawn by a system font in Chromium and as the face's empty box
        // here (per-character fallback is not built yet): such runs are not comparable.
        if (run.glyphs.some((g) => g.id === 0)) return [];
        compared++;
        const ours = (run.positions.reduce((n, p) => n + p.xAdvance, 0) / face.unitsPerEm) * SIZE;
        // Chromium positions glyphs in 16.16 fixed point and rounds the run to 1/64 px; beyond that the
        // widths must agree (one font unit is 0.5 px in Inter and 1 px in Lora at this size).
        const tolerance = 1 / 64 + 0.002 * run.glyphs.length;
        return Math.abs(ours - widths[i]!) > tolerance
          ? [`${face.key} ${JSON.stringify(text)}: ours ${ours.toFixed(3)}, Chromium ${widths[i]!.toFixed(3)}`]
          : [];
      });
      expect(compared).toBeGreaterThan(1000);
      expect(mismatches.slice(0, 10), `${mismatches.length} of ${runs.length} runs differ`).toEqual([]);
    },
    120_000,
  );
});

describe('script runs', () => {
  it('cut where the script changes; spaces, digits and punctuation stay with the run before them', async () => {
    const { scriptRuns } = await import('../src/text/script-runs.js');
    expect(scriptRuns('arctic-escapes.example · группы до 8 человек')).toEqual(['arctic-escapes.example · ', 'группы до 8 человек']);
    expect(scriptRuns('— 2024: Ёлка and tree')).toEqual(['— 2024: Ёлка ', 'and tree']);
    expect(scriptRuns('Plain Latin, 100 %')).toEqual(['Plain Latin, 100 %']);
    expect(scriptRuns('')).toEqual(['']);
  });
});
