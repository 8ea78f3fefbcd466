// The CLI as a user runs it (built dist/, as after `npm install`): exit codes, files, one-line errors.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtBin } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, [builtBin(), ...args], { cwd: ROOT }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
/** Like run, with stdout as bytes (`--out -`). */
const runBytes = (args: string[]) =>
  promisify(execFile)(process.execPath, [builtBin(), ...args], { cwd: ROOT, encoding: 'buffer', maxBuffer: 64 << 20 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr.toString() }),
    (e: { code: number; stdout: Buffer; stderr: Buffer }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr.toString() }),
  );
const lines = (s: string) => s.split('\n').filter(Boolean);
const CARD = 'examples/card-1080/design.json';
const CARD_OVERRIDES = 'examples/card-1080/overrides.json';
const FORMATS = 'png, jpg, webp, avif, pdf or mp4';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'imprint-cli-'));
});

describe('imprint render', () => {
  it('renders the card example with its overrides to png and prints the fit report', async () => {
    const out = join(dir, 'card.png');
    const r = await run([
      'render',
      'examples/card-1080/design.json',
      '--overrides',
      'examples/card-1080/overrides.json',
      '--format',
      'png',
      '--out',
      out,
      '--report',
    ]);
    expect(r.code).toBe(0);
    // Success says what was written, how big and how long it took, on stderr: stdout is the report's.
    expect(r.stderr).toMatch(/^wrote .*card\.png: png 1080x1080, [\d.]+ kB, in [\d.]+ s\n$/);
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
    [
      'an unknown object name',
      { objects_overrides: { nope: { text: 'x' } } },
      'validation_error at $.objects_overrides.nope: the design has no object named "nope"',
    ],
    [
      'a field the object lacks',
      { objects_overrides: { headline: { path: 'x.jpg' } } },
      'validation_error at $.objects_overrides.headline.path: unknown field "path"',
    ],
    [
      'an external URL',
      { objects_overrides: { photo: { path: 'https://evil.example/x.jpg' } } },
      'validation_error at $.objects_overrides.photo.path: external image URLs are not allowed',
    ],
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
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `validation_error at $.design: the design file "${join(dir, 'missing.json')}" was not found (looked for ${join(dir, 'missing.json')}): check the name and the folder\n`,
    );
    // As typed, and where it was looked for: relative paths are from the folder imprint runs in.
    const nope = await run(['render', 'nope.json', '--out', join(dir, 'x.png')]);
    expect(nope.stderr).toBe(
      `validation_error at $.design: the design file "nope.json" was not found (looked for ${join(ROOT, 'nope.json')}): check the name and the folder\n`,
    );
    const overrides = await run(['render', CARD, '--overrides', 'nope-overrides.json', '--out', join(dir, 'x.png')]);
    expect(overrides.stderr).toMatch(/^validation_error at \$\.overrides: the overrides file "nope-overrides\.json" was not found \(looked for /);
    const gif = await run(['render', 'examples/card-1080/design.json', '--out', join(dir, 'x.gif')]);
    expect(gif.code).toBe(2);
    const gifOut = join(dir, 'x.gif');
    expect(gif.stderr).toBe(`validation_error at $.format: cannot tell the format from the extension ".gif" of --out ${gifOut}: give --format ${FORMATS}\n`);
    const named = await run(['render', 'examples/card-1080/design.json', '--out', join(dir, 'x.png'), '--format', 'gif']);
    expect(named.stderr).toBe('validation_error at $.format: expected --format png, jpg, webp, avif, pdf or mp4 but received "gif"\n');
    const bare = await run(['render', 'examples/card-1080/design.json', '--out', join(dir, 'card')]);
    const bareOut = join(dir, 'card');
    expect(bare.stderr).toBe(`validation_error at $.format: cannot tell the format of --out ${bareOut}, it has no extension: give --format ${FORMATS}\n`);
    const folder = await run(['render', 'examples/card-1080/design.json', '--out', join(dir, 'no-such-folder', 'x.png')]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/^validation_error at \$\.out: the folder ".*no-such-folder" of --out .* does not exist: create it first\n$/);
    const q = await run(['render', 'examples/card-1080/design.json', '--out', join(dir, 'x.jpg'), '--quality', '0']);
    expect(q.stderr).toMatch(/^validation_error at \$\.jpg\.quality: expected an integer from 1 to 100 for --quality/);
  });

  it('says a missing image is looked for in the design folder, naming it; a missing font family is named once', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'imprint-cli-design-'));
    const design = join(folder, 'design.json');
    const image = { type: 'image', name: 'photo', x: 0, y: 0, width: 200, height: 100, path: 'photos/beach.jpg' };
    await writeFile(design, JSON.stringify({ width: 200, height: 100, objects: [image] }));
    // Run from the repository's folder: the path is the design folder's, not the current one.
    const r = await run(['render', design, '--out', join(dir, 'x.png')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `validation_error at $.objects[0].path: no image file at "photos/beach.jpg" (paths are relative to the design's folder, ${folder}: looked for ${join(folder, 'photos', 'beach.jpg')}): check the path or upload the image\n`,
    );
    const text = { type: 'text', name: 't', x: 0, y: 0, width: 200, height: 50, text: 'hi', font_family: 'Comic Sans' };
    await writeFile(design, JSON.stringify({ width: 200, height: 100, objects: [text] }));
    const font = await run(['render', design, '--out', join(dir, 'x.png')]);
    // The path names the field; the message does not repeat it ("font_family: font family …").
    expect(font.stderr).toMatch(
      /^validation_error at \$\.objects\[0\]\.font_family: font family "Comic Sans" is not available: use one of Inter, Lora, Roboto, Open Sans, Anton/,
    );
  });

  it('prints the size of a file as npm run examples prints it: decimal kB in both', async () => {
    const out = join(dir, 'card-1080.png');
    const cli = await run(['render', CARD, '--overrides', CARD_OVERRIDES, '--out', out]);
    const cliSize = /: png 1080x1080, ([\d.]+ kB), in /.exec(cli.stderr)?.[1];
    expect(cliSize, cli.stderr).toBe(`${((await readFile(out)).length / 1000).toFixed(1)} kB`);
    const examples = await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'render-examples.mjs'), 'card-1080'], { cwd: ROOT });
    const line = examples.stdout.split('\n').find((l) => /out\/card-1080\.png\s/.test(l));
    // The same bytes (renders are deterministic), so the same size, spelled the same.
    expect(line, examples.stdout).toMatch(new RegExp(`1080x1080\\s+${cliSize!.replace('.', '\\.')}\\s`));
    expect(examples.stdout).not.toMatch(/\bKB\b/);
  }, 60_000);

  it('writes a pdf, and several designs as the pages of one pdf', async () => {
    const one = join(dir, 'card.pdf');
    expect((await run(['render', 'examples/card-1080/design.json', '--overrides', 'examples/card-1080/overrides.json', '--out', one])).code).toBe(0);
    expect((await readFile(one)).subarray(0, 5).toString()).toBe('%PDF-');
    const both = join(dir, 'both.pdf');
    const r = await run([
      'render',
      'examples/card-1080/design.json',
      'examples/chart-report/design.json',
      '--overrides',
      'examples/card-1080/overrides.json',
      '--overrides',
      'examples/chart-report/overrides.json',
      '--format',
      'pdf',
      '--out',
      both,
    ]);
    // The card is 1080×1080, the chart report 1080×1350: every page's size, not only the first's.
    expect(r.stderr).toMatch(/^wrote .*both\.pdf: pdf 2 pages, 1080x1080 and 1080x1350, [\d.]+ kB, in [\d.]+ s\n$/);
    const twice = await run(['render', CARD, CARD, '--format', 'pdf', '--out', join(dir, 'twice.pdf')]);
    expect(twice.stderr).toMatch(/^wrote .*twice\.pdf: pdf 1080x1080, 2 pages, [\d.]+ kB, in /);
    // A slide video's pdf has a page per slide, one design file or not.
    const slides = await run(['render', 'examples/slides-video/design.json', '--out', join(dir, 'slides.pdf')]);
    expect(slides.stderr).toMatch(/^wrote .*slides\.pdf: pdf 1920x1080, 5 pages, [\d.]+ (kB|MB), in /);
    expect((await readFile(both)).toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(2);
    const mixed = await run(['render', 'examples/card-1080/design.json', 'examples/chart-report/design.json', '--out', join(dir, 'x.png')]);
    expect(mixed.stderr).toMatch(/^validation_error at \$\.pages: several design files make the pages of one pdf/);
    const short = await run([
      'render',
      'examples/card-1080/design.json',
      'examples/chart-report/design.json',
      '--overrides',
      'examples/card-1080/overrides.json',
      '--out',
      join(dir, 'y.pdf'),
    ]);
    expect(short.stderr).toMatch(/^validation_error at \$\.overrides: give --overrides once per design file/);
  });

  it('writes an mp4 with progress lines when stderr is not a terminal, and refuses --fps 25', async () => {
    const design = join(dir, 'anim.json');
    await writeFile(
      design,
      JSON.stringify({
        width: 160,
        height: 90,
        duration: 1,
        objects: [{ type: 'shape', x: 0, y: 0, width: 40, height: 40, animations: [{ type: 'slide_in', from: 'left', duration: 1 }] }],
      }),
    );
    const out = join(dir, 'anim.mp4');
    const r = await run(['render', design, '--out', out, '--fps', '60']);
    expect(r.code).toBe(0);
    const progress = lines(r.stderr).filter((l) => l.startsWith('progress '));
    // Every line before the last has the speed and an estimate of the time left; the last has the speed.
    for (const l of progress.slice(0, -1)) expect(l).toMatch(/^progress \d+% \(frame \d+\/60, [\d.]+ frames\/s, ETA (\d+ s|…)\)$/);
    expect(progress.at(-1)).toMatch(/^progress 100% \(frame 60\/60, [\d.]+ frames\/s\)$/);
    expect(lines(r.stderr).at(-1)).toMatch(/^wrote .*anim\.mp4: mp4 160x90, 1 s \(60 frames at 60 fps\), [\d.]+ kB, in [\d.]+ s$/);
    expect((await readFile(out)).subarray(4, 8).toString()).toBe('ftyp');
    const bad = await run(['render', design, '--out', join(dir, 'x.mp4'), '--fps', '25']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^validation_error at \$\.fps: expected --fps 30 or 60/);
  });

  it('prints usage for help and exits 2 for unknown commands or flags', async () => {
    expect((await run(['--help'])).stdout).toMatch(/^Usage: imprint <command>[\s\S]*\n {2}render <design.json>/);
    const paint = await run(['paint']);
    expect(paint.code).toBe(2);
    expect(paint.stderr).toBe('usage_error: unknown command "paint": use render, serve, worker, admin, import or fonts (imprint --help)\n');
    const flag = await run(['render', 'examples/card-1080/design.json', '--out', join(dir, 'x.png'), '--colour', 'red']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe("usage_error: Unknown option '--colour' (imprint render --help lists the options)\n");
  });
});

describe('imprint render: webp and avif', () => {
  it('writes a real webp from the .webp extension, with --quality and --lossless', async () => {
    const out = join(dir, 'card.webp');
    const r = await run(['render', CARD, '--overrides', CARD_OVERRIDES, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^wrote .*card\.webp: webp 1080x1080, [\d.]+ kB, in [\d.]+ s\n$/);
    const bytes = await readFile(out);
    expect([bytes.subarray(0, 4).toString('latin1'), bytes.subarray(8, 12).toString('latin1')]).toEqual(['RIFF', 'WEBP']);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 1080, height: 1080 });

    const low = join(dir, 'low.webp');
    expect((await run(['render', CARD, '--overrides', CARD_OVERRIDES, '--out', low, '--quality', '20'])).code).toBe(0);
    expect((await readFile(low)).length).toBeLessThan(bytes.length);
    const lossless = join(dir, 'lossless.webp');
    expect((await run(['render', CARD, '--out', lossless, '--lossless'])).code).toBe(0);
    // A lossless webp is a VP8L chunk; lossy ones are VP8.
    expect((await readFile(lossless)).subarray(12, 16).toString('latin1')).toBe('VP8L');
    expect(bytes.subarray(12, 16).toString('latin1')).not.toBe('VP8L');
  });

  it('writes an avif from --format avif, and maps --quality to it', async () => {
    const lo = join(dir, 'lo.avif');
    const hi = join(dir, 'hi.avif');
    expect((await run(['render', CARD, '--format', 'avif', '--out', lo, '--quality', '20'])).code).toBe(0);
    expect((await run(['render', CARD, '--format', 'AVIF', '--out', hi, '--quality', '80'])).code).toBe(0);
    const bytes = await readFile(lo);
    expect(bytes.subarray(4, 12).toString('latin1')).toBe('ftypavif');
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'heif', compression: 'av1', width: 1080, height: 1080 });
    expect(bytes.length).toBeLessThan((await readFile(hi)).length);
  });

  it.each([
    [['--out', 'x.png', '--quality', '80'], 'validation_error at $.quality: --quality applies to jpg, webp and avif, not to png'],
    [['--out', 'x.pdf', '--quality', '80'], 'validation_error at $.quality: --quality applies to jpg, webp and avif, not to pdf'],
    [['--out', 'x.jpg', '--compression', '9'], 'validation_error at $.compression: --compression applies to png only (its zlib level), not to jpg'],
    [['--out', 'x.png', '--lossless'], 'validation_error at $.lossless: --lossless applies to webp only, not to png'],
    [['--out', 'x.png', '--max-duration', '20'], 'validation_error at $.maxDuration: --max-duration applies to mp4 only'],
    [['--out', 'x.webp', '--quality', '101'], 'validation_error at $.webp.quality: expected an integer from 1 to 100 for --quality'],
  ])('refuses encoder flags the format has no use for: %j', async (args, message) => {
    const r = await run(['render', CARD, ...args.map((a) => (/^x\./.test(a) ? join(dir, `never-${a}`) : a))]);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr.startsWith(message)).toBe(true);
  });
});

describe('imprint render --out -', () => {
  it('writes only the bytes on stdout; the report and messages go to stderr', async () => {
    const r = await runBytes(['render', CARD, '--overrides', CARD_OVERRIDES, '--format', 'jpg', '--out', '-', '--report']);
    expect(r.code).toBe(0);
    expect(await sharp(r.stdout).metadata()).toMatchObject({ format: 'jpeg', width: 1080, height: 1080 });
    expect(r.stderr).toMatch(/^\[\n/);
    expect(lines(r.stderr).at(-1)).toMatch(/^wrote to stdout: jpg 1080x1080, [\d.]+ kB, in [\d.]+ s$/);
    const report = JSON.parse(r.stderr.slice(0, r.stderr.lastIndexOf(']') + 1)) as { name: string }[];
    expect(report.map((x) => x.name)).toContain('headline');
  });

  it('needs --format', async () => {
    const r = await runBytes(['render', CARD, '--out', '-']);
    expect(r.code).toBe(2);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toBe(`validation_error at $.format: --out - writes the bytes to stdout, which has no extension: give --format ${FORMATS}\n`);
  });
});

describe('imprint render: warnings and limits', () => {
  it('warns on stderr, one line per object, about characters the fonts cannot draw, and still exits 0', async () => {
    const design = join(dir, 'glyphs.json');
    await writeFile(
      design,
      JSON.stringify({
        width: 300,
        height: 120,
        objects: [
          { type: 'text', name: 'title', x: 0, y: 0, width: 300, height: 60, text: 'x' },
          { type: 'text', name: 'plain', x: 0, y: 60, width: 300, height: 60, text: 'Nothing missing' },
        ],
      }),
    );
    const overrides = join(dir, 'glyphs-overrides.json');
    // Japanese (drawn by the CJK fallback face) and a private-use character (no font ever will).
    await writeFile(overrides, JSON.stringify({ objects_overrides: { title: { text: 'Tokyo 東京 \u{F0041}' } } }));
    const r = await run(['render', design, '--overrides', overrides, '--out', join(dir, 'glyphs.png')]);
    expect(r.code).toBe(0);
    const warnings = lines(r.stderr).filter((l) => l.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: text object "title" has characters the fonts cannot draw, shown as the font's empty box: /);
    expect(warnings[0]).toContain('\u{F0041} (U+F0041)');
    expect(warnings[0]).not.toMatch(/[A-Za-z] \(U\+/);
    expect(lines(r.stderr).at(-1)).toMatch(/^wrote .*glyphs\.png: png 300x120/);
  });

  it("refuses --time past the end of an animated design with the engine's message", async () => {
    const design = join(dir, 'short.json');
    await writeFile(design, JSON.stringify({ width: 64, height: 64, duration: 2, objects: [{ type: 'shape', x: 0, y: 0, width: 20, height: 20 }] }));
    const out = join(dir, 'late.png');
    const r = await run(['render', design, '--out', out, '--time', '3']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/^validation_error at \$\.time: the design lasts 2 s/);
    await expect(readFile(out)).rejects.toThrow();
    expect((await run(['render', design, '--out', out, '--time', '2'])).code).toBe(0);
  });

  it('refuses a 20 s video by default and renders it with --max-duration 20', async () => {
    const design = join(dir, 'long.json');
    const box = { type: 'shape', x: 0, y: 0, width: 20, height: 20, animations: [{ type: 'fade_in', duration: 1 }] };
    await writeFile(design, JSON.stringify({ width: 64, height: 64, duration: 20, objects: [box] }));
    const out = join(dir, 'long.mp4');
    const refused = await run(['render', design, '--out', out]);
    expect(refused.code).toBe(2);
    expect(lines(refused.stderr)).toHaveLength(1);
    expect(refused.stderr).toMatch(/^validation_error at \$\.duration: the video lasts 20 s: at most 15 s are allowed; .*--max-duration/);
    const r = await run(['render', design, '--out', out, '--max-duration', '20']);
    expect(r.code).toBe(0);
    expect(lines(r.stderr).at(-1)).toMatch(/^wrote .*long\.mp4: mp4 64x64, 20 s \(600 frames at 30 fps\), [\d.]+ kB, in [\d.]+ s$/);
    expect((await readFile(out)).subarray(4, 8).toString()).toBe('ftyp');
    const bad = await run(['render', design, '--out', out, '--max-duration', '0']);
    expect(bad.stderr).toMatch(/^validation_error at \$\.maxDuration: expected --max-duration in seconds \(more than 0, at most 3600\) but received "0"/);
  });
});

describe('imprint render --overrides with a whole request body', () => {
  const textDesign = { width: 200, height: 100, objects: [{ type: 'text', name: 'title', x: 0, y: 0, width: 200, height: 100, text: 'Before' }] };

  it("takes interface A's body: format as the default, design_id and webhook_url ignored", async () => {
    const design = join(dir, 'a-design.json');
    await writeFile(design, JSON.stringify(textDesign));
    const body = join(dir, 'a-body.json');
    const request = { design_id: 7, format: 'jpg', webhook_url: 'https://hooks.example/x', objects_overrides: { title: { text: 'After' } } };
    await writeFile(body, JSON.stringify(request));
    const noExt = join(dir, 'a-result');
    const r = await run(['render', design, '--overrides', body, '--out', noExt, '--report']);
    expect(r.code).toBe(0);
    expect((await sharp(await readFile(noExt)).metadata()).format).toBe('jpeg');
    expect((JSON.parse(r.stdout) as { name: string; line_count: number }[])[0]).toMatchObject({ name: 'title', line_count: 1 });

    // The --out extension (or --format) wins over the body's format, with a warning.
    const png = join(dir, 'a-result.png');
    const other = await run(['render', design, '--overrides', body, '--out', png]);
    expect(other.code).toBe(0);
    expect((await sharp(await readFile(png)).metadata()).format).toBe('png');
    expect(lines(other.stderr)[0]).toBe(`warning: the overrides file ${body} asks for jpg; rendering png as the extension ".png" of --out says`);
  });

  it("takes interface B's body: its parameters are the defaults of --fps and --size, mp4 the default format", async () => {
    const design = join(dir, 'b-design.json');
    const title = { ...textDesign.objects[0], animations: [{ type: 'fade_in', duration: 0.5 }] };
    await writeFile(design, JSON.stringify({ ...textDesign, duration: 1, objects: [title] }));
    const body = join(dir, 'b-body.json');
    await writeFile(body, JSON.stringify({ parameters: { fps: 60, demo: true }, overrides: [{ name: 'title', object: { text: 'From B' } }] }));
    const out = join(dir, 'b-result');
    const r = await run(['render', design, '--overrides', body, '--out', out]);
    expect(r.code).toBe(0);
    expect(lines(r.stderr).at(-1)).toMatch(/: mp4 200x100, 1 s \(60 frames at 60 fps\)/);
    expect((await readFile(out)).subarray(4, 8).toString()).toBe('ftyp');
    const flag = await run(['render', design, '--overrides', body, '--out', join(dir, 'b-30.mp4'), '--fps', '30']);
    expect(lines(flag.stderr).at(-1)).toMatch(/: mp4 200x100, 1 s \(30 frames at 30 fps\)/);
  });

  it.each([
    [{ objects_overides: {} }, 'validation_error at $.objects_overides: unknown field "objects_overides" in the overrides file (did you mean "objects_'],
    [{ objects_overrides: {}, overrides: [] }, `validation_error at $.overrides: the overrides file mixes interface A's "objects_overrides" with`],
    [{ format: 'gif' }, 'validation_error at $.format: expected "format" png, jpg, webp, avif, pdf or mp4 in the overrides file'],
    [{ parameters: { fps: 25 } }, 'validation_error at $.parameters.fps: expected fps 30 or 60 but received 25'],
    [{ parameters: { size: 'hd' } }, 'validation_error at $.parameters.size: unknown parameter "size"'],
  ])('refuses a body that neither interface takes: %j', async (body, message) => {
    const file = join(dir, `body-${Math.random()}.json`);
    await writeFile(file, JSON.stringify(body));
    const r = await run(['render', CARD, '--overrides', file, '--out', join(dir, 'never-body.png')]);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr.startsWith(message)).toBe(true);
  });
});
