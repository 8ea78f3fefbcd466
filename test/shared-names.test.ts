// Names used as roles (issue 28): several objects may share a name (Polotno templates put
// "primary_colour" on three shapes); an override of it applies to every one of them, through the
// library, the CLI and both HTTP interfaces; one that cannot apply to all of them is a validation_error
// naming the objects, and a shape's wrap may not name a shared name. The CLI and render threads load
// dist/: run `npm run build` first.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render, type DesignInput } from '../src/engine.js';
import type { PolotnoDocument } from '../src/index.js';
import { buildServer, listen } from '../src/http/server.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { TaskWorker } from '../src/worker/worker.js';
import { expectRefused } from './support/refusal.js';
import { waitFor } from './support/wait.js';
import { builtBin } from './support/stale-build.js';

/** Three squares share "primary_colour"; a text and a square share "brand" (different types). */
const polotno = (): PolotnoDocument => ({
  width: 300,
  height: 100,
  schemaVersion: 4,
  pages: [
    {
      id: 'p',
      background: 'white',
      children: [
        { id: 'a', type: 'figure', subType: 'rect', name: 'primary_colour', x: 10, y: 10, width: 40, height: 40, fill: '#ff0000' },
        { id: 'b', type: 'figure', subType: 'rect', name: 'primary_colour', x: 60, y: 10, width: 40, height: 40, fill: '#ff0000' },
        { id: 'c', type: 'figure', subType: 'rect', name: 'primary_colour', x: 110, y: 10, width: 40, height: 40, fill: '#ff0000' },
        { id: 'd', type: 'figure', subType: 'rect', name: 'brand', x: 160, y: 10, width: 40, height: 40, fill: '#00ff00' },
        { id: 'e', type: 'text', name: 'brand', x: 10, y: 60, width: 280, text: 'Brand', fontFamily: 'Inter', fontSize: 20 },
      ],
    },
  ],
});

const BLUE = { primary_colour: { background: { color: '#0000ff' } } };
const squares = [30, 80, 130];

async function pixels(png: Buffer, points: number[]): Promise<number[][]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return points.map((x) => {
    const i = (30 * info.width + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  });
}

describe('library', () => {
  it('accepts a Polotno document whose elements share a name, and an override of it recolours every one', async () => {
    const before = await render({ design: polotno(), format: 'png' });
    expect(await pixels(before.bytes, squares)).toEqual([
      [255, 0, 0],
      [255, 0, 0],
      [255, 0, 0],
    ]);
    const after = await render({ design: polotno(), format: 'png', overrides: BLUE });
    expect(await pixels(after.bytes, [...squares, 180])).toEqual([
      [0, 0, 255],
      [0, 0, 255],
      [0, 0, 255],
      [0, 255, 0],
    ]);
  });

  it('takes a field all of the shared objects have (placement) for every one of them, text and shape alike', async () => {
    const result = await render({ design: polotno(), format: 'png', overrides: { brand: { hidden: true } } });
    expect(await pixels(result.bytes, [180])).toEqual([[255, 255, 255]]);
    expect(result.report.filter((r) => r.name === 'brand')).toHaveLength(1);
  });

  it('refuses an override one of the shared objects cannot take, naming them all', async () => {
    const options = { design: polotno(), format: 'png', overrides: { brand: { text: 'New' } } } as const;
    await expectRefused(options, {
      path: '$.objects_overrides.brand.text',
      message: '"brand" names 2 objects (a shape object at $.objects[3], a text object at $.objects[4])',
    });
    const error = (await render(options).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('but not to a shape object at $.objects[3]');
    expect(error.message).toContain('give that object a name of its own');
  });

  it('reports a bad value for a name shared by objects of one type as for one object', async () => {
    await expectRefused(
      { design: polotno(), format: 'png', overrides: { primary_colour: { background: { color: 'blue' } } } },
      { path: '$.objects_overrides.primary_colour.background.color', message: 'hex colour' },
    );
  });

  it('accepts shared names in a native design too (one rule for every design)', async () => {
    const design = {
      width: 100,
      height: 40,
      background: { type: 'color', color: '#ffffff' },
      objects: [
        { type: 'shape', name: 'dot', shape: 'rect', x: 10, y: 10, width: 20, height: 20, background: { type: 'color', color: '#ff0000' } },
        { type: 'shape', name: 'dot', shape: 'rect', x: 60, y: 10, width: 20, height: 20, background: { type: 'color', color: '#ff0000' } },
      ],
    } as DesignInput;
    const { bytes } = await render({ design, format: 'png', overrides: [{ name: 'dot', object: { background: { color: '#0000ff' } } }] });
    const { data } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    for (const x of [20, 70]) expect([...data.subarray((20 * 100 + x) * 3, (20 * 100 + x) * 3 + 3)]).toEqual([0, 0, 255]);
  });

  it("refuses a shape's wrap naming a name two texts share: it would not say which", async () => {
    const text = { type: 'text', name: 'label', y: 10, width: 80, height: 20, text: 'x', font_family: 'Inter', font_size: 12 };
    const design = {
      width: 200,
      height: 60,
      objects: [
        { type: 'shape', name: 'button', shape: 'rect', x: 0, y: 0, width: 10, height: 10, wrap: { object: 'label' } },
        { ...text, x: 0 },
        { ...text, x: 100 },
      ],
    } as DesignInput;
    await expectRefused(
      { design, format: 'png' },
      { path: '$.objects[0].wrap.object', message: '"label" names 2 objects ($.objects[1], $.objects[2]), so wrap.object would not say which text' },
    );
  });
});

describe('CLI', () => {
  it('renders a shared-name override with --overrides, and prints the refusal of one that does not fit all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imprint-shared-cli-'));
    try {
      writeFileSync(join(dir, 'doc.json'), JSON.stringify(polotno()));
      writeFileSync(join(dir, 'blue.json'), JSON.stringify({ objects_overrides: BLUE }));
      writeFileSync(join(dir, 'bad.json'), JSON.stringify({ overrides: [{ name: 'brand', object: { text: 'New' } }] }));
      const run = (args: string[]) => promisify(execFile)(process.execPath, [builtBin(), ...args], { cwd: dir });
      await run(['render', 'doc.json', '--overrides', 'blue.json', '--out', 'out.png']);
      expect(await pixels(readFileSync(join(dir, 'out.png')), squares)).toEqual([
        [0, 0, 255],
        [0, 0, 255],
        [0, 0, 255],
      ]);
      const failed = await run(['render', 'doc.json', '--overrides', 'bad.json', '--out', 'bad.png']).then(
        () => null,
        (e: { stderr: string; code: number }) => e,
      );
      expect(failed?.code).not.toBe(0);
      expect(failed?.stderr).toContain('"brand" names 2 objects');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('service: interfaces A and B', () => {
  let dir: string;
  let service: Service;
  let app: FastifyInstance;
  let worker: TaskWorker;
  let base: string;
  let key: string;
  let accountId: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'imprint-shared-names-'));
    const config = configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1', IMPRINT_POLL_INTERVAL_S: '0' });
    service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50 });
    app = await buildServer(service);
    base = await listen(app, service);
    worker = new TaskWorker(service.ctx, { slots: 1 });
    worker.start();
    const created = await service.createAccount({ name: 'Roles', balance: 100 });
    key = created.apiKey;
    accountId = created.account.id;
    await service.setPlan(accountId, { requests_per_minute: 100_000, concurrency: 2, queue_size: 1000 });
  }, 60_000);

  afterAll(async () => {
    await app.close();
    await worker.stop(0);
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const postA = (body: unknown) =>
    fetch(`${base}/public/v2/render`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('A: lists every object of a shared name with its path, renders the override on all of them, refuses one that does not fit all', async () => {
    const record = await service.importDesign(accountId, polotno(), { name: 'roles' });
    const detail = (await (await fetch(`${base}/public/v2/designs/${record.id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      objects: { name: string; type: string; path: string }[];
    };
    expect(detail.objects.map((o) => [o.name, o.type, o.path])).toEqual([
      ['primary_colour', 'shape', '$.objects[0]'],
      ['primary_colour', 'shape', '$.objects[1]'],
      ['primary_colour', 'shape', '$.objects[2]'],
      ['brand', 'shape', '$.objects[3]'],
      ['brand', 'text', '$.objects[4]'],
    ]);

    const res = await postA({ design_id: record.id, format: 'png', objects_overrides: BLUE });
    expect(res.status).toBe(202);
    const id = ((await res.json()) as { task_id: number }).task_id;
    const task = await waitFor(
      `task ${id}`,
      async () => {
        const t = (await (await fetch(`${base}/public/v2/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
          state: string;
          result_url?: string;
        };
        return t.state === 'done' || t.state === 'error' ? t : undefined;
      },
      60_000,
    );
    expect(task.state).toBe('done');
    expect(await pixels(Buffer.from(await (await fetch(task.result_url!)).arrayBuffer()), squares)).toEqual([
      [0, 0, 255],
      [0, 0, 255],
      [0, 0, 255],
    ]);

    const bad = await postA({ design_id: record.id, format: 'png', objects_overrides: { brand: { text: 'New' } } });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: string; description: string };
    expect(body.error).toBe('validation_error');
    expect(body.description).toContain('"brand" names 2 objects (a shape object at $.objects[3], a text object at $.objects[4])');
  });

  it('B: an overrides[] entry of a shared name applies to all of them; one that does not fit all is refused', async () => {
    const doc = polotno();
    // Two pages make a slide video for interface B.
    doc.pages = [
      { ...doc.pages[0]!, duration: 1000 },
      { id: 'q', background: 'white', duration: 1000, children: [] },
    ];
    const record = await service.importDesign(accountId, doc, { name: 'roles-video' });
    const q = `api_key=${encodeURIComponent(key)}&v=1.0`;
    const postB = (overrides: unknown) =>
      fetch(`${base}/api/videos/${record.id}/render/?${q}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ parameters: { fps: 30, size_type: 'sd', demo: true }, overrides }),
      });
    const ok = await postB([{ name: 'primary_colour', object: { background: { color: '#0000ff' } } }]);
    expect(ok.status).toBe(202);
    const bad = await postB([{ name: 'brand', object: { text: 'New' } }]);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { description: string }).description).toContain('"brand" names 2 objects');
    const { task_id: id } = (await ok.json()) as { task_id: number };
    const task = await waitFor(
      `video ${id}`,
      async () => {
        const t = (await (await fetch(`${base}/api/queue/${id}/?${q}`)).json()) as { state: string };
        return t.state === 'done' || t.state === 'error' ? t : undefined;
      },
      120_000,
    );
    expect(task.state).toBe('done');
  }, 180_000);
});
