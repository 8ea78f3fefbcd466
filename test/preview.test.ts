// POST /public/v2/preview over real HTTP on an ephemeral port: the image answer and the JSON answer,
// an uploaded image in an override, the 1600 px clamp, a still of an animated design at a time, no
// task stored, the account guard (401, 403, the plan's rate with 429), bad input with its JSON path,
// and the OpenAPI entry.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefersJson } from '../src/http/preview.js';
import { PreviewRequest } from '../src/http/schemas.js';
import { buildServer, listen } from '../src/http/server.js';
import { configFromEnv } from '../src/service/config.js';
import { previewScale } from '../src/service/preview.js';
import { Service } from '../src/service/service.js';

const EXAMPLES = join(import.meta.dirname, '..', 'examples');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);

let dir: string;
let service: Service;
let app: FastifyInstance;
let base: string;
let key: string;
let accountId: number;
/** Design ids by example folder. */
const ids: Record<string, number> = {};

interface PreviewJson {
  image: string;
  width: number;
  height: number;
  scale: number;
  report: { name: string | null; font_size: number; shrunk: boolean; clipped: boolean; missing_characters: string[] }[];
  warnings: { code: string; object: string | null; characters: string[] }[];
}

const auth = (k = key) => ({ authorization: `Bearer ${k}` });
const preview = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/preview`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const previewJson = async (body: unknown) => {
  const r = await preview(body, { accept: 'application/json' });
  expect(r.status, JSON.stringify(body)).toBe(200);
  return (await r.json()) as PreviewJson;
};
const bytesOf = async (r: Response) => Buffer.from(await r.arrayBuffer());
const errorOf = async (r: Response) => (await r.json()) as { error: string; description: string };
const dataUrlBytes = (url: string) => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');

/** RGB of one pixel of an encoded image. */
async function pixel(bytes: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 3;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

async function importExample(name: string, account = accountId): Promise<number> {
  const folder = join(EXAMPLES, name);
  const template = JSON.parse(await readFile(join(folder, 'design.json'), 'utf8')) as unknown;
  return (await service.importDesign(account, template, { baseDir: folder, name })).id;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'imprint-preview-'));
  const config = configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1' });
  service = await Service.open(config, { log: pino({ level: 'silent' }) });
  app = await buildServer(service);
  base = `${await listen(app, service)}/public/v2`;
  const created = await service.createAccount({ name: 'Preview Co' });
  key = created.apiKey;
  accountId = created.account.id;
  await service.setPlan(accountId, { requests_per_minute: 100_000 });
  for (const name of ['card-1080', 'story-1080x1920', 'promo-15s', 'slides-video']) ids[name] = await importExample(name);
}, 60_000);

afterAll(async () => {
  await app.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('POST /public/v2/preview', () => {
  it('answers a png at the design size × scale, with the scale and the server time in headers', async () => {
    const r = await preview({ design_id: ids['card-1080'], scale: 0.5 });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('x-imprint-scale')).toBe('0.5');
    expect(r.headers.get('server-timing')).toMatch(/^render;dur=\d+(\.\d)?$/);
    const bytes = await bytesOf(r);
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 540, height: 540 });
  });

  it('answers a jpg when asked, with its quality', async () => {
    const lo = await preview({ design_id: ids['card-1080'], format: 'jpg', quality: 20, scale: 0.25 });
    const hi = await preview({ design_id: ids['card-1080'], format: 'jpg', quality: 95, scale: 0.25 });
    expect([lo.status, hi.status]).toEqual([200, 200]);
    expect(lo.headers.get('content-type')).toBe('image/jpeg');
    const [a, b] = [await bytesOf(lo), await bytesOf(hi)];
    expect(a.subarray(0, 3).equals(JPG_SIGNATURE)).toBe(true);
    expect(await sharp(a).metadata()).toMatchObject({ format: 'jpeg', width: 270, height: 270 });
    expect(a.length).toBeLessThan(b.length);
  });

  it('answers JSON when Accept prefers it: the image as a data URL, its size, scale, fit report and warnings', async () => {
    const body = await previewJson({ design_id: ids['card-1080'], scale: 0.5 });
    expect(body).toMatchObject({ width: 540, height: 540, scale: 0.5, warnings: [] });
    expect(body.image).toMatch(/^data:image\/png;base64,/);
    expect(await sharp(dataUrlBytes(body.image)).metadata()).toMatchObject({ format: 'png', width: 540, height: 540 });
    const headline = body.report.find((e) => e.name === 'headline')!;
    // The fit report is in design pixels, whatever the scale.
    expect(headline).toMatchObject({ shrunk: false, clipped: false });
    const template = JSON.parse(await readFile(join(EXAMPLES, 'card-1080', 'design.json'), 'utf8')) as { objects: { name?: string; font_size?: number }[] };
    expect(headline.font_size).toBe(template.objects.find((o) => o.name === 'headline')!.font_size);

    const long = await previewJson({
      design_id: ids['card-1080'],
      scale: 0.5,
      objects_overrides: { headline: { text: 'A much longer headline that cannot fit at the template size in two lines of this box, so it shrinks' } },
    });
    const shrunk = long.report.find((e) => e.name === 'headline')!;
    expect(shrunk.shrunk).toBe(true);
    expect(shrunk.font_size).toBeLessThan(headline.font_size);
    // A jpg in JSON is a jpeg data URL; characters no font has come back as warnings.
    const jpg = await preview(
      { design_id: ids['card-1080'], format: 'jpg', scale: 0.25, objects_overrides: { headline: { text: 'Hello \u{10FFFD}' } } },
      { accept: 'image/*;q=0.5, application/json' },
    );
    const jpgBody = (await jpg.json()) as PreviewJson;
    expect(jpgBody.image).toMatch(/^data:image\/jpeg;base64,/);
    expect(jpgBody.warnings).toEqual([expect.objectContaining({ code: 'missing_characters', object: 'headline', characters: ['\u{10FFFD}'] })]);
  });

  it('uses an image uploaded by the account in an override', async () => {
    const red = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#e01010' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(red)]), 'red.png');
    const up = (await (await fetch(`${base}/upload`, { method: 'POST', headers: auth(), body: form })).json()) as { url: string };
    const before = await bytesOf(await preview({ design_id: ids['card-1080'], scale: 0.5 }));
    const r = await preview({ design_id: ids['card-1080'], scale: 0.5, objects_overrides: { photo: { path: up.url } } });
    expect(r.status).toBe(200);
    const after = await bytesOf(r);
    // The photo fills the top 640 design pixels (320 in the preview).
    expect(await pixel(after, 100, 100)).toEqual([0xe0, 0x10, 0x10]);
    expect(await pixel(before, 100, 100)).not.toEqual([0xe0, 0x10, 0x10]);
    // Interface B's list form (an addition) replaces a video design's slide background: "city" runs from 6 s to 9 s.
    const slide = await preview({ design_id: ids['slides-video'], scale: 0.25, time: 7.5, objects_overrides: [{ name: 'city', slide: { path: up.url } }] });
    expect(slide.status).toBe(200);
    const slideBytes = await bytesOf(slide);
    expect(await sharp(slideBytes).metadata()).toMatchObject({ width: 480, height: 270 });
    // Red under the slide's dark scrim.
    const [r0, g0, b0] = await pixel(slideBytes, 2, 2);
    expect(r0).toBeGreaterThan(3 * Math.max(g0!, b0!));
    const noSlide = await preview({ design_id: ids['slides-video'], objects_overrides: [{ name: 'nope', slide: { path: up.url } }] });
    expect(noSlide.status).toBe(400);
    expect((await errorOf(noSlide)).description).toMatch(/^\$\.objects_overrides\[0\]\.name: the design has no slide named "nope"/);
    // Another account's or a made-up upload URL is refused at its path.
    const made = await preview({ design_id: ids['card-1080'], objects_overrides: { photo: { path: `${base}/uploads/${'0'.repeat(32)}.png` } } });
    expect(made.status).toBe(400);
    expect((await errorOf(made)).description).toMatch(/^\$\.objects_overrides\.photo\.path: this is not an image uploaded by this account/);
  });

  it('keeps the long side within 1600 px and says the scale it used', async () => {
    const r = await preview({ design_id: ids['story-1080x1920'] });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-imprint-scale')).toBe('0.833333');
    expect(await sharp(await bytesOf(r)).metadata()).toMatchObject({ width: 900, height: 1600 });
    const json = await previewJson({ design_id: ids['story-1080x1920'], scale: 0.9 });
    expect(json).toMatchObject({ width: 900, height: 1600, scale: 0.833333 });
    // Within the limit the scale asked for is kept.
    expect((await previewJson({ design_id: ids['story-1080x1920'], scale: 0.5 })).scale).toBe(0.5);
    expect(previewScale(1080, 1080, 1)).toBe(1);
    expect(previewScale(4000, 100, 1)).toBe(0.4);
  });

  it('shows an animated design at the time asked, and refuses a time past its end', async () => {
    const promo = ids['promo-15s'];
    const start = await preview({ design_id: promo, scale: 0.25, time: 0 });
    const later = await preview({ design_id: promo, scale: 0.25, time: 6 });
    expect([start.status, later.status]).toEqual([200, 200]);
    const [a, b] = [await bytesOf(start), await bytesOf(later)];
    expect(await sharp(a).metadata()).toMatchObject({ width: 270, height: 270 });
    expect(a.equals(b)).toBe(false);
    const again = await bytesOf(await preview({ design_id: promo, scale: 0.25, time: 6 }));
    expect(again.equals(b)).toBe(true);
    const past = await preview({ design_id: promo, time: 16 });
    expect(past.status).toBe(400);
    expect((await errorOf(past)).description).toMatch(/^\$\.time: the design lasts 15 s/);
  });

  it('names a text that is not on screen at the time shown, with the reason, instead of leaving it out of the fit report', async () => {
    const text = { type: 'text', width: 300, height: 60, font_size: 32, color: '#ffffff' };
    const design = (
      await service.importDesign(accountId, {
        width: 320,
        height: 240,
        duration: 3,
        background: { type: 'color', color: '#203040' },
        objects: [
          { ...text, name: 'headline', x: 10, y: 10, text: 'Big news', start: 0.4 },
          { ...text, name: 'footer', x: 10, y: 160, text: 'Until 2 s', end: 2 },
          { ...text, name: 'secret', x: 10, y: 90, text: 'Not shown', hidden: true },
        ],
      })
    ).id;
    const at = async (time: number, overrides = {}) =>
      (await previewJson({ design_id: design, time, objects_overrides: overrides })).report as (PreviewJson['report'][number] & Record<string, unknown>)[];
    const first = await at(0);
    expect(first.find((e) => e.name === 'headline')).toMatchObject({
      hidden: true,
      hidden_reason: 'headline is hidden at 0 s (it appears at 0.4 s)',
      appears_at: 0.4,
      font_size: 32,
      line_count: 0,
    });
    expect(first.find((e) => e.name === 'secret')).toMatchObject({
      hidden: true,
      hidden_reason: expect.stringMatching(/^secret is hidden: its "hidden" is true/),
    });
    expect(first.find((e) => e.name === 'footer')).not.toHaveProperty('hidden');
    const later = await at(2.5);
    expect(later.find((e) => e.name === 'headline')).toMatchObject({ line_count: 1 });
    expect(later.find((e) => e.name === 'headline')).not.toHaveProperty('hidden');
    expect(later.find((e) => e.name === 'footer')).toMatchObject({
      hidden: true,
      hidden_reason: 'footer is hidden at 2.5 s (it is on screen from 0 s to 2 s)',
    });
    expect(later.find((e) => e.name === 'footer')).not.toHaveProperty('appears_at');
    // An override that shows it: laid out like any other text.
    expect((await at(0, { secret: { hidden: false } })).find((e) => e.name === 'secret')).toMatchObject({ line_count: 1 });
  });

  it('stores no task', async () => {
    const before = (await service.ctx.meta.listTasks(accountId)).length;
    expect((await preview({ design_id: ids['card-1080'], scale: 0.25 })).status).toBe(200);
    expect((await service.ctx.meta.listTasks(accountId)).length).toBe(before);
  });

  it('refuses bad input with a 400 validation_error that names the JSON path', async () => {
    const card = ids['card-1080'];
    const cases: [unknown, RegExp][] = [
      [
        { design_id: card, objects_overrides: { nope: { text: 'x' } } },
        /^\$\.objects_overrides\.nope: the design has no object named "nope": use one of "photo"/,
      ],
      [{ design_id: card, objects_overrides: { headline: { text: 1 } } }, /^\$\.objects_overrides\.headline\.text: /],
      [{ design_id: card, scale: 0 }, /^\$\.scale: expected a scale more than 0 and at most 1 .* but received the number 0$/],
      [{ design_id: card, scale: 2 }, /^\$\.scale: expected a scale more than 0 and at most 1 .* but received the number 2$/],
      [{ design_id: card, scale: 'x' }, /^\$\.scale: expected a scale more than 0 and at most 1 .* but received the string "x"$/],
      [
        { design_id: card, format: 'pdf' },
        /^\$\.format: expected "png" or "jpg" \(a preview is an image: render pdf, mp4, webp or avif with POST \/public\/v2\/render\)/,
      ],
      [{ design_id: card, quality: 50 }, /^\$\.quality: quality applies to jpg only: remove it for png$/],
      [
        { design_id: card, size: 'hd' },
        /^\$\.size: unknown field "size" .*design_id, design_version, format, quality, objects_overrides, design, assets, scale, time$/,
      ],
      [{ scale: 0.5 }, /^\$\.design_id: /],
      [{ design_id: card, time: -1 }, /^\$\.time: /],
      [{ design_id: card, objects_overrides: 'headline' }, /^\$\.objects_overrides: expected an object \{ "<object name>": \{…\} \}, or interface B's list/],
    ];
    for (const [body, description] of cases) {
      const r = await preview(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      const e = await errorOf(r);
      expect(e.error).toBe('validation_error');
      expect(e.description, JSON.stringify(body)).toMatch(description);
    }
  });

  it('answers 404 design_not_found for an unknown design or another account’s', async () => {
    const other = await service.createAccount({ name: 'Other Co' });
    const theirs = await importExample('card-1080', other.account.id);
    for (const design_id of [999_999, theirs]) {
      const r = await preview({ design_id });
      expect(r.status).toBe(404);
      expect((await errorOf(r)).error).toBe('design_not_found');
    }
  });

  it('takes a JSON body only', async () => {
    const bad = await fetch(`${base}/preview`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: '{"design_id": 1,' });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toEqual({ error: 'validation_error', description: expect.stringMatching(/^\$: the body is not valid JSON/) });
    const text = await fetch(`${base}/preview`, { method: 'POST', headers: { ...auth(), 'content-type': 'text/plain' }, body: 'design 1' });
    expect(text.status).toBe(415);
    expect((await errorOf(text)).error).toBe('unsupported_media_type');
    const form = new FormData();
    form.append('design_id', '1');
    const multipart = await fetch(`${base}/preview`, { method: 'POST', headers: auth(), body: form });
    expect(multipart.status).toBe(415);
  });

  it('answers 401 without a known key and 403 for a member key', async () => {
    const body = JSON.stringify({ design_id: ids['card-1080'] });
    const none = await fetch(`${base}/preview`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(none.status).toBe(401);
    expect((await errorOf(none)).error).toBe('unauthorized');
    const unknown = await preview({ design_id: ids['card-1080'] }, auth('imp_not_a_key'));
    expect(unknown.status).toBe(401);
    const { apiKey: member } = await service.createKey(accountId, 'member');
    const forbidden = await preview({ design_id: ids['card-1080'] }, auth(member));
    expect(forbidden.status).toBe(403);
    expect((await errorOf(forbidden)).error).toBe('forbidden');
  });

  it("counts against the plan's requests per minute, then answers 429", async () => {
    const limited = await service.createAccount({ name: 'Limited Co' });
    await service.setPlan(limited.account.id, { requests_per_minute: 3 });
    const tiny = await service.importDesign(limited.account.id, {
      schema: 'imprint/design@1',
      width: 64,
      height: 64,
      background: { type: 'color', color: '#204060' },
      objects: [],
    });
    const remaining: (string | null)[] = [];
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await preview({ design_id: tiny.id }, auth(limited.apiKey));
      statuses.push(last.status);
      remaining.push(last.headers.get('x-ratelimit-remaining'));
      if (last.status === 200) await last.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(remaining).toEqual(['2', '1', '0', '0']);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await errorOf(last!)).toEqual({ error: 'rate_limited', description: expect.stringMatching(/3 requests per minute/) });
  });

  it('is listed in the OpenAPI document with its request schema and both answers', async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, { post?: { requestBody: unknown; responses: Record<string, { content?: Record<string, unknown> }> } }>;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; additionalProperties?: unknown }> };
    };
    const post = doc.paths['/public/v2/preview']?.post;
    expect(post).toBeDefined();
    expect(Object.keys(post!.responses[200]!.content!).sort()).toEqual(['application/json', 'image/jpeg', 'image/png']);
    expect(Object.keys(post!.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404', '429']));
    expect(Object.keys(doc.components.schemas.PreviewRequest!.properties!).sort()).toEqual(Object.keys(PreviewRequest.shape).sort());
    expect(doc.components.schemas.PreviewRequest!.additionalProperties).toBe(false);
    expect(Object.keys(doc.components.schemas.PreviewResult!.properties!).sort()).toEqual(['height', 'image', 'report', 'scale', 'warnings', 'width']);
  });
});

describe('content negotiation of the preview', () => {
  it.each([
    [undefined, false],
    ['*/*', false],
    ['image/png', false],
    ['application/json', true],
    ['application/json, image/png', true],
    ['image/png, application/json', false],
    ['image/png;q=0.5, application/json', true],
    ['application/json;q=0.2, */*', false],
    ['application/json, */*', true],
    ['application/*', true],
    ['text/html, application/json;q=0', false],
  ])('Accept: %s → JSON %s', (accept, json) => {
    expect(prefersJson(accept, 'image/png')).toBe(json);
  });
});
