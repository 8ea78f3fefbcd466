#!/usr/bin/env node
// `npm run examples`: renders every example in examples/ with the built library (dist/).
// For each folder holding a design.json (or a Polotno document, polotno.json):
//   out/<example>.png           the design + overrides.json
//   out/<example>.jpg           the same, as jpg
//   out/<example>.template.png  the template alone, without overrides
// Prints one line per file (size, time) and exits non-zero if any example fails.
// Usage: node scripts/render-examples.mjs [example-name ...]   (default: all examples)
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const examplesDir = join(root, 'examples');
const outDir = join(root, 'out');
const distEntry = join(root, 'dist', 'index.js');

if (!existsSync(distEntry)) {
  console.error(`error: ${relative(root, distEntry)} is missing: build the library first with "npm run build" (npm install does it too)`);
  process.exit(1);
}
const { Engine, fileAssetResolver } = await import(pathToFileURL(distEntry).href);

async function readJson(file) {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${relative(root, file)} is not valid JSON: ${e.message}`, { cause: e });
  }
}

/** The overrides of an overrides.json: interface A's objects_overrides map or interface B's list; {} when none. */
async function readOverrides(file) {
  if (!existsSync(file)) return {};
  const data = await readJson(file);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new Error(`${relative(root, file)}: expected an object {"objects_overrides": {...}} or {"overrides": [...]}`);
  }
  const extra = Object.keys(data).find((k) => k !== 'objects_overrides' && k !== 'overrides');
  if (extra !== undefined) throw new Error(`${relative(root, file)}: unknown field "${extra}" (the file holds "objects_overrides" or "overrides")`);
  return data.objects_overrides ?? data.overrides ?? {};
}

/** Sizes as `imprint render` prints them (src/cli/render.ts formatBytes): decimal kB and MB, so one file reads the same in both. */
const size = (n) => (n < 1000 ? `${n} B` : n < 1_000_000 ? `${(n / 1000).toFixed(1)} kB` : `${(n / 1_000_000).toFixed(1)} MB`);
const ms = (t) => `${t.toFixed(0)} ms`;

const wanted = process.argv.slice(2);
const entries = await readdir(examplesDir, { withFileTypes: true }).catch(() => []);
/** An example's design file: design.json, or the Polotno document a folder holds instead (rendered as it is). */
const designFile = (name) => ['design.json', 'polotno.json'].find((f) => existsSync(join(examplesDir, name, f)));
const examples = entries
  .filter((e) => e.isDirectory() && designFile(e.name) !== undefined)
  .map((e) => e.name)
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();

const unknown = wanted.filter((w) => !examples.includes(w));
if (unknown.length > 0) {
  console.error(`error: no example named ${unknown.map((u) => `"${u}"`).join(', ')} in ${relative(root, examplesDir)}/`);
  process.exit(1);
}
if (examples.length === 0) {
  console.error(`error: no examples found (folders with a design.json or polotno.json in ${relative(root, examplesDir)}/)`);
  process.exit(1);
}

await mkdir(outDir, { recursive: true });
const engine = new Engine();
const started = performance.now();
let written = 0;
const failures = [];

console.log(`Rendering ${examples.length} example${examples.length === 1 ? '' : 's'} into ${relative(root, outDir)}/`);
for (const name of examples) {
  const dir = join(examplesDir, name);
  try {
    const design = await readJson(join(dir, designFile(name)));
    const overrides = await readOverrides(join(dir, 'overrides.json'));
    const assets = fileAssetResolver({ baseDir: dir });
    // Videos (a duration or slides) render as mp4 too; their stills show the design's poster time (by
    // default the moment the opening animations have ended), as any still of an animated design does.
    const video = design.duration !== undefined || design.slides !== undefined;
    const jobs = [
      { file: `${name}.png`, format: 'png', overrides },
      { file: `${name}.jpg`, format: 'jpg', overrides },
      { file: `${name}.template.png`, format: 'png', overrides: {} },
      ...(video ? [{ file: `${name}.mp4`, format: 'mp4', overrides, ...(design.slides ? { size: 'sd' } : {}) }] : []),
    ];
    for (const job of jobs) {
      const t0 = performance.now();
      const { file: _file, ...options } = job;
      const result = await engine.render({ design, ...options, assets });
      await writeFile(join(outDir, job.file), result.bytes);
      const took = performance.now() - t0;
      written++;
      const notes = result.report.filter((r) => r.clipped).map((r) => `${r.name ?? 'text'} clipped`);
      console.log(
        `  ${`${relative(root, outDir)}/${job.file}`.padEnd(40)} ${`${result.width}x${result.height}`.padStart(9)}  ${size(result.bytes.length).padStart(9)}  ${ms(took).padStart(7)}${notes.length ? `  (${notes.join(', ')})` : ''}`,
      );
    }
  } catch (e) {
    failures.push(name);
    console.error(`  ${name}: FAILED: ${typeof e?.toString === 'function' ? e.toString() : String(e)}`);
  }
}

const total = ((performance.now() - started) / 1000).toFixed(2);
if (failures.length > 0) {
  console.error(
    `${failures.length} example${failures.length === 1 ? '' : 's'} failed (${failures.join(', ')}); ${written} file${written === 1 ? '' : 's'} written in ${total} s.`,
  );
  process.exit(1);
}
console.log(
  `Done: ${written} files in ${total} s. Open ${relative(root, outDir)}/*.png to compare each template with its overridden render; examples/README.md has the CLI command for each example.`,
);
