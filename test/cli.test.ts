// The CLI as a user runs it (built dist/, as after `npm install`): exit codes, files, one-line errors.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'imprint.js');
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'imprint-cli-'));
});

describe('imprint render', () => {
  it('renders the card example with its overrides to png and prints the fit report', async () => {
    const out = join(dir, 'card.png');
    const r = await run(['render', 'examples/card-1080/design.json', '--overrides', 'examples/card-1080/overrides.json', '--format', 'png', '--out', out, '--report']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await sharp(await readFile(out)).metadata()).toMatchObject({ format: 'png', width: 1080, height: 1080 });
    const report = JSON.parse(r.stdout) as { type: string }[];
    expect(report.every((x) => x.type === 'text')).toBe(true);
  });

  it('takes the format from --out and honours --quality', async () => {
    const lo = join(dir, 'lo.jpg');
    const hi = join(dir, 'hi.jpg');
    expect((await run(['render', 'examples/card-1080/design.json', '--out', lo, '--quality', '20'])).code).toBe(0);
    expect((await run(['render', 'examples/card-1080/design.json', '--out', hi, '--quality', '95'])).code).toBe(0);
    expect((await readFile(lo)).length).toBeLessThan((await readFile(hi)).length);
    expect((await sharp(await readFile(lo)).metadata()).format).toBe('jpeg');
  });

  it.each([
    ['an unknown object name', { objects_overrides: { nope: { text: 'x' } } }, 'validation_error at $.objects_overrides.nope: the design has no object named "nope"'],
    ['a field the object lacks', { objects_overrides: { headline: { path: 'x.jpg' } } }, 'validation_error at $.objects_overrides.headline.path: unknown field "path"'],
    ['an external URL', { objects_overrides: { photo: { path: 'https://evil.example/x.jpg' } } }, 'validation_error at $.objects_overrides.photo.path: external image URLs are not allowed'],
    ['a stray top-level field', { objects_override: {} }, 'validation_error at $.objects_override: unknown field "objects_override"'],
  ])('exits 2 with one line on stderr for %s', async (_, overrides, line) => {
    const file = join(dir, `o-${Math.random()}.json`);
    await writeFile(file, JSON.stringify(overrides));
    const out = join(dir, 'never.png');
    const r = await run(['render', 'examples/card-1080/design.json', '--overrides', file, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr.startsWith(line)).toBe(true);
    await expect(readFile(out)).rejects.toThrow();
  });

  it('exits 2 for non-JSON, a missing file and a bad format', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{ "width": 10,');
    const nonJson = await run(['render', bad, '--out', join(dir, 'x.png')]);
    expect(nonJson.code).toBe(2);
    expect(nonJson.stderr).toMatch(/^validation_error at \$: the design file ".*bad.json" is not valid JSON/);
    const missing = await run(['render', join(dir, 'missing.json'), '--out', join(dir, 'x.png')]);
    expect(missing.stderr).toMatch(/^validation_error at \$: cannot read design file .*ENOENT/);
    const gif = await run(['render', 'examples/card-1080/design.json', '--out', join(dir, 'x.gif')]);
    expect(gif.code).toBe(2);
    expect(gif.stderr).toMatch(/^validation_error at \$\.format: expected --format png, jpg or pdf/);
    const q = await run(['render', 'examples/card-1080/design.json', '--out', join(dir, 'x.jpg'), '--quality', '0']);
    expect(q.stderr).toMatch(/^validation_error at \$\.jpg\.quality: expected an integer from 1 to 100/);
  });

  it('writes a pdf, and several designs as the pages of one pdf', async () => {
    const one = join(dir, 'card.pdf');
    expect((await run(['render', 'examples/card-1080/design.json', '--overrides', 'examples/card-1080/overrides.json', '--out', one])).code).toBe(0);
    expect((await readFile(one)).subarray(0, 5).toString()).toBe('%PDF-');
    const both = join(dir, 'both.pdf');
    const r = await run([
      'render', 'examples/card-1080/design.json', 'examples/chart-report/design.json',
      '--overrides', 'examples/card-1080/overrides.json', '--overrides', 'examples/chart-report/overrides.json',
      '--format', 'pdf', '--out', both,
    ]);
    expect(r.stderr).toBe('');
    expect((await readFile(both)).toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(2);
    const mixed = await run(['render', 'examples/card-1080/design.json', 'examples/chart-report/design.json', '--out', join(dir, 'x.png')]);
    expect(mixed.stderr).toMatch(/^validation_error at \$\.pages: several design files make the pages of one pdf/);
    const short = await run(['render', 'examples/card-1080/design.json', 'examples/chart-report/design.json', '--overrides', 'examples/card-1080/overrides.json', '--out', join(dir, 'y.pdf')]);
    expect(short.stderr).toMatch(/^validation_error at \$\.overrides: give --overrides once per design file/);
  });

  it('writes an mp4 with progress lines when stderr is not a terminal, and refuses --fps 25', async () => {
    const design = join(dir, 'anim.json');
    await writeFile(design, JSON.stringify({ width: 160, height: 90, duration: 1, objects: [{ type: 'shape', x: 0, y: 0, width: 40, height: 40, animations: [{ type: 'slide_in', from: 'left', duration: 1 }] }] }));
    const out = join(dir, 'anim.mp4');
    const r = await run(['render', design, '--out', out, '--fps', '60']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/progress 100% \(frame 60\/60\)\n$/);
    expect((await readFile(out)).subarray(4, 8).toString()).toBe('ftyp');
    const bad = await run(['render', design, '--out', join(dir, 'x.mp4'), '--fps', '25']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^validation_error at \$\.fps: expected --fps 30 or 60/);
  });

  it('prints usage for help and exits 2 for unknown commands or flags', async () => {
    expect((await run(['--help'])).stdout).toMatch(/imprint render <design.json>/);
    expect((await run(['paint'])).code).toBe(2);
    const flag = await run(['render', 'examples/card-1080/design.json', '--out', join(dir, 'x.png'), '--colour', 'red']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^usage_error: Unknown option '--colour'/);
  });
});
