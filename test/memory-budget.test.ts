// Memory stays bounded whatever interface A accepts: a real `imprint serve` (built dist/, embedded
// stores, 2 render slots) gets the worst accepted request of each kind at once — a still at the
// largest canvas with the most image pixels in png, jpg, avif and pdf, and an mp4 at the largest frame with 120 animated
// objects — while its resident memory (and its ffmpeg children's) is read from /proc. Requests over
// the budget are refused at the door.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { RENDER_LIMITS } from '../src/render-checks.js';
import { waitUntil } from './support/wait.js';
import { builtBin } from './support/stale-build.js';

/** The target of issue 13: the server process, render threads included. */
const SERVER_RSS_LIMIT = 1024 * 1024 * 1024;

let dir: string;
let server: ChildProcess;
let base: string;
let key: string;
const designs: Record<string, number> = {};

/** Resident set size of a process in bytes, or 0 once it has gone. */
function rss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The processes whose parent is `pid` (ffmpeg encoders of the render threads). */
function children(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** A photo-like jpg of `width`×`height` (smooth colour fields from upscaled noise): decoding costs what any photo of that size does. */
async function photo(width: number, height: number): Promise<Buffer> {
  const small = await sharp({ create: { width: 160, height: 100, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .png()
    .toBuffer();
  return sharp(small).resize(width, height, { kernel: 'cubic' }).jpeg({ quality: 80 }).toBuffer();
}

const side = Math.floor(Math.sqrt(RENDER_LIMITS.maxCanvasPixels) / 4) * 4;
const frame = Math.floor(Math.sqrt(RENDER_LIMITS.maxVideoFramePixels) / 4) * 4;

/** The worst still: the largest canvas, four 40 MP photos painted full size, 120 text objects. */
function worstStill() {
  const objects: object[] = [0, 1, 2, 3].map((i) => ({
    type: 'image',
    path: `photo-${i}.jpg`,
    x: (i % 2) * (side / 2),
    y: Math.floor(i / 2) * (side / 2),
    width: side / 2,
    height: side / 2,
  }));
  for (let i = 0; i < 120; i++) {
    objects.push({
      type: 'text',
      x: (i * 97) % (side - 900),
      y: (i * 131) % (side - 200),
      width: 900,
      height: 200,
      font_size: 64,
      text: `Headline number ${i} with some words`,
      color: '#ffffff',
    });
  }
  return { width: side, height: side, background: { type: 'color', color: '#102030' }, objects };
}

/**
 * The worst video interface A accepts, as far as memory goes: the largest frame with 120 objects moving
 * every frame. Frames stream through the encoder, so 2 s peak as high as 15 s would (and finish sooner).
 */
function worstVideo() {
  const objects = Array.from({ length: 120 }, (_, i) => ({
    type: i % 3 === 0 ? 'shape' : 'text',
    ...(i % 3 === 0 ? { background: { type: 'color', color: '#e53935' } } : { text: `Moving text ${i}`, font_size: 48, color: '#ffffff' }),
    x: (i * 97) % (frame - 700),
    y: (i * 131) % (frame - 160),
    width: 700,
    height: 160,
    animations: [
      {
        type: 'keyframes',
        property: 'x',
        keyframes: [
          { time: 0, value: (i * 97) % (frame - 700) },
          { time: 2, value: ((i * 97) % (frame - 700)) + 600 },
        ],
      },
      { type: 'fade_in', duration: 1 },
    ],
  }));
  return { width: frame, height: frame, duration: 2, background: { type: 'color', color: '#0b0f19' }, objects };
}

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${base}/public/v2${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'imprint-memory-'));
  const folder = join(dir, 'designs');
  await mkdir(folder);
  const jpg = await photo(8000, 5000);
  for (let i = 0; i < 4; i++) await writeFile(join(folder, `photo-${i}.jpg`), jpg);
  const env = { IMPRINT_DATA_DIR: join(dir, 'data') };
  const service = await Service.open(configFromEnv({ ...env, IMPRINT_LOG_LEVEL: 'warn' }));
  try {
    const { account, apiKey } = await service.createAccount({ name: 'Memory' });
    await service.setPlan(account.id, { concurrency: 2, queue_size: 50 });
    key = apiKey;
    designs.still = (await service.importDesign(account.id, worstStill(), { baseDir: folder, name: 'still' })).id;
    designs.video = (await service.importDesign(account.id, worstVideo(), { baseDir: folder, name: 'video' })).id;
    designs.huge = (await service.importDesign(account.id, { ...worstVideo(), width: 8192, height: 8192 }, { baseDir: folder, name: 'huge' })).id;
  } finally {
    await service.close();
  }
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('IMPRINT_')));
  server = spawn(process.execPath, [builtBin(), 'serve'], {
    cwd: dir,
    // Two render slots, the plan's concurrency; the other settings are the defaults.
    env: {
      ...inherited,
      ...env,
      IMPRINT_PORT: '0',
      IMPRINT_SEED: '0',
      IMPRINT_WORKER_CONCURRENCY: '2',
      IMPRINT_POLL_INTERVAL_S: '0',
      ...(process.env.TEST_ARENA ? { MALLOC_ARENA_MAX: process.env.TEST_ARENA } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  base = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const m = /listening on (http:\/\/\S+) /.exec(out);
      if (m) resolve(m[1]!);
    });
    server.once('exit', (code) => reject(new Error(`imprint serve exited with ${code}`)));
  });
}, 120_000);

afterAll(async () => {
  server?.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('render memory', () => {
  it('refuses at the door what is over the budget, naming the limit', async () => {
    const r = await post('/render', { design_id: designs.huge, format: 'mp4' });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({
      error: 'validation_error',
      description:
        '$.design_id: mp4 frames may have at most 4.2 megapixels (2048×2048) and this design is 8192×8192 (67.1 megapixels): make the canvas smaller',
    });
  });

  it('keeps the server under 1 GB with the worst accepted request of each kind in flight', async () => {
    const tasks: number[] = [];
    for (const format of ['mp4', 'png', 'jpg', 'avif', 'pdf', 'webp']) {
      const r = await post('/render', { design_id: format === 'mp4' ? designs.video : designs.still, format });
      expect(r.status, format).toBe(202);
      tasks.push(((await r.json()) as { task_id: number }).task_id);
    }
    const pid = server.pid!;
    let peakServer = 0;
    let peakTotal = 0;
    // Memory is sampled every 50 ms while the tasks run; their states are read every 500 ms.
    const sampler = setInterval(() => {
      const own = rss(pid);
      peakServer = Math.max(peakServer, own);
      peakTotal = Math.max(peakTotal, own + children(pid).reduce((s, c) => s + rss(c), 0));
    }, 50);
    const states = new Map<number, { state: string; error?: { code: string } }>();
    const ended = async () => {
      for (const t of tasks) {
        const r = await fetch(`${base}/public/v2/tasks/${t}`, { headers: { authorization: `Bearer ${key}` } });
        states.set(t, (await r.json()) as { state: string });
      }
      return tasks.every((t) => ['done', 'error'].includes(states.get(t)?.state ?? ''));
    };
    try {
      await waitUntil('every task to end', ended, 280_000, 500);
    } finally {
      clearInterval(sampler);
    }
    const mb = (b: number) => Math.round(b / 1048576);
    console.log(`peak RSS: server ${mb(peakServer)} MB, with ffmpeg ${mb(peakTotal)} MB; tasks ${JSON.stringify([...states.values()])}`);
    expect(tasks.map((t) => states.get(t)?.state)).toEqual(['done', 'done', 'done', 'done', 'done', 'done']);
    expect(peakServer).toBeLessThanOrEqual(SERVER_RSS_LIMIT);
  }, 300_000);
});
