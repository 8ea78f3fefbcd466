// The designs over HTTP (additions of issue 17) on a real server: the listing, the detail of the
// examples (named objects, boxes, override schemas, values, slides, interface B's prices), import and
// replace from a zip (rendered afterwards through A1), every refusal of a zip with its JSON path, the
// limits (entries, a zip bomb, the zip's size), delete, other accounts, and the guard on every route.
// The zip example of docs/api.md runs in test/api-docs.test.ts, against a server fresh from `npm start`.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Deflate, zipSync } from 'fflate';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overridesJsonSchema } from '../src/design/json-schema.js';
import { buildServer, listen } from '../src/http/server.js';
import { AccountInfo, DesignDetail, DesignList, DesignVersionList } from '../src/http/schemas.js';
import { configFromEnv } from '../src/service/config.js';
import { MAX_DESIGN_ZIP_BYTES, readDesignZip } from '../src/service/design-zip.js';
import { Service } from '../src/service/service.js';
import { TaskWorker } from '../src/worker/worker.js';
import { waitFor } from './support/wait.js';

const CARD = 'examples/card-1080';
const SLIDES = 'examples/slides-video';
let dir: string;
let service: Service;
let app: FastifyInstance;
let small: FastifyInstance;
let worker: TaskWorker;
let base: string;
let smallBase: string;
let key: string;
let other: string;
let member: string;
let accountId: number;
let card: number;
let video: number;

/** A design folder's files, for a zip. */
const folder = (path: string): Record<string, Uint8Array> =>
  Object.fromEntries(readdirSync(path).map((f) => [f, new Uint8Array(readFileSync(join(path, f)))] as const));
const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const cardTemplate = () => JSON.parse(readFileSync(join(CARD, 'design.json'), 'utf8')) as { objects: Record<string, unknown>[] };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'imprint-designs-'));
  const config = configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1', IMPRINT_POLL_INTERVAL_S: '0' });
  service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50 });
  app = await buildServer(service);
  base = (await listen(app, service)) + '/public/v2';
  // The same service behind a server whose zips may hold little: a zip bomb is refused without unpacking 500 MB.
  small = await buildServer(service, { designZipLimits: { maxBytes: 1024 * 1024, maxEntries: 20 } });
  await small.listen({ port: 0, host: '127.0.0.1' });
  smallBase = `http://127.0.0.1:${(small.server.address() as { port: number }).port}/public/v2`;
  worker = new TaskWorker(service.ctx, { slots: 1 });
  worker.start();
  const created = await service.createAccount({ name: 'Acme', balance: 10 });
  key = created.apiKey;
  accountId = created.account.id;
  await service.setPlan(accountId, { requests_per_minute: 100_000 });
  member = (await service.createKey(accountId, 'member')).apiKey;
  const second = await service.createAccount({ name: 'Other' });
  other = second.apiKey;
  await service.setPlan(second.account.id, { requests_per_minute: 100_000 });
  card = (await service.importDesign(accountId, JSON.parse(readFileSync(join(CARD, 'design.json'), 'utf8')), { baseDir: CARD, name: 'card-1080' })).id;
  video = (await service.importDesign(accountId, JSON.parse(readFileSync(join(SLIDES, 'design.json'), 'utf8')), { baseDir: SLIDES, name: 'slides' })).id;
}, 60_000);

afterAll(async () => {
  await small.close();
  await app.close();
  await worker.stop(0);
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const auth = (k = key) => ({ authorization: `Bearer ${k}` });
const get = (path: string, k = key) => fetch(base + path, { headers: auth(k) });
async function send(method: 'POST' | 'PUT', path: string, zip: Uint8Array, fields: Record<string, string> = {}, k = key, at = base) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(zip)]), 'design.zip');
  return fetch(at + path, { method, headers: auth(k), body: form });
}
const errorOf = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: string; description: string }) });

describe('GET /public/v2/designs', () => {
  it('lists the designs newest first with size, kind, length and times', async () => {
    const res = await get('/designs');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
    const body = DesignList.parse(await res.json());
    const ids = body.designs.map((d) => d.design_id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(body.designs.find((d) => d.design_id === card)).toEqual({
      design_id: card,
      name: 'card-1080',
      kind: 'design',
      width: 1080,
      height: 1080,
      duration: null,
      animated: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      latest_version: 1,
      has_draft: false,
    });
    // slides-video: 3 s + 3.5 s + 4 s + 3.5 s, three 0.6 s crossfades (the file says so), 1920×1080.
    const v = body.designs.find((d) => d.design_id === video)!;
    const slides = (JSON.parse(readFileSync(join(SLIDES, 'design.json'), 'utf8')) as { slides: { duration: number; transition?: { duration?: number } }[] })
      .slides;
    const length = slides.reduce((sum, s, i) => sum + s.duration - (i < slides.length - 1 ? (s.transition?.duration ?? 0) : 0), 0);
    expect(v).toMatchObject({ kind: 'video', width: 1920, height: 1080, animated: true });
    expect(v.duration).toBeCloseTo(length, 9);
  });

  it("lists only the key's own account", async () => {
    const body = DesignList.parse(await (await get('/designs', other)).json());
    expect(body.designs).toEqual([]);
  });
});

describe('GET /public/v2/designs/<id>', () => {
  it('describes card-1080: every named object with its box, the override schema the API validates with, and its values', async () => {
    const res = await get(`/designs/${card}`);
    expect(res.status).toBe(200);
    const d = DesignDetail.parse(await res.json());
    const template = cardTemplate();
    expect(d).toMatchObject({ design_id: card, kind: 'design', width: 1080, height: 1080, background: '#f6f1ea', slides: [], prices: null, poster_time: null });
    expect(d.objects.map((o) => o.name)).toEqual(template.objects.map((o) => o.name));
    const defs = (overridesJsonSchema() as { $defs: Record<string, unknown> }).$defs;
    for (const o of d.objects) {
      const t = template.objects.find((x) => x.name === o.name)!;
      expect(o.box, o.name).toEqual({ x: t.x, y: t.y, width: t.width, height: t.height });
      expect(o.type).toBe(t.type);
      expect(o.slide).toBeNull();
      expect(o.rotation).toBe(0);
      // The published schema of the type: the one objects_overrides entries are validated with.
      expect(o.override_schema, o.name).toEqual(defs[o.type]);
    }
    const headline = d.objects.find((o) => o.name === 'headline')!;
    expect((headline.override_schema as { properties: Record<string, { type: string }> }).properties.text).toMatchObject({ type: 'string' });
    expect(headline.values).toEqual({
      x: 72,
      y: 732,
      width: 740,
      height: 150,
      text: 'Chase the golden hour\nacross the fjords',
      font_family: 'Lora',
      config: { text_replacement_strategy: 'fit', text_replacement_strategy_fit_valign: 'top' },
    });
    // Fields the override cannot set (font_size, color) are not values; nested ones keep the override's shape.
    expect(d.objects.find((o) => o.name === 'badge')!.values).toEqual({
      x: 836,
      y: 534,
      width: 196,
      height: 196,
      background: { type: 'color', color: '#e4572e' },
      border: { width: 8, color: '#f6f1ea' },
    });
    expect(d.objects.find((o) => o.name === 'photo')!.values).toMatchObject({ path: 'lake-sunset.jpg', config: { media_replacement_strategy: 'cover' } });
  });

  it('values are a valid override: rendering the headline with them changes nothing but is accepted', async () => {
    const d = DesignDetail.parse(await (await get(`/designs/${card}`)).json());
    const headline = d.objects.find((o) => o.name === 'headline')!;
    const res = await fetch(`${base}/render`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ design_id: card, format: 'png', objects_overrides: { headline: headline.values } }),
    });
    expect(res.status).toBe(202);
  });

  it("describes a video design's slides, the objects on each, and interface B's price at each size and fps", async () => {
    const d = DesignDetail.parse(await (await get(`/designs/${video}`)).json());
    const template = JSON.parse(readFileSync(join(SLIDES, 'design.json'), 'utf8')) as {
      slides: { name: string; duration: number; objects: { name?: string }[] }[];
    };
    expect(d.kind).toBe('video');
    expect(d.slides.map((s) => [s.name, s.duration, s.objects])).toEqual(
      template.slides.map((s) => [s.name, s.duration, s.objects.flatMap((o) => (o.name ? [o.name] : []))]),
    );
    expect(d.slides[0]!.start).toBe(0);
    expect(d.objects.find((o) => o.name === 'intro_title')).toMatchObject({ type: 'text', slide: 'intro' });
    // The basic plan's rates per second, times the video's length.
    const rates = { 'sd/30': 0.01, 'sd/60': 0.015, 'hd/30': 0.02, 'hd/60': 0.03 };
    for (const [k, rate] of Object.entries(rates)) expect(d.prices![k as keyof typeof rates]).toBeCloseTo(d.duration! * rate, 6);
  });

  it('gives a video design’s poster_time: the second a still of it shows when no time is named', async () => {
    const d = DesignDetail.parse(await (await get(`/designs/${video}`)).json());
    expect(d.poster_time).toBeGreaterThan(0);
    expect(d.poster_time).toBeLessThan(d.duration!);
    const still = async (time?: number) => {
      const res = await fetch(`${base}/preview`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ design_id: video, format: 'png', scale: 0.25, ...(time === undefined ? {} : { time }) }),
      });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const atDefault = await still();
    expect(atDefault.equals(await still(d.poster_time!))).toBe(true);
    expect(atDefault.equals(await still(0))).toBe(false);
  });

  it('prices a video as interface B holds it when the render is requested', async () => {
    // A short video: B1 holds its price from the balance; that hold is the detail's price.
    const tiny = {
      width: 64,
      height: 64,
      duration: 0.5,
      objects: [{ type: 'shape', name: 'box', x: 8, y: 8, width: 48, height: 48, background: { type: 'color', color: '#f0c030' } }],
    };
    const created = await send('POST', '/designs', zipSync({ 'design.json': json(tiny) }));
    expect(created.status).toBe(201);
    const d = DesignDetail.parse(await created.json());
    expect(d).toMatchObject({ animated: true, duration: 0.5, kind: 'design', slides: [] });
    expect(DesignList.parse(await (await get('/designs')).json()).designs[0]!.design_id).toBe(d.design_id);
    const root = base.replace(/\/public\/v2$/, '/api');
    const res = await fetch(`${root}/videos/${d.design_id}/render/?v=1.0`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ parameters: { fps: 60, size_type: 'sd' } }),
    });
    expect(res.status).toBe(202);
    const { task_id } = (await res.json()) as { task_id: number };
    expect(d.prices!['sd/60']).toBe(0.0075);
    expect((await service.ctx.meta.getTask(task_id))!.reserved).toBe(d.prices!['sd/60']);
  });

  it('is 404 design_not_found for an unknown id, a non-number and another account’s design', async () => {
    for (const [path, k] of [
      ['/designs/999999', key],
      ['/designs/abc', key],
      [`/designs/${card}`, other],
    ] as const) {
      const e = await errorOf(await get(path, k));
      expect(e, path).toMatchObject({ status: 404, error: 'design_not_found' });
      expect(e.description).toMatch(/design ids are positive integers|no design with id/);
      // Over HTTP the way to find the ids is the HTTP listing, not the admin CLI.
      expect(e.description).toMatch(/ \(GET \/public\/v2\/designs lists them\)$/);
      expect(e.description).not.toContain('imprint admin');
    }
  });
});

describe('POST and PUT /public/v2/designs (a zip of the design folder)', () => {
  it('imports card-1080 from a zip of its folder (design.json in the top folder), then renders it through A1', async () => {
    const res = await send('POST', '/designs', zipSync({ 'card-1080': folder(CARD) }));
    expect(res.status).toBe(201);
    const d = DesignDetail.parse(await res.json());
    expect(d).toMatchObject({ name: 'card-1080', kind: 'design', width: 1080, height: 1080 });
    expect(d.objects.map((o) => o.name)).toContain('headline');
    const accepted = await fetch(`${base}/render`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ design_id: d.design_id, format: 'png', objects_overrides: { headline: { text: 'From a zip' } } }),
    });
    expect(accepted.status).toBe(202);
    const { task_id } = (await accepted.json()) as { task_id: number };
    const done = await waitFor(`task ${task_id} to end`, async () => {
      const t = (await (await get(`/tasks/${task_id}`)).json()) as { state: string; result_url?: string };
      return t.state === 'done' || t.state === 'error' ? t : undefined;
    });
    expect(done.state).toBe('done');
    const png = Buffer.from(await (await fetch(done.result_url!)).arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  }, 60_000);

  it('takes the one .json file of the zip as the design, whatever its name, at the root or in the top folder', async () => {
    const template = new TextEncoder().encode(readFileSync(join(CARD, 'design.json'), 'utf8'));
    const { 'design.json': _design, ...files } = folder(CARD);
    for (const zip of [zipSync({ ...files, 'summer-card.json': template }), zipSync({ cards: { ...files, 'Summer Card.JSON': template } })]) {
      const res = await send('POST', '/designs', zip);
      expect(res.status, await res.clone().text()).toBe(201);
      expect(DesignDetail.parse(await res.json()).objects.map((o) => o.name)).toContain('headline');
    }
  });

  it('takes design.json at the root and the name field; macOS __MACOSX entries are skipped', async () => {
    const zip = zipSync({ ...folder(CARD), __MACOSX: { '._design.json': new Uint8Array([0, 5, 22, 7]) } });
    const res = await send('POST', '/designs', zip, { name: 'Card from the Studio' });
    expect(res.status).toBe(201);
    expect(DesignDetail.parse(await res.json()).name).toBe('Card from the Studio');
  });

  it('replaces a design in place: the id stays, the template and name change, other fields stay', async () => {
    const created = DesignDetail.parse(await (await send('POST', '/designs', zipSync(folder(CARD)), { name: 'to replace' })).json());
    const template = cardTemplate();
    template.objects.find((o) => o.name === 'headline')!.text = 'Replaced over HTTP';
    const res = await send('PUT', `/designs/${created.design_id}`, zipSync({ ...folder(CARD), 'design.json': json(template) }));
    expect(res.status).toBe(200);
    const replaced = DesignDetail.parse(await res.json());
    expect(replaced.design_id).toBe(created.design_id);
    expect(replaced.name).toBe('to replace');
    // A zip import is version 1; a replace is the next version, and the one before is kept.
    expect([created.version, replaced.version, replaced.latest_version]).toEqual([1, 2, 2]);
    const versions = DesignVersionList.parse(await (await get(`/designs/${created.design_id}/versions`)).json());
    expect(versions.versions.map((v) => [v.version, v.files])).toEqual([
      [2, 1],
      [1, 1],
    ]);
    // The photo's bytes did not change: version 2 shares version 1's file instead of storing it again.
    const [v1, v2] = [await service.getDesign(accountId, created.design_id, { version: 1 }), await service.getDesign(accountId, created.design_id)];
    expect(v2.assets).toEqual(v1.assets);
    const first = DesignDetail.parse(await (await get(`/designs/${created.design_id}?version=1`)).json());
    expect(first.objects.find((o) => o.name === 'headline')!.values.text).toBe(cardTemplate().objects.find((o) => o.name === 'headline')!.text);
    expect(replaced.objects.find((o) => o.name === 'headline')!.values.text).toBe('Replaced over HTTP');
    const again = DesignDetail.parse(await (await get(`/designs/${created.design_id}`)).json());
    expect(again.objects.find((o) => o.name === 'headline')!.values.text).toBe('Replaced over HTTP');
    expect(Date.parse(again.updated_at)).toBeGreaterThanOrEqual(Date.parse(again.created_at));
    // Renamed with the field.
    const renamed = await send('PUT', `/designs/${created.design_id}`, zipSync(folder(CARD)), { name: 'renamed' });
    expect(DesignDetail.parse(await renamed.json()).name).toBe('renamed');
  });

  it('refuses a template error with its JSON path, as import-design does, and stores nothing', async () => {
    const before = DesignList.parse(await (await get('/designs')).json()).designs.length;
    const template = cardTemplate();
    template.objects[2]!.font_size = -5;
    const e = await errorOf(await send('POST', '/designs', zipSync({ ...folder(CARD), 'design.json': json(template) })));
    expect(e).toMatchObject({ status: 400, error: 'validation_error' });
    expect(e.description).toMatch(/^\$\.objects\[2\]\.font_size: /);
    // A file the template names that the zip lacks: at the field that names it.
    const noPhoto = folder(CARD);
    delete noPhoto['lake-sunset.jpg'];
    const missing = await errorOf(await send('POST', '/designs', zipSync(noPhoto)));
    expect(missing).toMatchObject({ status: 400, error: 'validation_error' });
    expect(missing.description).toMatch(/^\$\.objects\[0\]\.path: no file "lake-sunset\.jpg"/);
    // Not JSON.
    const garbled = await errorOf(await send('POST', '/designs', zipSync({ 'design.json': new TextEncoder().encode('{"width": 10,') })));
    expect(garbled.description).toMatch(/^\$: design\.json is not valid JSON/);
    // A design file of another name is named as the zip names it.
    const polotno = await errorOf(await send('POST', '/designs', zipSync({ export: { 'polotno.json': new TextEncoder().encode('{"pages": [') } })));
    expect(polotno.description).toMatch(/^\$: export\/polotno\.json is not valid JSON/);
    expect(DesignList.parse(await (await get('/designs')).json()).designs).toHaveLength(before);
  });

  it.each([
    [
      'no .json file, naming what it has',
      () => zipSync({ 'readme.txt': json('hi'), images: { 'a.png': json(1) } }),
      /^\$\.file: the zip has no \.json design file at its root or in its single top-level folder \(at its root it has "readme\.txt", "images\/"\): zip the design folder/,
    ],
    [
      'two top-level folders',
      () => zipSync({ a: { 'design.json': json({}) }, b: { 'x.txt': json(1) } }),
      /^\$\.file: the zip has no \.json design file .*\(at its root it has "a\/", "b\/"\)/,
    ],
    [
      'several .json files and no design.json, naming them',
      () => zipSync({ 'front.json': json({}), 'back.json': json({}), 'overrides.json': json({}) }),
      /^\$\.file: the zip has 2 \.json files at its root \("front\.json", "back\.json"\) and none is named design\.json: keep only the design's \.json there, or name it design\.json$/,
    ],
    [
      'several .json files in its top-level folder',
      () => zipSync({ kit: { 'a.json': json({}), 'b.json': json({}) } }),
      /^\$\.file: the zip has 2 \.json files in its top-level folder "kit" \("a\.json", "b\.json"\)/,
    ],
    ['a ../ path', () => zipSync({ 'design.json': json({}), '../evil.png': json(1) }), /^\$\.file: the zip entry "\.\.\/evil\.png" has a "\.\." in its path/],
    ['an absolute path', () => zipSync({ 'design.json': json({}), '/etc/passwd': json(1) }), /^\$\.file: the zip entry "\/etc\/passwd" has an absolute path/],
    ['not a zip', () => new Uint8Array(readFileSync(join(CARD, 'lake-sunset.jpg'))), /^\$\.file: the file is not a zip archive/],
    ['an empty file', () => new Uint8Array(0), /^\$\.file: the file is not a zip archive/],
    [
      'more than 1000 entries',
      () => zipSync({ 'design.json': json({}), ...Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`f${i}.txt`, json(i)])) }),
      /^\$\.file: the zip has 1001 entries: at most 1000 are accepted/,
    ],
  ])('refuses a zip with %s: 400 validation_error at $.file', async (_what, make, message) => {
    const e = await errorOf(await send('POST', '/designs', make()));
    expect(e).toMatchObject({ status: 400, error: 'validation_error' });
    expect(e.description).toMatch(message);
  });

  it('stops unpacking a zip bomb at the limit (a 64 MB entry of zeros in a 64 KB zip, against a 1 MB limit)', async () => {
    const bomb = zipOfZeros('design.json', 64 * 1024 * 1024);
    expect(bomb.byteLength).toBeLessThan(200 * 1024);
    const e = await errorOf(await send('POST', '/designs', bomb, {}, key, smallBase));
    expect(e).toMatchObject({ status: 400, error: 'validation_error' });
    expect(e.description).toMatch(/^\$\.file: the zip's files come to more than 1 MB once unpacked: .*unpacking stopped at the limit/);
    // The same refusal by the reader itself, whatever the entry's header claims its size is.
    expect(() => readDesignZip(zipOfZeros('design.json', 8 * 1024 * 1024, 10), { maxBytes: 1024 * 1024 })).toThrow(/unpacking stopped at the limit/);
    // And the small server's entry count.
    const many = zipSync({ 'design.json': json({}), ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.txt`, json(i)])) });
    expect((await errorOf(await send('POST', '/designs', many, {}, key, smallBase))).description).toMatch(/the zip has 21 entries: at most 20/);
  });

  it('unpacks only the files design.json names: a bomb beside it that the design does not use is never inflated', () => {
    const zip = zipSync({ 'design.json': json({ width: 10, height: 10, objects: [] }), 'unused.bin': new Uint8Array(8 * 1024 * 1024) });
    const read = readDesignZip(zip, { maxBytes: 1024 * 1024 }, () => []);
    expect([...read.files.keys()]).toEqual([]);
    // Named by the design, the same file is unpacked, and the limit holds.
    expect(() => readDesignZip(zip, { maxBytes: 1024 * 1024 }, () => ['unused.bin'])).toThrow(/unpacking stopped at the limit/);
  });

  it('refuses a zip whose directory points past its end as not a zip (400), not as a failure of the service', () => {
    const zip = zipSync({ 'design.json': json({}) });
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    let cd = -1;
    for (let i = zip.byteLength - 4; i >= 0; i--) if (view.getUint32(i, true) === 0x02014b50) cd = i;
    // A zip64 size marker with an extra field far longer than the bytes that follow.
    view.setUint32(cd + 20, 0xffffffff, true);
    view.setUint16(cd + 30, 0xfff0, true);
    let err: unknown;
    try {
      readDesignZip(zip);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'validation_error', path: '$.file' });
  });

  it('refuses a zip over 100 MB by its Content-Length, before reading it (413)', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base}/designs`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(MAX_DESIGN_ZIP_BYTES + 1024 * 1024) },
      });
      req.on('response', (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode!, body }));
      });
      req.on('error', reject);
      req.write('--x\r\n');
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'payload_too_large', description: expect.stringMatching(/larger than 100 MB/) });
  });

  it('refuses a body that is neither multipart nor JSON (415), a missing file and an unknown field (400)', async () => {
    const notMultipart = await fetch(`${base}/designs`, { method: 'POST', headers: { ...auth(), 'content-type': 'text/plain' }, body: '{}' });
    expect(await errorOf(notMultipart)).toMatchObject({ status: 415, error: 'unsupported_media_type' });
    // A PUT takes only a zip (a new version from JSON is POST /designs/<id>/versions).
    const json = await fetch(`${base}/designs/${card}`, { method: 'PUT', headers: { ...auth(), 'content-type': 'application/json' }, body: '{}' });
    expect(await errorOf(json)).toMatchObject({ status: 415, description: expect.stringMatching(/POST \/public\/v2\/designs\/<id>\/versions/) });
    const form = new FormData();
    form.append('name', 'only a name');
    expect((await errorOf(await fetch(`${base}/designs`, { method: 'POST', headers: auth(), body: form }))).description).toMatch(/^\$\.file: no file/);
    const extra = await errorOf(await send('POST', '/designs', zipSync(folder(CARD)), { title: 'x' }));
    expect(extra).toMatchObject({ status: 400, error: 'validation_error', description: expect.stringMatching(/^\$\.title: unknown field "title"/) });
    const badName = await errorOf(await send('POST', '/designs', zipSync(folder(CARD)), { name: ' ' }));
    expect(badName.description).toMatch(/^\$\.name: give the design a name of 1 to 120 printable characters, or leave the name out$/);
  });

  it('replacing a design that is not there, or another account’s, is 404 and changes nothing', async () => {
    expect(await errorOf(await send('PUT', '/designs/999999', zipSync(folder(CARD))))).toMatchObject({ status: 404, error: 'design_not_found' });
    expect(await errorOf(await send('PUT', `/designs/${card}`, zipSync(folder(CARD)), {}, other))).toMatchObject({ status: 404, error: 'design_not_found' });
    expect(DesignDetail.parse(await (await get(`/designs/${card}`)).json()).name).toBe('card-1080');
  });
});

describe('DELETE /public/v2/designs/<id>', () => {
  it('deletes a design (204), after which it is 404; another account cannot delete it', async () => {
    const { design_id } = DesignDetail.parse(await (await send('POST', '/designs', zipSync(folder(CARD)))).json());
    const del = (k = key) => fetch(`${base}/designs/${design_id}`, { method: 'DELETE', headers: auth(k) });
    expect(await errorOf(await del(other))).toMatchObject({ status: 404, error: 'design_not_found' });
    const res = await del();
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await errorOf(await get(`/designs/${design_id}`))).toMatchObject({ status: 404, error: 'design_not_found' });
    expect(await errorOf(await del())).toMatchObject({ status: 404, error: 'design_not_found' });
    expect(DesignList.parse(await (await get('/designs')).json()).designs.map((d) => d.design_id)).not.toContain(design_id);
  });
});

describe('OpenAPI', () => {
  it('documents every addition with its schema, made from the zod schemas the server answers with', async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const routes: [string, string, string[]][] = [
      ['/public/v2/designs', 'get', ['200', '401', '403', '429']],
      ['/public/v2/designs', 'post', ['201', '400', '413', '415']],
      ['/public/v2/designs/{design_id}', 'get', ['200', '404']],
      ['/public/v2/designs/{design_id}', 'put', ['200', '400', '404', '413']],
      ['/public/v2/designs/{design_id}', 'delete', ['204', '404']],
      ['/public/v2/tasks', 'get', ['200', '400']],
      ['/public/v2/tasks/{task_id}/events', 'get', ['200', '404']],
      ['/public/v2/account', 'get', ['200', '401']],
    ];
    for (const [path, method, statuses] of routes) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
      expect(Object.keys(doc.paths[path]![method]!.responses)).toEqual(expect.arrayContaining(statuses));
      // And the server has the route.
      expect(app.hasRoute({ method: method.toUpperCase(), url: path.replace(/\{(\w+)\}/g, ':id') }), `${method} ${path}`).toBe(true);
    }
    expect(Object.keys(doc.components.schemas.DesignDetail!.properties!).sort()).toEqual(Object.keys(DesignDetail.shape).sort());
    expect(Object.keys(doc.components.schemas.TaskList!.properties!)).toEqual(['tasks']);
    expect(Object.keys(doc.components.schemas.Account!.properties!).sort()).toEqual(Object.keys(AccountInfo.shape).sort());
    expect(doc.paths['/public/v2/tasks']!.get!.parameters!.map((p) => [p.name, p.in])).toEqual([
      ['limit', 'query'],
      ['before', 'query'],
    ]);
  });
});

describe('the guard on every design route', () => {
  it.each([
    ['GET', '/designs'],
    ['GET', '/designs/1'],
    ['POST', '/designs'],
    ['PUT', '/designs/1'],
    ['DELETE', '/designs/1'],
  ])('%s %s: 401 without a key or with an unknown one, 403 with a member key', async (method, path) => {
    const call = (headers: Record<string, string>) => fetch(base + path, { method, headers });
    expect(await errorOf(await call({}))).toMatchObject({ status: 401, error: 'unauthorized' });
    expect(await errorOf(await call(auth('imp_not_a_key')))).toMatchObject({ status: 401, error: 'unauthorized' });
    expect(await errorOf(await call(auth(member)))).toMatchObject({ status: 403, error: 'forbidden' });
  });
});

/**
 * A zip of one deflated entry of `size` zero bytes, made a megabyte at a time (no buffer of `size`
 * is ever allocated). `claimed`, when given, is the size its headers claim instead: a lying bomb.
 */
function zipOfZeros(name: string, size: number, claimed = size): Uint8Array {
  const parts: Uint8Array[] = [];
  const deflate = new Deflate({ level: 1 }, (chunk) => parts.push(chunk));
  const mb = new Uint8Array(1024 * 1024);
  for (let left = size; left > 0; left -= mb.byteLength) deflate.push(mb.subarray(0, Math.min(mb.byteLength, left)), left <= mb.byteLength);
  const data = concat(parts);
  const nameBytes = new TextEncoder().encode(name);
  const local = new DataView(new ArrayBuffer(30));
  local.setUint32(0, 0x04034b50, true);
  local.setUint16(4, 20, true);
  local.setUint16(8, 8, true);
  local.setUint32(18, data.byteLength, true);
  local.setUint32(22, claimed, true);
  local.setUint16(26, nameBytes.byteLength, true);
  const central = new DataView(new ArrayBuffer(46));
  central.setUint32(0, 0x02014b50, true);
  central.setUint16(4, 20, true);
  central.setUint16(6, 20, true);
  central.setUint16(10, 8, true);
  central.setUint32(20, data.byteLength, true);
  central.setUint32(24, claimed, true);
  central.setUint16(28, nameBytes.byteLength, true);
  const cdOffset = 30 + nameBytes.byteLength + data.byteLength;
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, 1, true);
  end.setUint16(10, 1, true);
  end.setUint32(12, 46 + nameBytes.byteLength, true);
  end.setUint32(16, cdOffset, true);
  const bytes = (v: DataView) => new Uint8Array(v.buffer);
  return concat([bytes(local), nameBytes, data, bytes(central), nameBytes, bytes(end)]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
