// PDF output checked by real tools: qpdf validates the file, pdffonts lists the fonts, pdftotext reads
// the text back, pdftoppm rasterises every golden case for comparison with its png, and the link
// annotations are read from the file itself. Needs poppler-utils and qpdf (installed by .ci/run).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { DesignInput } from '../src/engine.js';
import { Engine, fileAssetResolver, PT_PER_PX } from '../src/index.js';
import type { ObjectsOverrides } from '../src/resolve/types.js';
import { envelopeMismatch } from './support/envelope-diff.js';
import { caseInput, discoverCases, renderCase } from './support/golden-cases.js';
import { REPO_ROOT } from './support/golden-compare.js';
import { run, toolsAvailable } from './support/tools.js';

const ready = toolsAvailable(['qpdf', 'pdffonts', 'pdftotext', 'pdftoppm', 'pdfinfo'], 'pdf tests need poppler and qpdf');
const tmp = mkdtempSync(join(tmpdir(), 'imprint-pdf-'));
const engine = new Engine();

function example(name: string) {
  const dir = join(REPO_ROOT, 'examples', name);
  return {
    design: JSON.parse(readFileSync(join(dir, 'design.json'), 'utf8')) as DesignInput,
    overrides: (JSON.parse(readFileSync(join(dir, 'overrides.json'), 'utf8')) as { objects_overrides: ObjectsOverrides }).objects_overrides,
    assets: fileAssetResolver({ baseDir: dir }),
  };
}

async function pdfFile(name: string, bytes: Buffer): Promise<string> {
  const file = join(tmp, `${name.replace(/\//g, '-')}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

/** Every deflated stream of a pdf, inflated and joined: the page content as text (images fail to inflate and are skipped). */
function pageContent(pdf: Buffer): string {
  const out: string[] = [];
  const text = pdf.toString('latin1');
  for (const m of text.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    try {
      out.push(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      // not a deflated stream (a jpg), or trailing bytes: not content
    }
  }
  return out.join('\n');
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Text each example's overrides put on the page, in reading order. */
const EXPECTED_TEXT: Record<string, string[]> = {
  'card-1080': ['City lights, after dark: a weekend in Oslo', 'Harbour-front hotel, a rooftop dinner'],
  'banner-1200x628': ['Shop now'],
  'story-1080x1920': ['Aurora Hunt: ночь над Хибинами', 'Кировск, февраль', 'группы до 8 человек'],
  'chart-report': ['Half-year sales report', 'Revenue by month', 'Channel mix'],
  'mockup-phone': ['Premium is 50% off for your first year'],
};

describe.runIf(ready)('pdf: examples checked by qpdf, pdffonts and pdftotext', () => {
  it.each(Object.keys(EXPECTED_TEXT))('%s', async (name) => {
    const { bytes, mimeType } = await engine.render({ ...example(name), format: 'pdf' });
    expect(mimeType).toBe('application/pdf');
    const file = await pdfFile(name, bytes);
    expect(run('qpdf', ['--check', file])).toMatch(/No syntax or stream encoding errors found/);
    // Every font is an embedded subset with a unicode map, and only bundled families appear.
    const fonts = run('pdffonts', [file]).trim().split('\n').slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    for (const row of fonts) {
      expect(row).toMatch(/^[A-Z]{6}\+(Inter|Lora)-(Regular|Bold)\s+CID TrueType\s+Identity-H\s+yes\s+yes\s+yes/);
    }
    const text = squash(run('pdftotext', [file, '-']));
    let from = 0;
    for (const expected of EXPECTED_TEXT[name]!) {
      const at = text.indexOf(expected, from);
      expect(at, `"${expected}" in reading order in: ${text}`).toBeGreaterThanOrEqual(0);
      from = at + expected.length;
    }
  });

  it('gives identical bytes for the same request, also from a fresh engine', async () => {
    const a = await engine.render({ ...example('card-1080'), format: 'pdf' });
    const b = await new Engine().render({ ...example('card-1080'), format: 'pdf' });
    expect(a.bytes.equals(b.bytes)).toBe(true);
    const file = await pdfFile('dates', a.bytes);
    expect(run('pdfinfo', ['-isodates', file])).toMatch(/CreationDate:\s+2000-01-01T00:00:00Z[\s\S]*ModDate:\s+2000-01-01T00:00:00Z/);
  });

  it('maps 1 px to 0.75 pt: a 1080 px design is an 810 pt page', async () => {
    const file = await pdfFile('size', (await engine.render({ ...example('card-1080'), format: 'pdf' })).bytes);
    expect(run('pdfinfo', [file])).toMatch(/Page size:\s+810 x 810 pts/);
    expect(PT_PER_PX).toBe(0.75);
  });

  it('renders several designs as the pages of one pdf, each at its own size', async () => {
    const card = example('card-1080');
    const banner = example('banner-1200x628');
    const { bytes, report } = await engine.render({
      format: 'pdf',
      pages: [
        { design: card.design, overrides: card.overrides },
        { design: banner.design, overrides: banner.overrides },
      ],
      assets: async (ref) => await card.assets(ref).catch(() => banner.assets(ref)),
    });
    const file = await pdfFile('pages', bytes);
    const info = run('pdfinfo', ['-f', '1', '-l', '2', file]);
    expect(info).toMatch(/Pages:\s+2/);
    expect(info).toMatch(/Page\s+1 size:\s+810 x 810 pts/);
    expect(info).toMatch(/Page\s+2 size:\s+900 x 471 pts/);
    expect(new Set(report.map((r) => r.page))).toEqual(new Set([0, 1]));
  });
});

interface Annotation {
  rect: [number, number, number, number];
  uri: string;
}

/** Link annotations of page 1, read through qpdf's JSON view of the file. */
function linkAnnotations(file: string): Annotation[] {
  const json = JSON.parse(run('qpdf', ['--json=2', '--json-key=qpdf', file])) as { qpdf: [unknown, Record<string, { value?: Record<string, unknown> }>] };
  const objects = json.qpdf[1];
  const out: Annotation[] = [];
  for (const obj of Object.values(objects)) {
    const v = obj.value;
    if (v?.['/Subtype'] !== '/Link') continue;
    const action = (typeof v['/A'] === 'string' ? objects[`obj:${v['/A']}`]?.value : v['/A']) as Record<string, string>;
    out.push({ rect: v['/Rect'] as Annotation['rect'], uri: String(action['/URI']).replace(/^u:/, '') });
  }
  return out;
}

/** Word boxes (pt, y from the top) as pdftotext sees them. */
function words(file: string): { text: string; xMin: number; yMin: number; xMax: number; yMax: number }[] {
  const html = run('pdftotext', ['-bbox', file, '-']);
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
    text: m[5]!,
  }));
}

describe.runIf(ready)('pdf: links', () => {
  it('each link substyle is a URI annotation whose rectangle covers exactly the linked words', async () => {
    const design = {
      width: 600,
      height: 200,
      objects: [
        {
          type: 'text',
          name: 't',
          x: 20,
          y: 20,
          width: 560,
          height: 160,
          font_size: 32,
          text: 'Read the <substyle link="(url:https://example.com/terms)" underline>full terms</substyle> or <substyle link="(url:mailto:help@example.com)">write to us</substyle> today',
        },
      ],
    } satisfies DesignInput;
    const file = await pdfFile('links', (await engine.render({ design, format: 'pdf' })).bytes);
    const links = linkAnnotations(file);
    expect(links.map((l) => l.uri).sort()).toEqual(['https://example.com/terms', 'mailto:help@example.com']);
    const pageHeight = 200 * PT_PER_PX;
    const boxes = words(file);
    for (const [uri, linked] of [
      ['https://example.com/terms', ['full', 'terms']],
      ['mailto:help@example.com', ['write', 'to', 'us']],
    ] as const) {
      const [x1, y1, x2, y2] = links.find((l) => l.uri === uri)!.rect;
      for (const w of linked) {
        const box = boxes.find((b) => b.text === w)!;
        // pdftotext measures y from the top; annotation rectangles from the bottom.
        expect(box.xMin).toBeGreaterThanOrEqual(x1 - 0.5);
        expect(box.xMax).toBeLessThanOrEqual(x2 + 0.5);
        expect(pageHeight - box.yMax).toBeGreaterThanOrEqual(y1 - 0.5);
        expect(pageHeight - box.yMin).toBeLessThanOrEqual(y2 + 0.5);
      }
      // …and no further than the linked words: the neighbours stay outside.
      const outside = boxes.filter((b) => b.text === 'the' || b.text === 'or' || b.text === 'today');
      for (const b of outside) expect(b.xMax <= x1 + 0.5 || b.xMin >= x2 - 0.5).toBe(true);
    }
  });
});

describe.runIf(ready)('pdf: text effects', () => {
  it('the text of a text_transform is the changed text: pdftotext reads it back', async () => {
    const c = discoverCases().find((k) => k.area === 'text' && k.name === 'uppercase-capitalize')!;
    const file = await pdfFile('text-transform', (await renderCase(engine, c, 'pdf')).bytes);
    const text = squash(run('pdftotext', [file, '-']));
    for (const expected of ['SUMMER SALE IN DER STRASSE', 'quiet hours οδος', "The Summer Don't E-Mail 3rd", 'WRAPPING AFTER THE CASE CHANGE']) {
      expect(text).toContain(expected);
    }
  });

  it('a headline with a text shadow is still real text, read once, over its rasterised shadow', async () => {
    const c = discoverCases().find((k) => k.area === 'image' && k.name === 'drop-shadow-photo-and-text')!;
    const { bytes } = await renderCase(engine, c, 'pdf');
    const file = await pdfFile('object-shadows', bytes);
    const text = squash(run('pdftotext', [file, '-']));
    expect(text.split('Golden hour').length - 1, text).toBe(1);
    // Two shadows, each one image (with its soft mask), besides the photo.
    expect(bytes.toString('latin1').match(/\/Subtype \/Image/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it('outlined text is real text, read once: the stroke pass is an empty ActualText span', async () => {
    const c = discoverCases().find((k) => k.area === 'text' && k.name === 'stroke-outline')!;
    const file = await pdfFile('text-stroke', (await renderCase(engine, c, 'pdf')).bytes);
    const text = squash(run('pdftotext', [file, '-']));
    for (const expected of ['Outlined Headline', 'WAVE MAX', 'Hotdeal ghost', 'Lora outline', 'Plain bold']) {
      expect(text.split(expected).length - 1, `"${expected}" once in: ${text}`).toBe(1);
    }
    const content = run('qpdf', ['--qdf', '--object-streams=disable', file, '-']);
    expect(content).toMatch(/ActualText <FEFF>>> BDC\nBT\n\/F\d+ [\d.]+ Tf\n1 Tr/i);
  });
});

/** Default share of pixels allowed to differ between the pdf (rasterised by poppler) and the png. */
const PDF_MAX_MISMATCH = 0.005;

describe.runIf(ready)('pdf: every golden case rasterised by pdftoppm matches its png', () => {
  for (const c of discoverCases()) {
    it(`${c.area}/${c.name}`, async () => {
      const { bytes } = await renderCase(engine, c, 'pdf');
      const file = await pdfFile(`${c.area}-${c.name}`, bytes);
      const { design } = caseInput(c) as { design: { width: number; dpi?: number; unit?: string; pages?: unknown } };
      // The design's dpi turns its points back into pixels: 96 for an Imprint design (0.75 pt a pixel),
      // a Polotno document's own (72 unless it says, and a point a pixel with unit "pt").
      const polotno = Array.isArray(design.pages);
      const dpi = polotno ? (design.unit === 'pt' ? 72 : (design.dpi ?? 72)) : (design.dpi ?? 96);
      run('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', file, file.replace(/\.pdf$/, '')]);
      const mismatch = await envelopeMismatch(join(c.dir, 'expected.png'), file.replace(/\.pdf$/, '.png'));
      const tolFile = join(c.dir, 'tolerance-pdf.json');
      const tolerance = existsSync(tolFile) ? (JSON.parse(readFileSync(tolFile, 'utf8')) as { maxMismatch: number; reason: string }) : null;
      if (tolerance) expect(tolerance.reason.length, `${tolFile} needs a reason`).toBeGreaterThan(20);
      expect(mismatch, `${c.area}/${c.name}: ${(mismatch * 100).toFixed(3)} % of ${design.width}px-wide pixels differ (pdf: ${file})`).toBeLessThanOrEqual(
        tolerance?.maxMismatch ?? PDF_MAX_MISMATCH,
      );
    });
  }
});

describe('pdf: images and pages (no tools needed)', () => {
  it('embeds a jpg once, byte for byte, however often and on however many pages it is used', async () => {
    const photo = readFileSync(join(REPO_ROOT, 'examples', 'card-1080', 'city-night.jpg'));
    const design = {
      width: 400,
      height: 300,
      objects: [
        { type: 'image', x: 0, y: 0, width: 200, height: 300, path: 'city-night.jpg' },
        { type: 'image', x: 200, y: 0, width: 200, height: 150, path: 'city-night.jpg', config: { media_replacement_strategy: 'contain' } },
      ],
    } satisfies DesignInput;
    const { bytes } = await engine.render({ format: 'pdf', pages: [{ design }, { design }], baseDir: join(REPO_ROOT, 'examples', 'card-1080') });
    expect(bytes.toString('latin1').match(/\/Subtype \/Image/g)).toHaveLength(1);
    expect(bytes.includes(photo)).toBe(true);
  });

  it('rounds and masks a photo with vector clipping paths around the untouched jpg (crop too: no pixels rewritten)', async () => {
    const photo = readFileSync(join(REPO_ROOT, 'examples', 'card-1080', 'city-night.jpg'));
    const image = { type: 'image', width: 120, height: 120, path: 'city-night.jpg' } as const;
    const design = {
      width: 400,
      height: 300,
      objects: [
        { ...image, x: 0, y: 0, corner_radius: 24, crop: { x: 0.2, y: 0.1, width: 0.5, height: 0.6 } },
        { ...image, x: 140, y: 0, mask: 'circle', config: { focal_point: { x: 0.8, y: 0.3 } } },
        { ...image, x: 280, y: 0, mask: 'ellipse' },
      ],
    } satisfies DesignInput;
    const { bytes } = await engine.render({ format: 'pdf', design, baseDir: join(REPO_ROOT, 'examples', 'card-1080') });
    const file = bytes.toString('latin1');
    // One image, the jpg byte for byte, and no soft mask: the rounding is not baked into pixels.
    expect(file.match(/\/Subtype \/Image/g)).toHaveLength(1);
    expect(bytes.includes(photo)).toBe(true);
    expect(file).not.toContain('/SMask');
    // Each picture is drawn inside a clip made of Bézier curves (c) closed and applied with W n.
    const content = pageContent(bytes);
    const clips = content.match(/(?:[-\d.]+ ){6}c\s+(?:[^\n]*\n){0,6}?[^\n]*\bW n/g) ?? [];
    expect(clips.length).toBeGreaterThanOrEqual(3);
  });

  it.each([
    [{ format: 'png', pages: [{ design: {} }] }, '$.pages', 'use format "pdf"'],
    [{ format: 'pdf', pages: [] }, '$.pages', 'at least 1'],
    [{ format: 'pdf', design: { width: 10, height: 10, objects: [] }, pages: [{ design: {} }] }, '$.design', 'either design'],
    [{ format: 'pdf' }, '$.design', 'expected a design'],
    [
      {
        format: 'pdf',
        pages: [
          { design: { width: 10, height: 10, objects: [] } },
          { design: { width: 10, height: 10, objects: [{ type: 'shape', x: 'a', y: 0, width: 1, height: 1 }] } },
        ],
      },
      '$.pages[1].design.objects[0].x',
      'expected a number',
    ],
    [{ format: 'pdf', pages: [{ design: { width: 10, height: 10, objects: [] }, overrides: { nope: {} } }] }, '$.pages[0].overrides.nope', 'no object named'],
    [{ format: 'pdf', pages: [{ design: {}, extra: 1 }] }, '$.pages[0].extra', 'unknown field'],
  ])('refuses %j at its path', async (options, path, message) => {
    const e = await engine.render(options as never).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toMatchObject({ code: 'validation_error', path });
    expect((e as Error).message).toContain(message);
  });
});
