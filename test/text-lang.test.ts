// lang: the language of a text picks the forms of Chinese characters (Japanese, Korean, Simplified or
// Traditional Chinese Noto faces), is HarfBuzz's buffer language (a font's locl forms), and a pdf's
// /Lang. Checked on the layout's glyph runs, on pixels, by pdffonts and qpdf, over interface A, and
// against Chromium drawing the same text with the same font files and lang attributes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { render, type RenderOptions } from '../src/engine.js';
import { buildServer, listen } from '../src/http/server.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { TaskWorker } from '../src/worker/worker.js';
import type { DisplayItem } from '../src/scene/display-list.js';
import { canonicalLang } from '../src/format/lang.js';
import { hanFamilyFor } from '../src/text/fallback.js';
import { fallbackFace, openFontFile } from '../src/text/faces.js';
import { bundledFonts, FontSet } from '../src/text/fonts.js';
import { loadShaper, openTypeLanguage } from '../src/text/harfbuzz.js';
import { shapeParagraphs } from '../src/text/shape.js';
import { chromiumJson, chromiumScreenshot } from './support/chromium.js';
import { expectRefused } from './support/refusal.js';
import { designWith, layoutOf, objectGroup } from './support/scene.js';
import { run, toolsAvailable } from './support/tools.js';
import { waitFor } from './support/wait.js';

const dir = mkdtempSync(join(tmpdir(), 'imprint-lang-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => loadShaper());

/** Five characters whose forms differ between Japanese, Traditional and Simplified Chinese (写 is not in Noto Sans TC). */
const SAMPLE = '骨直角誤写';
const LANGS = ['ja', 'zh-Hant', 'zh-Hans'] as const;
// The optional CJK packages: without them there is nothing to choose between.
const cjk = ['SC', 'TC', 'JP', 'KR'].every((s) => fallbackFace(`Noto Sans ${s}`, 400) !== null);

type Glyphs = Extract<DisplayItem, { kind: 'glyphs' }>;
const text = (fields: Record<string, unknown>, n = 0) => ({
  type: 'text',
  name: `t${n}`,
  x: 10,
  y: 10 + n * 110,
  width: 560,
  height: 100,
  font_size: 80,
  min_font_size: 80,
  text: SAMPLE,
  ...fields,
});
/** "face:text" of each glyph run of object n. */
const runsOf = (design: unknown, overrides: unknown = {}, n = 0): string[] =>
  objectGroup(layoutOf(design, overrides).displayList, n)
    .items.filter((i): i is Glyphs => i.kind === 'glyphs')
    .map((g) => `${g.face}:${g.text}`);

describe('which forms a language tag asks for', () => {
  it('matches tags by prefix and case-insensitively, as CSS :lang() does; a script subtag wins over the region', () => {
    const table: [string | undefined, string | null][] = [
      ['ja', 'Noto Sans JP'],
      ['ja-JP', 'Noto Sans JP'],
      ['JA-jp', 'Noto Sans JP'],
      ['ko', 'Noto Sans KR'],
      ['ko-KR', 'Noto Sans KR'],
      ['zh', 'Noto Sans SC'],
      ['zh-CN', 'Noto Sans SC'],
      ['zh-SG', 'Noto Sans SC'],
      ['zh-Hans', 'Noto Sans SC'],
      ['zh-Hans-HK', 'Noto Sans SC'],
      ['zh-Hant', 'Noto Sans TC'],
      ['zh-hant-hk', 'Noto Sans TC'],
      ['zh-TW', 'Noto Sans TC'],
      ['zh-HK', 'Noto Sans TC'],
      ['zh-MO', 'Noto Sans TC'],
      ['zh-Hant-CN', 'Noto Sans TC'],
      ['yue', 'Noto Sans TC'],
      ['yue-Hans', 'Noto Sans SC'],
      ['zh-Hanb', 'Noto Sans TC'],
      ['zh-Bopo', 'Noto Sans TC'],
      // Other Chinese languages follow their region; without one they say nothing.
      ['nan-TW', 'Noto Sans TC'],
      ['hak-CN', 'Noto Sans SC'],
      ['hak', null],
      // An extension's subtags are not a script or region: -u-rg-twzzzz does not make it Traditional.
      ['zh-u-rg-twzzzz', 'Noto Sans SC'],
      ['en', null],
      ['en-US', null],
      ['ar', null],
      ['und', null],
      [undefined, null],
    ];
    expect(table.map(([tag]) => [tag, hanFamilyFor(tag)])).toEqual(table);
  });
});

describe('tags in their extended-language form', () => {
  it('are accepted and canonicalised as RFC 5646 prefers: zh-yue is yue, zh-cmn-Hant is zh-Hant', () => {
    expect(canonicalLang('zh-yue')).toBe('yue');
    expect(canonicalLang('zh-yue-HK')).toBe('yue-HK');
    expect(canonicalLang('zh-cmn-Hant')).toBe('zh-Hant');
    expect(hanFamilyFor(canonicalLang('zh-yue-HK')!)).toBe('Noto Sans TC');
  });
});

describe('the language HarfBuzz is given', () => {
  it('is the language alone, and for Chinese its Hong Kong, Traditional or Simplified system: never extensions or private use', () => {
    const table: [string, string][] = [
      ['ja-JP-u-ca-japanese', 'ja'],
      ['en-x-aaaa0001', 'en'],
      ['sr-Latn-RS', 'sr'],
      ['zh', 'zh'],
      ['zh-CN', 'zh'],
      ['zh-Hans-HK', 'zh'],
      ['zh-TW', 'zh-TW'],
      ['zh-Hant', 'zh-TW'],
      ['zh-HK', 'zh-HK'],
      ['zh-Hant-MO', 'zh-HK'],
    ];
    expect(table.map(([tag]) => [tag, openTypeLanguage(tag)])).toEqual(table);
  });
});

describe.runIf(cjk)('fallback faces by lang', () => {
  it('writes a chart’s labels in the design’s language', () => {
    const chart = {
      type: 'chart',
      name: 'c',
      x: 0,
      y: 0,
      width: 600,
      height: 400,
      chart_type: 'column',
      title: '骨直角',
      chart_data: [
        [null, '骨', '直'],
        ['誤', 1, 2],
      ],
    };
    const faces = (lang?: string): string[] => {
      const out: string[] = [];
      const walk = (items: readonly DisplayItem[]): void => {
        for (const it of items) {
          if (it.kind === 'group') walk(it.items);
          else if (it.kind === 'glyphs' && /[骨直角誤]/u.test(it.text)) out.push(it.face);
        }
      };
      walk(layoutOf(designWith([chart], lang === undefined ? {} : { lang })).displayList.items);
      return [...new Set(out)].sort();
    };
    expect(faces('zh-Hant')).toEqual(['Noto Sans TC-400', 'Noto Sans TC-700']);
    expect(faces('ja')).toEqual(['Noto Sans JP-400', 'Noto Sans JP-700']);
    expect(faces()).toEqual(['Noto Sans SC-400', 'Noto Sans SC-700']);
  });

  it('keeps a katakana word whole in a Chinese text: the prolonged sound mark stays with the kana’s face', () => {
    expect(runsOf(designWith([text({ lang: 'zh-Hant', text: '咖啡コーヒー' })]))).toEqual(['Noto Sans TC-400:咖啡', 'Noto Sans JP-400:コーヒー']);
  });

  it('draws the same Han text with the Japanese, Traditional or Simplified face; 写, missing from TC, from SC', () => {
    expect(runsOf(designWith([text({ lang: 'ja' })]))).toEqual(['Noto Sans JP-400:骨直角誤写']);
    expect(runsOf(designWith([text({ lang: 'zh-Hant' })]))).toEqual(['Noto Sans TC-400:骨直角誤', 'Noto Sans SC-400:写']);
    expect(runsOf(designWith([text({ lang: 'zh-Hans' })]))).toEqual(['Noto Sans SC-400:骨直角誤写']);
    expect(runsOf(designWith([text({ lang: 'ko-KR' })]))).toEqual(['Noto Sans KR-400:骨直角誤写']);
    expect(runsOf(designWith([text({ lang: 'zh-HK' })]))).toEqual(['Noto Sans TC-400:骨直角誤', 'Noto Sans SC-400:写']);
    // No lang, or one that says nothing about Han: as before (Simplified, Japanese with kana).
    expect(runsOf(designWith([text({})]))).toEqual(['Noto Sans SC-400:骨直角誤写']);
    expect(runsOf(designWith([text({ lang: 'en' })]))).toEqual(['Noto Sans SC-400:骨直角誤写']);
    expect(runsOf(designWith([text({ text: 'の骨' })]))).toEqual(['Noto Sans JP-400:の骨']);
  });

  it('takes CJK punctuation into the language face even after a character that face lacks; kana and Hangul keep their own faces', () => {
    // 。 after 写 (drawn by SC) is still Traditional: centred in its square.
    expect(runsOf(designWith([text({ lang: 'zh-Hant', text: '写。骨，Ａ' })]))).toEqual(['Noto Sans SC-400:写', 'Noto Sans TC-400:。骨，Ａ']);
    expect(runsOf(designWith([text({ lang: 'zh-Hant', text: '骨のは한' })]))).toEqual(['Noto Sans TC-400:骨', 'Noto Sans JP-400:のは', 'Noto Sans KR-400:한']);
    // Latin stays in the object's font.
    expect(runsOf(designWith([text({ lang: 'ja', text: 'Tokyo 骨' })]))).toEqual(['Inter-400:Tokyo ', 'Noto Sans JP-400:骨']);
  });

  it("takes the design's lang by default; a text's own lang, an override and a substyle win over it", () => {
    const design = designWith([text({}, 0), text({ lang: 'zh-Hant' }, 1), text({ text: `骨<substyle lang="zh-Hans" color="#e53935">骨</substyle>骨` }, 2)], {
      lang: 'ja',
    });
    expect(runsOf(design, {}, 0)).toEqual(['Noto Sans JP-400:骨直角誤写']);
    expect(runsOf(design, {}, 1)).toEqual(['Noto Sans TC-400:骨直角誤', 'Noto Sans SC-400:写']);
    expect(runsOf(design, {}, 2)).toEqual(['Noto Sans JP-400:骨', 'Noto Sans SC-400:骨', 'Noto Sans JP-400:骨']);
    expect(runsOf(design, { t0: { lang: 'ko' } }, 0)).toEqual(['Noto Sans KR-400:骨直角誤写']);
    expect(runsOf(design, { t1: { lang: 'JA-jp' } }, 1)).toEqual(['Noto Sans JP-400:骨直角誤写']);
    // Nothing is reported missing.
    expect(layoutOf(design).report.map((r) => (r as { missing_characters: string[] }).missing_characters)).toEqual([[], [], []]);
  });

  it('renders different glyphs in the text box for ja, zh-Hant and zh-Hans; the same lang twice is identical', async () => {
    const objects = [...LANGS, 'ja'].map((lang, i) => text({ lang }, i));
    const design = designWith(objects, { width: 580, height: 450, background: { type: 'color', color: '#ffffff' } });
    const { data, info } = await sharp((await render({ design, format: 'png' })).bytes)
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const box = (n: number): Uint8Array => {
      const out = new Uint8Array(560 * 100);
      for (let y = 0; y < 100; y++) out.set(data.subarray((10 + n * 110 + y) * info.width + 10, (10 + n * 110 + y) * info.width + 570), y * 560);
      return out;
    };
    /** Share of the inked pixels of either box that differ by more than a quarter of the range. */
    const difference = (a: Uint8Array, b: Uint8Array): number => {
      let ink = 0;
      let off = 0;
      a.forEach((v, i) => {
        if (v < 128 || b[i]! < 128) ink++;
        if (Math.abs(v - b[i]!) > 64) off++;
      });
      return off / ink;
    };
    const [ja, hant, hans, jaAgain] = [0, 1, 2, 3].map(box) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    expect(difference(ja, jaAgain)).toBe(0);
    // Measured: 0.33 ja/zh-Hant, 0.37 ja/zh-Hans, 0.19 zh-Hant/zh-Hans (写 is the same SC glyph).
    expect(difference(ja, hant)).toBeGreaterThan(0.1);
    expect(difference(ja, hans)).toBeGreaterThan(0.1);
    expect(difference(hant, hans)).toBeGreaterThan(0.05);
  });
});

describe('HarfBuzz language', () => {
  // Noto Sans JP as a design's own font: its Japanese language system (locl) swaps “ ” for other
  // quote glyphs and makes — a full em wide next to ideographs, which HarfBuzz applies only when told
  // the text is Japanese.
  const jpFile = fallbackFace('Noto Sans JP', 400)?.file;
  const shaped = (fonts: FontSet, s: string, lang?: string): { ids: number[]; width: number } => {
    const [para] = shapeParagraphs([{ text: s, weight: 400, color: [0, 0, 0, 1], underline: false }], 'JP Design', fonts, 0, 'auto', lang);
    return { ids: para!.clusters.flatMap((c) => c.glyphs.map((g) => g.id)), width: para!.clusters.reduce((n, c) => n + c.advance, 0) };
  };

  it.runIf(jpFile !== undefined)('shapes with the language: a font applies its locl forms, and the cache keeps languages apart', () => {
    const fonts = new FontSet(bundledFonts(), [openFontFile(jpFile!, 'JP Design', 400)]);
    const plain = shaped(fonts, '“骨”「角」—誤');
    const japanese = shaped(fonts, '“骨”「角」—誤', 'ja');
    expect(japanese.ids[0]).not.toBe(plain.ids[0]);
    expect(japanese.ids[1]).toBe(plain.ids[1]);
    expect(japanese.width - plain.width).toBeCloseTo(1 - 0.894, 2);
    // Asked again in either language, each gives its own glyphs (the shaping caches key the language).
    expect(shaped(fonts, '“骨”「角」—誤')).toEqual(plain);
    expect(shaped(fonts, '“骨”「角」—誤', 'ja-JP')).toEqual(japanese);
    // Chinese does not select the font's Japanese forms.
    expect(shaped(fonts, '“骨”「角」—誤', 'zh-Hant')).toEqual(plain);
  });

  it.runIf(jpFile !== undefined && toolsAvailable(['chromium'], 'comparing shaping with Chromium needs it'))(
    'gives the widths Chromium gives the same font file with and without lang="ja"',
    () => {
      const fonts = new FontSet(bundledFonts(), [openFontFile(jpFile!, 'JP Design', 400)]);
      const samples = ['「角」—誤', '“骨”', '‘直’…'];
      const cases = samples.flatMap((s) => [undefined, 'ja', 'zh-Hant'].map((lang) => ({ s, lang })));
      const page = join(dir, 'locl.html');
      writeFileSync(
        page,
        `<!doctype html><meta charset="utf-8"><style>@font-face { font-family: "JP Design"; src: url("file://${jpFile!}"); }
span { font-family: "JP Design"; font-size: 100px; white-space: pre; font-synthesis: none; }</style>${cases
          .map((c) => `<span${c.lang ? ` lang="${c.lang}"` : ''}>${c.s}</span><br>`)
          .join(
            '',
          )}<pre id="out"></pre><script>document.fonts.ready.then(() => { document.getElementById('out').textContent = JSON.stringify([...document.querySelectorAll('span')].map((s) => s.getBoundingClientRect().width)); });</script>`,
      );
      const theirs = chromiumJson<number[]>(page);
      const ours = cases.map((c) => shaped(fonts, c.s, c.lang).width * 100);
      // Chromium rounds runs to 1/64 px.
      ours.forEach((w, i) => expect(Math.abs(w - theirs[i]!), `${JSON.stringify(cases[i])}: ours ${w}, Chromium ${theirs[i]}`).toBeLessThan(0.1));
      // The em dash is 10.6 px wider in Japanese, in both.
      expect(theirs[1]! - theirs[0]!).toBeGreaterThan(10);
      expect(ours[1]! - ours[0]!).toBeGreaterThan(10);
    },
    60_000,
  );
});

describe('bad language tags', () => {
  const base = (fields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => designWith([text(fields)], extra);
  const refused = (options: RenderOptions, path: string, message: string) => expectRefused(options, { path, message });

  it('are refused at their JSON path with what a tag looks like, and nothing is rendered', async () => {
    const hint = 'expected a BCP 47 language tag: a language code, optionally with a script and a region, such as "ja", "zh-Hant", "zh-TW", "ko" or "en-US"';
    await refused({ design: base({ lang: 'ja_JP' }), format: 'png' }, '$.objects[0].lang', `${hint} but received the string "ja_JP"`);
    await refused({ design: base({ lang: 'japanese' }), format: 'png' }, '$.objects[0].lang', hint);
    await refused({ design: base({ lang: 'zh-TW-Hant' }), format: 'png' }, '$.objects[0].lang', hint);
    await refused({ design: base({ lang: '' }), format: 'png' }, '$.objects[0].lang', hint);
    await refused({ design: base({ lang: `zh-${'Hant-'.repeat(15)}TW` }), format: 'png' }, '$.objects[0].lang', 'at most 64 characters');
    await refused({ design: base({}, { lang: 'zh_Hant' }), format: 'pdf' }, '$.lang', hint);
    await refused(
      { design: base({ text: '<substyle lang="zh_TW">骨</substyle>' }), format: 'png' },
      '$.objects[0].text',
      `substyle lang: ${hint}, received "zh_TW"`,
    );
    await refused({ design: base(), overrides: { t0: { lang: 'Traditional Chinese' } }, format: 'png' }, '$.objects_overrides.t0.lang', hint);
  });
});

describe.runIf(cjk && toolsAvailable(['pdffonts', 'qpdf'], 'checking pdf fonts and /Lang needs poppler and qpdf'))('pdf', () => {
  /** The document catalog's /Lang as qpdf reads it, or undefined. */
  const catalogLang = (file: string): string | undefined => {
    const json = JSON.parse(run('qpdf', ['--json=2', '--json-key=qpdf', file])) as { qpdf: [unknown, Record<string, { value?: Record<string, unknown> }>] };
    const objects = json.qpdf[1];
    const root = objects.trailer!.value!['/Root'] as string;
    const lang = objects[`obj:${root}`]!.value!['/Lang'];
    return typeof lang === 'string' ? lang.replace(/^u:/, '') : undefined;
  };
  const pdf = async (name: string, options: Omit<RenderOptions, 'format'>): Promise<string> => {
    const file = join(dir, `${name}.pdf`);
    writeFileSync(file, (await render({ ...options, format: 'pdf' })).bytes);
    return file;
  };

  it("embeds Noto Sans TC for zh-Hant and Noto Sans JP for ja, and declares the design's lang as /Lang", async () => {
    const design = designWith([text({ lang: 'zh-Hant', text: '骨直角誤' }, 0), text({ text: '骨直角誤' }, 1)], { lang: 'ja' });
    const file = await pdf('lang', { design });
    const fonts = run('pdffonts', [file]);
    expect(fonts).toMatch(/NotoSansTC/);
    expect(fonts).toMatch(/NotoSansJP/);
    expect(fonts).not.toMatch(/NotoSansSC/);
    expect(catalogLang(file)).toBe('ja');
    // Canonical form; none without a design lang.
    expect(catalogLang(await pdf('lang-canonical', { design: designWith([text({})], { lang: 'zh-hant-tw' }) }))).toBe('zh-Hant-TW');
    expect(catalogLang(await pdf('lang-none', { design: designWith([text({ lang: 'ja' })]) }))).toBeUndefined();
  });
});

// Interface A over real HTTP: an override's lang changes the
// face of the rendered pdf; a bad one is a 400 at its path and queues nothing.
describe.runIf(cjk && toolsAvailable(['pdffonts'], 'reading the rendered pdf fonts needs poppler'))('interface A', () => {
  let data: string;
  let service: Service;
  let app: Awaited<ReturnType<typeof buildServer>>;
  let worker: TaskWorker;
  let base: string;
  let key: string;
  let design: number;

  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), 'imprint-lang-http-'));
    const config = configFromEnv({ IMPRINT_DATA_DIR: data, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1', IMPRINT_POLL_INTERVAL_S: '0' });
    service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50 });
    app = await buildServer(service);
    base = `${await listen(app, service)}/public/v2`;
    worker = new TaskWorker(service.ctx, { slots: 1 });
    worker.start();
    const account = await service.createAccount({ name: 'Lang' });
    // The test follows its tasks closely (a CJK pdf's first render takes seconds on a loaded machine):
    // a plan with room for that, so the status polling never meets the rate limit meant for clients.
    await service.setPlan(account.account.id, { requests_per_minute: 100_000 });
    key = account.apiKey;
    design = (await service.importDesign(account.account.id, designWith([text({ name: 'title', text: '骨直角誤' })], { lang: 'ja' }))).id;
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await worker.stop(0);
    await service.close();
    rmSync(data, { recursive: true, force: true });
  });

  const post = (body: unknown) =>
    fetch(`${base}/render`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  /** pdffonts of the pdf rendered for `overrides`. */
  const fontsOf = async (overrides: unknown, name: string): Promise<string> => {
    const res = await post({ design_id: design, format: 'pdf', objects_overrides: overrides });
    expect(res.status).toBe(202);
    const { task_id } = (await res.json()) as { task_id: number };
    const done = await waitFor(`task ${task_id} to finish`, async () => {
      const task = (await (await fetch(`${base}/tasks/${task_id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
        state: string;
        result_url?: string;
      };
      return task.state === 'done' || task.state === 'error' ? task : undefined;
    });
    expect(done.state).toBe('done');
    const file = join(dir, `${name}.pdf`);
    writeFileSync(file, Buffer.from(await (await fetch(done.result_url!)).arrayBuffer()));
    return run('pdffonts', [file]);
  };

  it("renders the design's Japanese forms, and Traditional Chinese ones when an override says zh-Hant", async () => {
    const japanese = await fontsOf({}, 'http-ja');
    expect(japanese).toMatch(/NotoSansJP/);
    expect(japanese).not.toMatch(/NotoSansTC/);
    const traditional = await fontsOf({ title: { lang: 'zh-Hant' } }, 'http-zh-hant');
    expect(traditional).toMatch(/NotoSansTC/);
    expect(traditional).not.toMatch(/NotoSansJP/);
  }, 60_000);

  it('answers a bad tag with 400 validation_error at its path and creates no task', async () => {
    const created = service.ctx.metrics.get('imprint_tasks_created_total', { format: 'pdf' });
    const res = await post({ design_id: design, format: 'pdf', objects_overrides: { title: { lang: 'zh_TW' } } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; description: string };
    expect(body.error).toBe('validation_error');
    expect(body.description).toMatch(/^\$\.objects_overrides\.title\.lang: expected a BCP 47 language tag/);
    expect(service.ctx.metrics.get('imprint_tasks_created_total', { format: 'pdf' })).toBe(created);
  });
});

// Chromium draws each text with the same font files, the lang attribute on the element and, per
// language, the same fallback order as a CSS font-family list under :lang(); each of Imprint's three
// renders must match Chromium's render of its own language and differ from the other two.
describe.runIf(cjk && toolsAvailable(['chromium'], 'comparing CJK forms with Chromium needs it'))('forms against Chromium', () => {
  const [W, H, SIZE] = [540, 120, 96];
  const CHAINS: Record<(typeof LANGS)[number], string[]> = {
    ja: ['JP', 'SC', 'TC', 'KR'],
    'zh-Hant': ['TC', 'SC', 'JP', 'KR'],
    'zh-Hans': ['SC', 'TC', 'JP', 'KR'],
  };
  interface Gray {
    data: Buffer;
    width: number;
    height: number;
  }
  const gray = async (png: Buffer | string): Promise<Gray> => {
    const { data, info } = await sharp(png).removeAlpha().greyscale().raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  };
  /**
   * Share of the inked pixels that differ by more than 96 levels, at the best offset of up to 3 px
   * (Chromium rounds the baseline and the glyph origins to whole pixels; Imprint keeps fractions).
   */
  const difference = (a: Gray, b: Gray): number => {
    let best = 1;
    for (let dy = -3; dy <= 3; dy++) {
      for (let dx = -3; dx <= 3; dx++) {
        let [off, ink] = [0, 0];
        for (let y = 0; y < a.height; y++) {
          for (let x = 0; x < a.width; x++) {
            const [xx, yy] = [x + dx, y + dy];
            const pa = a.data[y * a.width + x]!;
            const pb = xx >= 0 && xx < b.width && yy >= 0 && yy < b.height ? b.data[yy * b.width + xx]! : 255;
            if (pa < 128 || pb < 128) ink++;
            if (Math.abs(pa - pb) > 96) off++;
          }
        }
        best = Math.min(best, off / ink);
      }
    }
    return best;
  };

  it('draws 骨直角誤写 in ja, zh-Hant and zh-Hans with the glyph shapes Chromium draws for each lang', async () => {
    const faces = ['SC', 'TC', 'JP', 'KR'].map((s) => fallbackFace(`Noto Sans ${s}`, 400)!);
    const css = [
      `@font-face { font-family: "Inter-test"; src: url("file://${bundledFonts().face('Inter', 400).file}"); }`,
      ...faces.map((f) => `@font-face { font-family: "${f.family}-test"; src: url("file://${f.file}"); }`),
      ...LANGS.map((l) => `:lang(${l}) { font-family: "Inter-test", ${CHAINS[l].map((s) => `"Noto Sans ${s}-test"`).join(', ')}; }`),
    ].join('\n');
    const ours = new Map<string, Gray>();
    const theirs = new Map<string, Gray>();
    for (const lang of LANGS) {
      const design = designWith([text({ lang, x: 20, y: 10, width: W - 40, height: H - 20, font_size: SIZE, min_font_size: SIZE, line_height: 1 })], {
        width: W,
        height: H,
        background: { type: 'color', color: '#ffffff' },
      });
      ours.set(lang, await gray((await render({ design, format: 'png' })).bytes));
      const page = join(dir, `forms-${lang}.html`);
      writeFileSync(
        page,
        `<!doctype html><meta charset="utf-8"><style>${css}</style><body style="margin:0;background:#ffffff"><div lang="${lang}" style="position:absolute;left:20px;top:10px;font-size:${SIZE}px;line-height:1;font-synthesis:none">${SAMPLE}</div></body>`,
      );
      const shot = join(dir, `forms-${lang}.png`);
      chromiumScreenshot(page, shot, W, H);
      theirs.set(lang, await gray(shot));
    }
    const matrix = LANGS.map((a) => LANGS.map((b) => difference(ours.get(a)!, theirs.get(b)!)));
    const shown = LANGS.map((a, i) => `${a}: ${matrix[i]!.map((d) => d.toFixed(3)).join(' ')}`).join('; ');
    // Measured: 1.4–2.0 % of the inked pixels on the diagonal (anti-aliasing of stroke edges), 17–35 %
    // off it (strokes that only one of the forms has).
    LANGS.forEach((_, i) => {
      expect(matrix[i]![i], shown).toBeLessThan(0.04);
      LANGS.forEach((__, j) => {
        if (i !== j) expect(matrix[i]![j], shown).toBeGreaterThan(3 * matrix[i]![i]!);
      });
    });
  }, 120_000);
});
