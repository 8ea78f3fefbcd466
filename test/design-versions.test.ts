// Making and keeping designs in the Studio, on the service's side (issue 31): a design made from a
// template sent as JSON, saved as numbered versions on the version it was edited from (409 when
// another save came first, nothing changed), its versions listed and described, renders of a named
// version through A1, the one autosaved draft (never rendered, dropped by a save, kept across a
// restart), rename and duplicate (files shared: deleting the original leaves the copy working),
// images the editor uploaded kept as the design's own files after the upload expires, the last 100
// versions kept, and every refusal. Real HTTP on a real server and worker, on SQLite and on
// PostgreSQL (127.0.0.1:5432; CI=true requires it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { zipSync } from 'fflate';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, listen } from '../src/http/server.js';
import { DesignDetail, DesignDraft, DesignList, DesignSummary, DesignVersionList, DraftSaved, TaskList, VersionConflictBody } from '../src/http/schemas.js';
import { configFromEnv, type ServiceConfig } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { DESIGN_VERSIONS_KEPT } from '../src/service/shapes.js';
import type { Account } from '../src/store/metadata/records.js';
import { TaskWorker } from '../src/worker/worker.js';
import { freshPostgresDatabase, postgres } from './support/services.js';
import { waitFor } from './support/wait.js';

const DAY = 86_400_000;

interface Backend {
  name: string;
  skip: boolean;
  /** IMPRINT_DATABASE_URL, and how to drop it; none for SQLite (the file in the data folder). */
  database(): Promise<{ url?: string; drop: () => Promise<void> }>;
}

const backends: Backend[] = [
  { name: 'SQLite', skip: false, database: async () => ({ drop: async () => {} }) },
  {
    name: 'PostgreSQL',
    skip: !postgres.available,
    database: async () => {
      const db = await freshPostgresDatabase();
      return { url: db.url, drop: db.drop };
    },
  },
];

/** A small design: a box of `color` and, with `photo`, an image object showing that file. */
const template = (color: string, photo?: string) => ({
  width: 120,
  height: 80,
  background: { type: 'color', color: '#ffffff' },
  objects: [
    { type: 'shape', name: 'box', x: 10, y: 10, width: 50, height: 50, background: { type: 'color', color } },
    ...(photo ? [{ type: 'image', name: 'photo', x: 70, y: 10, width: 40, height: 40, path: photo }] : []),
  ],
});

const png = (r: number, g: number, b: number) =>
  sharp({ create: { width: 24, height: 24, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

for (const backend of backends)
  describe.skipIf(backend.skip)(`designs made and kept in the Studio, on ${backend.name}`, () => {
    let dir: string;
    let drop: () => Promise<void>;
    let config: ServiceConfig;
    let service: Service;
    let app: FastifyInstance;
    let worker: TaskWorker;
    let base: string;
    let key: string;
    let other: string;
    let member: string;
    let account: Account;
    /** Added to the service's clock: uploads expire and retired files come due without waiting. */
    let offset = 0;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'imprint-versions-'));
      const db = await backend.database();
      drop = db.drop;
      config = configFromEnv({
        IMPRINT_DATA_DIR: dir,
        IMPRINT_PORT: '0',
        IMPRINT_HOST: '127.0.0.1',
        IMPRINT_POLL_INTERVAL_S: '0',
        ...(db.url ? { IMPRINT_DATABASE_URL: db.url } : {}),
      });
      service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50, clock: () => Date.now() + offset });
      app = await buildServer(service);
      base = (await listen(app, service)) + '/public/v2';
      worker = new TaskWorker(service.ctx, { slots: 1 });
      worker.start();
      const created = await service.createAccount({ name: 'Acme' });
      key = created.apiKey;
      account = created.account;
      await service.setPlan(account.id, { requests_per_minute: 100_000 });
      member = (await service.createKey(account.id, 'member')).apiKey;
      const second = await service.createAccount({ name: 'Other' });
      other = second.apiKey;
      await service.setPlan(second.account.id, { requests_per_minute: 100_000 });
    }, 60_000);

    afterAll(async () => {
      await app?.close();
      await worker.stop(0);
      await service.close();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    });

    const auth = (k = key) => ({ authorization: `Bearer ${k}` });
    const get = (path: string, k = key) => fetch(base + path, { headers: auth(k) });
    const send = (method: string, path: string, body?: unknown, k = key) =>
      fetch(base + path, {
        method,
        headers: { ...auth(k), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
    const errorOf = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: string; description: string }) });

    async function create(name: string, design: unknown, assets?: Record<string, string>): Promise<DesignDetail> {
      const res = await send('POST', '/designs', { name, design, ...(assets ? { assets } : {}) });
      expect(res.status, await res.clone().text()).toBe(201);
      return DesignDetail.parse(await res.json());
    }

    async function save(id: number, design: unknown, baseVersion: number, assets?: Record<string, string>): Promise<DesignDetail> {
      const res = await send('POST', `/designs/${id}/versions`, { design, base_version: baseVersion, ...(assets ? { assets } : {}) });
      expect(res.status, await res.clone().text()).toBe(201);
      return DesignDetail.parse(await res.json());
    }

    async function upload(bytes: Buffer, k = key): Promise<string> {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), 'photo.png');
      const res = await fetch(`${base}/upload`, { method: 'POST', headers: auth(k), body: form });
      expect(res.status).toBe(201);
      return ((await res.json()) as { url: string }).url;
    }

    /** Renders through A1 and waits for the task: the png's bytes and the task's id. */
    async function render(designId: number, extra: Record<string, unknown> = {}): Promise<{ png: Buffer; task: number }> {
      const res = await send('POST', '/render', { design_id: designId, format: 'png', ...extra });
      expect(res.status, await res.clone().text()).toBe(202);
      const { task_id } = (await res.json()) as { task_id: number };
      const done = await waitFor(`task ${task_id} to end`, async () => {
        const t = (await (await get(`/tasks/${task_id}`)).json()) as { state: string; result_url?: string; error?: unknown };
        return t.state === 'done' || t.state === 'error' ? t : undefined;
      });
      expect(done.state, JSON.stringify(done)).toBe('done');
      return { png: Buffer.from(await (await fetch(done.result_url!)).arrayBuffer()), task: task_id };
    }

    /** Moves the service's clock on and runs the retention sweep (uploads expire after 30 days, retired files after one). */
    async function later(days: number) {
      offset += days * DAY;
      return service.sweep();
    }

    describe('versions', () => {
      let id: number;
      let v1: Buffer;
      let v2: Buffer;

      it('makes a design from JSON (201): its detail at version 1, listed with latest_version and has_draft', async () => {
        const d = await create('  Summer post  ', template('#d03030'));
        id = d.design_id;
        expect(d).toMatchObject({ name: 'Summer post', kind: 'design', width: 120, height: 80, version: 1, latest_version: 1, has_draft: false });
        expect(d.objects.map((o) => o.name)).toEqual(['box']);
        const listed = DesignList.parse(await (await get('/designs')).json()).designs.find((x) => x.design_id === id);
        expect(listed).toMatchObject({ name: 'Summer post', latest_version: 1, has_draft: false });
        v1 = (await render(id)).png;
        expect(v1.subarray(1, 4).toString()).toBe('PNG');
      });

      it('saves version 2 on version 1 (201), lists both newest first, and describes either', async () => {
        const d = await save(id, template('#2040c0'), 1);
        expect(d).toMatchObject({ design_id: id, version: 2, latest_version: 2, name: 'Summer post' });
        expect(d.objects[0]!.values).toMatchObject({ background: { type: 'color', color: '#2040c0' } });
        const list = DesignVersionList.parse(await (await get(`/designs/${id}/versions`)).json());
        expect(list).toMatchObject({ design_id: id, latest_version: 2, oldest_version: 1 });
        expect(list.versions.map((v) => v.version)).toEqual([2, 1]);
        expect(list.versions[0]).toEqual({
          version: 2,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          kind: 'design',
          width: 120,
          height: 80,
          duration: null,
          size: expect.any(Number),
          files: 0,
        });
        expect(list.versions[0]!.size).toBeGreaterThan(100);
        // Paged: one at a time, the next page below the last version shown.
        const first = DesignVersionList.parse(await (await get(`/designs/${id}/versions?limit=1`)).json());
        expect(first.versions.map((v) => v.version)).toEqual([2]);
        const next = DesignVersionList.parse(await (await get(`/designs/${id}/versions?limit=1&before=2`)).json());
        expect(next.versions.map((v) => v.version)).toEqual([1]);
        const old = DesignDetail.parse(await (await get(`/designs/${id}?version=1`)).json());
        expect(old).toMatchObject({ version: 1, latest_version: 2 });
        expect(old.objects[0]!.values).toMatchObject({ background: { color: '#d03030' } });
        expect(DesignDetail.parse(await (await get(`/designs/${id}`)).json())).toMatchObject({ version: 2 });
      });

      it('renders the version a request names, the latest by default, and the task list says which', async () => {
        v2 = (await render(id)).png;
        expect(v2.equals(v1)).toBe(false);
        const named = await render(id, { design_version: 1 });
        expect(named.png.equals(v1)).toBe(true);
        expect((await render(id, { design_version: 2 })).png.equals(v2)).toBe(true);
        const tasks = TaskList.parse(await (await get('/tasks?limit=5')).json()).tasks;
        expect(tasks.find((t) => t.id === named.task)).toMatchObject({ design_id: id, design_version: 1 });
        // A preview names a version too.
        const preview = async (v?: number) => {
          const res = await send('POST', '/preview', { design_id: id, ...(v ? { design_version: v } : {}) });
          expect(res.status).toBe(200);
          return Buffer.from(await res.arrayBuffer());
        };
        expect((await preview(1)).equals(await preview())).toBe(false);
      });

      it('refuses a save on a version that is no longer the latest: 409 version_conflict with latest_version, nothing changed', async () => {
        const draft = await send('PUT', `/designs/${id}/draft`, { design: template('#00ff00'), base_version: 2 });
        expect(draft.status).toBe(200);
        const res = await send('POST', `/designs/${id}/versions`, { design: template('#000000'), base_version: 1 });
        expect(res.status).toBe(409);
        const body = VersionConflictBody.parse(await res.json());
        expect(body).toEqual({
          error: 'version_conflict',
          latest_version: 2,
          description: expect.stringMatching(
            /^design \d+ is at version 2 and this save was made on version 1 \(another save came first\): nothing was stored;/,
          ),
        });
        const list = DesignVersionList.parse(await (await get(`/designs/${id}/versions`)).json());
        expect(list.versions.map((v) => v.version)).toEqual([2, 1]);
        expect((await render(id)).png.equals(v2)).toBe(true);
        // The draft the refused save came from is still there.
        expect(DesignDraft.parse(await (await get(`/designs/${id}/draft`)).json()).design).toEqual(template('#00ff00'));
        // A base version the design never had is a validation error, not a conflict.
        const ahead = await errorOf(await send('POST', `/designs/${id}/versions`, { design: template('#000000'), base_version: 7 }));
        expect(ahead).toMatchObject({
          status: 400,
          error: 'validation_error',
          description: expect.stringMatching(/^\$\.base_version: design \d+ has no version 7/),
        });
      });

      it('answers an unknown version: 404 version_not_found for the detail, 400 at $.design_version for a render or preview, naming the versions kept', async () => {
        const detail = await errorOf(await get(`/designs/${id}?version=9`));
        expect(detail).toMatchObject({
          status: 404,
          error: 'version_not_found',
          description: expect.stringMatching(/has no version 9: it keeps versions 1 to 2/),
        });
        for (const path of ['/render', '/preview']) {
          const e = await errorOf(await send('POST', path, { design_id: id, format: 'png', design_version: 9 }));
          expect(e, path).toMatchObject({ status: 400, error: 'validation_error' });
          expect(e.description).toMatch(/^\$\.design_version: design \d+ has no version 9: it keeps versions 1 to 2/);
        }
        expect(await errorOf(await send('POST', '/render', { design_id: id, format: 'png', design_version: 0 }))).toMatchObject({
          status: 400,
          description: expect.stringMatching(/^\$\.design_version: /),
        });
        for (const q of ['version=abc', 'version=0', 'size=1']) {
          expect(await errorOf(await get(`/designs/${id}?${q}`)), q).toMatchObject({ status: 400, error: 'validation_error' });
        }
        expect(await errorOf(await get(`/designs/${id}/versions?limit=0`))).toMatchObject({ status: 400, description: expect.stringMatching(/^\$\.limit/) });
      });

      it('keeps a draft (put, get, listed), never renders it, drops it on a save, and deletes it', async () => {
        // Mid-edit: not a valid template (an object type that does not exist), still kept as sent.
        const invalid = { ...template('#00ff00'), objects: [{ type: 'squiggle', name: 'half-made' }] };
        const put = await send('PUT', `/designs/${id}/draft`, { design: invalid, base_version: 2, assets: { 'later.png': 'not checked yet' } });
        expect(put.status).toBe(200);
        const saved = DraftSaved.parse(await put.json());
        expect(saved).toEqual({ design_id: id, base_version: 2, latest_version: 2, updated_at: expect.stringMatching(/^\d{4}-/) });
        expect(DesignDraft.parse(await (await get(`/designs/${id}/draft`)).json())).toEqual({
          ...saved,
          design: invalid,
          assets: { 'later.png': 'not checked yet' },
        });
        expect(DesignList.parse(await (await get('/designs')).json()).designs.find((d) => d.design_id === id)!.has_draft).toBe(true);
        expect(DesignDetail.parse(await (await get(`/designs/${id}`)).json()).has_draft).toBe(true);
        // Renders and previews read saved versions only.
        const draftable = await send('PUT', `/designs/${id}/draft`, { design: template('#00ff00'), base_version: 2 });
        expect(draftable.status).toBe(200);
        expect((await render(id)).png.equals(v2)).toBe(true);
        // The draft survives a restart: another service on the same stores reads it.
        const again = await Service.open(config, { log: pino({ level: 'silent' }) });
        try {
          expect((await again.getDraft(account, id)).design).toEqual(template('#00ff00'));
        } finally {
          await again.close();
        }
        // Saving a version drops it.
        const v3 = await save(id, template('#00ff00'), 2);
        expect(v3).toMatchObject({ version: 3, has_draft: false });
        expect(await errorOf(await get(`/designs/${id}/draft`))).toMatchObject({ status: 404, error: 'draft_not_found' });
        // Put and delete; a second delete has nothing to delete.
        expect((await send('PUT', `/designs/${id}/draft`, { design: {}, base_version: 3 })).status).toBe(200);
        const del = await send('DELETE', `/designs/${id}/draft`);
        expect(del.status).toBe(204);
        expect(await errorOf(await send('DELETE', `/designs/${id}/draft`))).toMatchObject({ status: 404, error: 'draft_not_found' });
        expect(await errorOf(await get(`/designs/${id}/draft`))).toMatchObject({ status: 404, error: 'draft_not_found' });
      });

      it('refuses a draft over 2 MB (413) and keeps the one before; a draft needs JSON, a design object and a version the design has had', async () => {
        expect((await send('PUT', `/designs/${id}/draft`, { design: template('#111111'), base_version: 3 })).status).toBe(200);
        const huge = { ...template('#222222'), notes: 'x'.repeat(2 * 1024 * 1024) };
        const e = await errorOf(await send('PUT', `/designs/${id}/draft`, { design: huge, base_version: 3 }));
        expect(e).toMatchObject({ status: 413, error: 'payload_too_large', description: expect.stringMatching(/larger than 2 MB/) });
        expect(DesignDraft.parse(await (await get(`/designs/${id}/draft`)).json()).design).toEqual(template('#111111'));
        expect(await errorOf(await send('PUT', `/designs/${id}/draft`, 'not json', key))).toMatchObject({ status: 400, error: 'validation_error' });
        const plain = await fetch(`${base}/designs/${id}/draft`, { method: 'PUT', headers: { ...auth(), 'content-type': 'text/plain' }, body: '{}' });
        expect(await errorOf(plain)).toMatchObject({ status: 415, error: 'unsupported_media_type' });
        for (const [body, path] of [
          [{ design: [1, 2], base_version: 3 }, '$.design'],
          [{ design: {} }, '$.base_version'],
          [{ design: {}, base_version: 4 }, '$.base_version'],
          [{ design: {}, base_version: 3, extra: 1 }, '$.extra'],
        ] as const) {
          const r = await errorOf(await send('PUT', `/designs/${id}/draft`, body));
          expect(r, JSON.stringify(body)).toMatchObject({ status: 400, error: 'validation_error' });
          expect(r.description.startsWith(`${path}:`), r.description).toBe(true);
        }
      });
    });

    describe('rename and duplicate', () => {
      it('renames (200, the summary), refusing a taken, empty or too long name; the versions stay', async () => {
        const d = await create('Rename me', template('#aa5500'));
        await create('Taken name', template('#aa5500'));
        const res = await send('PATCH', `/designs/${d.design_id}`, { name: ' Renamed ' });
        expect(res.status).toBe(200);
        const summary = DesignSummary.parse(await res.json());
        expect(summary).toMatchObject({ design_id: d.design_id, name: 'Renamed', latest_version: 1 });
        expect(Date.parse(summary.updated_at)).toBeGreaterThanOrEqual(Date.parse(d.updated_at));
        // Its own name again is not "taken".
        expect((await send('PATCH', `/designs/${d.design_id}`, { name: 'Renamed' })).status).toBe(200);
        const taken = await errorOf(await send('PATCH', `/designs/${d.design_id}`, { name: 'Taken name' }));
        expect(taken).toMatchObject({
          status: 409,
          error: 'conflict',
          description: expect.stringMatching(/^\$\.name: design \d+ of this account is already named "Taken name"/),
        });
        for (const name of ['', '   ', 'x'.repeat(121), 'tab\there']) {
          const e = await errorOf(await send('PATCH', `/designs/${d.design_id}`, { name }));
          expect(e, JSON.stringify(name)).toMatchObject({ status: 400, error: 'validation_error' });
          expect(e.description).toMatch(/^\$\.name: give the design a name of 1 to 120 printable characters$/);
        }
        expect((await send('PATCH', `/designs/${d.design_id}`, { name: 'é'.repeat(120) })).status).toBe(200);
        expect(await errorOf(await send('PATCH', `/designs/${d.design_id}`, { title: 'x' }))).toMatchObject({ status: 400 });
        expect(DesignDetail.parse(await (await get(`/designs/${d.design_id}`)).json())).toMatchObject({ name: 'é'.repeat(120), version: 1 });
        // A taken or bad name when creating is refused the same way, and nothing is made.
        const before = DesignList.parse(await (await get('/designs')).json()).designs.length;
        expect(await errorOf(await send('POST', '/designs', { name: 'Taken name', design: template('#000000') }))).toMatchObject({
          status: 409,
          error: 'conflict',
        });
        expect(await errorOf(await send('POST', '/designs', { name: ' ', design: template('#000000') }))).toMatchObject({ status: 400 });
        expect(await errorOf(await send('POST', '/designs', { design: template('#000000') }))).toMatchObject({
          status: 400,
          description: expect.stringMatching(/^\$\.name: /),
        });
        expect(DesignList.parse(await (await get('/designs')).json()).designs).toHaveLength(before);
      });

      it('duplicates the latest version into a new design ("<name> copy"), its files shared; deleting the original leaves the copy rendering the same', async () => {
        const photo = await upload(await png(20, 160, 90));
        const original = await create('Original', template('#7030a0', 'photo.png'), { 'photo.png': photo });
        const v2 = await save(original.design_id, template('#3070a0', 'photo.png'), 1);
        const res = await send('POST', `/designs/${original.design_id}/duplicate`);
        expect(res.status).toBe(201);
        const copy = DesignDetail.parse(await res.json());
        expect(copy).toMatchObject({ name: 'Original copy', version: 1, latest_version: 1 });
        expect(copy.design_id).not.toBe(original.design_id);
        expect(copy.objects.map((o) => o.values)).toEqual(v2.objects.map((o) => o.values));
        // The files are the original's, not copies of them.
        const [a, b] = [await service.getDesign(account.id, original.design_id), await service.getDesign(account.id, copy.design_id)];
        expect(b.assets).toEqual(a.assets);
        // A second copy gets the next free name; a given one is used, a taken one refused.
        const second = DesignDetail.parse(await (await send('POST', `/designs/${original.design_id}/duplicate`, {})).json());
        expect(second.name).toBe('Original copy 2');
        const named = await send('POST', `/designs/${original.design_id}/duplicate`, { name: 'From the grid' });
        expect(DesignDetail.parse(await named.json()).name).toBe('From the grid');
        expect(await errorOf(await send('POST', `/designs/${original.design_id}/duplicate`, { name: 'From the grid' }))).toMatchObject({ status: 409 });
        const rendered = (await render(original.design_id)).png;
        expect((await render(copy.design_id)).png.equals(rendered)).toBe(true);
        // The original goes; a day later its retired files come due: the ones the copy uses stay.
        expect((await send('DELETE', `/designs/${original.design_id}`)).status).toBe(204);
        await later(1.5);
        expect(await service.ctx.blobs.get(Object.values(b.assets)[0]!)).toBeDefined();
        expect((await render(copy.design_id)).png.equals(rendered)).toBe(true);
      });
    });

    describe('images the editor uploaded', () => {
      it('copies an upload into the design: it renders after the upload has expired and been deleted', async () => {
        const url = await upload(await png(220, 40, 40));
        const d = await create('With a photo', template('#ffffff', 'photo.png'), { 'photo.png': url });
        const stored = await service.getDesign(account.id, d.design_id);
        expect(Object.keys(stored.assets)).toEqual(['photo.png']);
        expect(stored.assets['photo.png']).toMatch(/^designs\//);
        const before = (await render(d.design_id)).png;
        // A version that keeps the photo needs no assets entry: the design's own file is used.
        const v2 = await save(d.design_id, { ...template('#ffffff', 'photo.png'), background: { type: 'color', color: '#fafafa' } }, 1);
        expect(v2.version).toBe(2);
        expect((await service.getDesign(account.id, d.design_id)).assets).toEqual(stored.assets);
        // 31 days on: the upload is expired and its bytes deleted by the sweep.
        const swept = await later(31);
        expect(swept.uploads).toBeGreaterThan(0);
        expect((await get(new URL(url).pathname.replace('/public/v2', ''))).status).toBe(404);
        expect((await render(d.design_id, { design_version: 1 })).png.equals(before)).toBe(true);
        // The expired upload can no longer be added.
        const e = await errorOf(
          await send('POST', `/designs/${d.design_id}/versions`, { design: template('#000000', 'other.png'), base_version: 2, assets: { 'other.png': url } }),
        );
        expect(e).toMatchObject({ status: 400, description: expect.stringMatching(/^\$\.assets\["other\.png"\]: this upload has expired/) });
      });

      it('refuses another account’s upload, a URL that is not an upload, a file the design does not use and one it lacks', async () => {
        const theirs = await upload(await png(1, 2, 3), other);
        const mine = await upload(await png(4, 5, 6));
        const cases: [unknown, RegExp][] = [
          [
            { name: 'a', design: template('#000000', 'photo.png'), assets: { 'photo.png': theirs } },
            /^\$\.assets\["photo\.png"\]: this is not an image uploaded by this account/,
          ],
          [
            { name: 'b', design: template('#000000', 'photo.png'), assets: { 'photo.png': 'https://example.com/x.png' } },
            /^\$\.assets\["photo\.png"\]: expected the URL the upload endpoint returned/,
          ],
          [
            { name: 'c', design: template('#000000', 'photo.png'), assets: { 'photo.png': mine, 'extra.png': mine } },
            /^\$\.assets\["extra\.png"\]: the design does not use "extra\.png"/,
          ],
          [
            { name: 'd', design: template('#000000', 'photo.png') },
            /^\$\.design\.objects\[1\]\.path: no file "photo\.png" was given with the design: upload it/,
          ],
          [
            { name: 'e', design: template('#000000', 'photo.png'), assets: { '../photo.png': mine } },
            /^\$\.assets\["\.\.\/photo\.png"\]: the path leaves the design folder/,
          ],
        ];
        const before = DesignList.parse(await (await get('/designs')).json()).designs.length;
        for (const [body, message] of cases) {
          const e = await errorOf(await send('POST', '/designs', body));
          expect(e, JSON.stringify(body)).toMatchObject({ status: 400, error: 'validation_error' });
          expect(e.description).toMatch(message);
        }
        expect(DesignList.parse(await (await get('/designs')).json()).designs).toHaveLength(before);
      });
    });

    describe('the editor’s preview of unsaved edits', () => {
      /** POST /preview's png, or the error's status and description. */
      const preview = async (body: Record<string, unknown>) => {
        const res = await send('POST', '/preview', body);
        if (res.status !== 200) return { status: res.status, ...((await res.json()) as { error: string; description: string }) };
        return Buffer.from(await res.arrayBuffer());
      };

      it('previews the edited design in place of the saved one, with the saved files and new uploads; saved, it renders the same', async () => {
        const photo = await upload(await png(200, 40, 40));
        const made = await create('edited preview', template('#112233', 'photo.png'), { 'photo.png': photo });
        const savedPng = (await preview({ design_id: made.design_id })) as Buffer;
        // Edited: another colour, the saved photo kept, and a second photo that is only an upload so far.
        const edited = template('#aa3300', 'photo.png');
        edited.objects.push({ type: 'image', name: 'second', x: 10, y: 60, width: 20, height: 20, path: 'second.png' });
        const second = await upload(await png(20, 200, 20));
        const editedPng = await preview({ design_id: made.design_id, design: edited, assets: { 'second.png': second } });
        expect(Buffer.isBuffer(editedPng)).toBe(true);
        expect((editedPng as Buffer).equals(savedPng)).toBe(false);
        // The preview did not save anything: the design and its renders are as they were.
        expect((await preview({ design_id: made.design_id })) as Buffer).toEqual(savedPng);
        expect(DesignDetail.parse(await (await get(`/designs/${made.design_id}`)).json()).latest_version).toBe(1);
        // Saved, the same edits render through A1 to the bytes the preview showed.
        await save(made.design_id, edited, 1, { 'second.png': second });
        expect((await render(made.design_id)).png.equals(editedPng as Buffer)).toBe(true);
      });

      it('gives the editor a saved version’s template as stored, the latest by default, with its version', async () => {
        const first = template('#010203');
        const made = await create('template route', first);
        const second = template('#040506');
        await save(made.design_id, second, 1);
        const latest = await get(`/designs/${made.design_id}/template`);
        expect(latest.status).toBe(200);
        expect(latest.headers.get('x-imprint-design-version')).toBe('2');
        expect(await latest.json()).toMatchObject(second);
        const v1 = await get(`/designs/${made.design_id}/template?version=1`);
        expect(v1.headers.get('x-imprint-design-version')).toBe('1');
        expect(await v1.json()).toMatchObject(first);
        expect(await errorOf(await get(`/designs/${made.design_id}/template?version=9`))).toMatchObject({ status: 404, error: 'version_not_found' });
        expect(await errorOf(await get(`/designs/999999/template`))).toMatchObject({ status: 404, error: 'design_not_found' });
      });

      it('puts an edited design’s errors at $.design…, and refuses assets without a design, a foreign upload and a path outside the design', async () => {
        const made = await create('edited preview errors', template('#000000'));
        const bad = template('#000000');
        (bad.objects[0] as Record<string, unknown>).width = -5;
        expect(await preview({ design_id: made.design_id, design: bad })).toMatchObject({ status: 400, error: 'validation_error' });
        expect(((await preview({ design_id: made.design_id, design: bad })) as { description: string }).description).toMatch(
          /^\$\.design\.objects\[0\]\.width: /,
        );
        const mine = await upload(await png(1, 1, 1));
        const theirs = await upload(await png(2, 2, 2), other);
        const cases: [Record<string, unknown>, RegExp][] = [
          [{ assets: { 'x.png': mine } }, /^\$\.assets: assets go with design/],
          [{ design: template('#000000', 'x.png'), assets: { 'x.png': theirs } }, /^\$\.assets\["x\.png"\]: this is not an image uploaded by this account/],
          [{ design: template('#000000', 'x.png'), assets: { '../x.png': mine } }, /^\$\.assets\["\.\.\/x\.png"\]: the path leaves the design folder/],
          [{ design: 'not a design' }, /^\$\.design: expected the design as a JSON object/],
          // Garbage in the fonts of a design being edited is an error at its path, not a crash.
          [{ design: { ...template('#000000'), fonts: 5 } }, /^\$\.design\.fonts: /],
          [{ design: { ...template('#000000'), fonts: [{ family: 7 }] } }, /^\$\.design\.fonts\[0\]/],
        ];
        for (const [extra, message] of cases) {
          const e = (await preview({ design_id: made.design_id, ...extra })) as { status: number; description: string };
          expect(e.status, JSON.stringify(extra)).toBe(400);
          expect(e.description).toMatch(message);
        }
      });
    });

    describe('bad input', () => {
      it('refuses an invalid template with its JSON path under $.design, when creating and saving, and changes nothing', async () => {
        const broken = template('#000000');
        (broken.objects[0] as Record<string, unknown>).width = 'wide';
        const e = await errorOf(await send('POST', '/designs', { name: 'Broken', design: broken }));
        expect(e).toMatchObject({ status: 400, error: 'validation_error' });
        expect(e.description).toMatch(/^\$\.design\.objects\[0\]\.width: /);
        const d = await create('Fine', template('#000000'));
        const s = await errorOf(await send('POST', `/designs/${d.design_id}/versions`, { design: broken, base_version: 1 }));
        expect(s.description).toMatch(/^\$\.design\.objects\[0\]\.width: /);
        expect(DesignVersionList.parse(await (await get(`/designs/${d.design_id}/versions`)).json()).versions.map((v) => v.version)).toEqual([1]);
        // Not JSON, not an object, an unknown field, a body that is not JSON at all.
        for (const [body, status, message] of [
          ['{"design": ', 400, /^\$: the body is not valid JSON/],
          [{ design: 'width: 10', base_version: 1 }, 400, /^\$\.design: expected the design as a JSON object/],
          [{ design: template('#000000'), base_version: 1, name: 'x' }, 400, /^\$\.name: /],
          [{ design: template('#000000'), base_version: '1' }, 400, /^\$\.base_version: /],
        ] as const) {
          const r = await errorOf(await send('POST', `/designs/${d.design_id}/versions`, body));
          expect(r, JSON.stringify(body)).toMatchObject({ status });
          expect(r.description).toMatch(message);
        }
        const plain = await fetch(`${base}/designs/${d.design_id}/versions`, {
          method: 'POST',
          headers: { ...auth(), 'content-type': 'text/plain' },
          body: '{}',
        });
        expect(await errorOf(plain)).toMatchObject({ status: 415, error: 'unsupported_media_type' });
        const none = await fetch(`${base}/designs`, { method: 'POST', headers: auth() });
        expect(await errorOf(none)).toMatchObject({ status: 415, description: expect.stringMatching(/or as application\/json \{"name": …, "design": …\}/) });
      });

      it('is 404 design_not_found for another account’s design on every new route, and changes nothing of it', async () => {
        const d = await create('Mine only', template('#000000'));
        for (const [method, path, body] of [
          ['GET', `/designs/${d.design_id}/versions`, undefined],
          ['POST', `/designs/${d.design_id}/versions`, { design: template('#ffffff'), base_version: 1 }],
          ['PATCH', `/designs/${d.design_id}`, { name: 'Stolen' }],
          ['POST', `/designs/${d.design_id}/duplicate`, undefined],
          ['PUT', `/designs/${d.design_id}/draft`, { design: {}, base_version: 1 }],
          ['GET', `/designs/${d.design_id}/draft`, undefined],
          ['DELETE', `/designs/${d.design_id}/draft`, undefined],
          ['GET', `/designs/${d.design_id}?version=1`, undefined],
        ] as const) {
          expect(await errorOf(await send(method, path, body, other)), `${method} ${path}`).toMatchObject({ status: 404, error: 'design_not_found' });
        }
        expect(await errorOf(await send('POST', '/render', { design_id: d.design_id, format: 'png', design_version: 1 }, other))).toMatchObject({
          status: 404,
          error: 'design_not_found',
        });
        expect(DesignDetail.parse(await (await get(`/designs/${d.design_id}`)).json())).toMatchObject({ name: 'Mine only', version: 1, has_draft: false });
      });

      it('still imports a zip over 2 MB (the 2 MB limit is the JSON body’s), as version 1', async () => {
        const noise = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 2654435761) >>> 24);
        const zip = zipSync({ 'design.json': new TextEncoder().encode(JSON.stringify(template('#123456'))), 'unused.bin': [noise, { level: 0 }] });
        expect(zip.byteLength).toBeGreaterThan(3 * 1024 * 1024);
        const form = new FormData();
        form.append('file', new Blob([zip]), 'design.zip');
        const res = await fetch(`${base}/designs`, { method: 'POST', headers: auth(), body: form });
        expect(res.status, await res.clone().text()).toBe(201);
        expect(DesignDetail.parse(await res.json())).toMatchObject({ version: 1, latest_version: 1 });
      });

      it.each([
        ['GET', '/designs/1/versions'],
        ['POST', '/designs/1/versions'],
        ['PATCH', '/designs/1'],
        ['POST', '/designs/1/duplicate'],
        ['PUT', '/designs/1/draft'],
        ['GET', '/designs/1/draft'],
        ['DELETE', '/designs/1/draft'],
        ['GET', '/designs/1/template'],
      ])('%s %s: 401 without a key, 403 with a member key', async (method, path) => {
        expect(await errorOf(await fetch(base + path, { method }))).toMatchObject({ status: 401, error: 'unauthorized' });
        expect(await errorOf(await fetch(base + path, { method, headers: auth(member) }))).toMatchObject({ status: 403, error: 'forbidden' });
      });
    });

    it(`keeps the last ${DESIGN_VERSIONS_KEPT} versions: older ones go, and a file only they used is deleted a day later`, async () => {
      const url = await upload(await png(10, 200, 10));
      const d = await create('Many versions', template('#000000', 'photo.png'), { 'photo.png': url });
      const onlyV1 = (await service.getDesign(account.id, d.design_id)).assets['photo.png']!;
      for (let v = 1; v <= DESIGN_VERSIONS_KEPT; v++) {
        const res = await send('POST', `/designs/${d.design_id}/versions`, {
          design: template(`#0000${(v % 256).toString(16).padStart(2, '0')}`),
          base_version: v,
        });
        expect(res.status).toBe(201);
      }
      const list = DesignVersionList.parse(await (await get(`/designs/${d.design_id}/versions?limit=100`)).json());
      expect(list).toMatchObject({ latest_version: DESIGN_VERSIONS_KEPT + 1, oldest_version: 2 });
      expect(list.versions).toHaveLength(DESIGN_VERSIONS_KEPT);
      expect(await errorOf(await get(`/designs/${d.design_id}?version=1`))).toMatchObject({ status: 404, error: 'version_not_found' });
      expect(await service.ctx.blobs.get(onlyV1)).toBeDefined();
      const swept = await later(1.5);
      expect(swept.designFiles).toBeGreaterThan(0);
      expect(await service.ctx.blobs.get(onlyV1)).toBeUndefined();
    }, 120_000);

    it('documents the routes in the OpenAPI document, and the server has them', async () => {
      const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: { content: Record<string, unknown> } }>>;
        components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
      };
      const routes: [string, string, string[]][] = [
        ['/public/v2/designs', 'post', ['201', '400', '409', '413', '415']],
        ['/public/v2/designs/{design_id}', 'get', ['200', '400', '404']],
        ['/public/v2/designs/{design_id}', 'patch', ['200', '400', '404', '409']],
        ['/public/v2/designs/{design_id}/versions', 'get', ['200', '400', '404']],
        ['/public/v2/designs/{design_id}/versions', 'post', ['201', '400', '404', '409', '413', '415']],
        ['/public/v2/designs/{design_id}/duplicate', 'post', ['201', '400', '404', '409']],
        ['/public/v2/designs/{design_id}/draft', 'put', ['200', '400', '404', '413', '415']],
        ['/public/v2/designs/{design_id}/draft', 'get', ['200', '404']],
        ['/public/v2/designs/{design_id}/draft', 'delete', ['204', '404']],
      ];
      for (const [path, method, statuses] of routes) {
        expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
        expect(Object.keys(doc.paths[path]![method]!.responses)).toEqual(expect.arrayContaining(statuses));
        expect(app.hasRoute({ method: method.toUpperCase(), url: path.replace(/\{(\w+)\}/g, ':id') }), `${method} ${path}`).toBe(true);
      }
      expect(Object.keys(doc.paths['/public/v2/designs']!.post!.requestBody!.content).sort()).toEqual(['application/json', 'multipart/form-data']);
      for (const name of ['DesignVersionList', 'DesignDraft', 'DraftSaved', 'NewDesignRequest', 'SaveVersionRequest', 'DraftRequest', 'VersionConflict']) {
        expect(doc.components.schemas[name], name).toBeDefined();
      }
      expect(doc.components.schemas.RenderRequest!.properties).toHaveProperty('design_version');
    });
  });
