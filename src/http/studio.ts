// Serves the Studio, the web page built by studio/build.mjs into dist/studio/: GET /studio (and
// /studio/) answers index.html, GET /studio/<file> the files beside it — only those, read from the
// folder's listing, so no request path can reach another file. Every answer carries the Studio's
// security headers (a strict CSP: the page's own script and style files only; no framing, no
// referrer). Without a build, /studio says to run `npm run build` (503).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorReply } from './errors.js';

/**
 * dist/studio/ of this package. This module runs from dist/pkg/ (bundled) or dist/http/ (tsc's
 * output) or src/http/ (tests): each two folders below the package root, as fonts/ is found.
 */
export const STUDIO_DIR = fileURLToPath(new URL('../../dist/studio/', import.meta.url));

/**
 * The Studio's security headers. `imageOrigins`: where else result pictures may come from — the
 * bucket that presigned result URLs point into when results are in S3 (the service answers a result
 * address with a redirect there), so the task list's thumbnails load; nothing else is allowed.
 */
export function studioHeaders(imageOrigins: readonly string[] = []): Readonly<Record<string, string>> {
  const img = ["'self'", 'data:', 'blob:', ...imageOrigins].join(' ');
  return {
    'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src ${img}; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
}

export const STUDIO_HEADERS = studioHeaders();

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** A file name the build writes: no folders, no dot files, nothing to interpret. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

interface StudioFile {
  body: Buffer;
  type: string;
  etag: string;
  /** Content-hashed names (app.<hash>.js, fonts) never change: cached for a year; index.html is revalidated. */
  immutable: boolean;
}

interface Build {
  /** index.html's modification time: a new `npm run build` while the service runs is picked up. */
  version: number;
  files: Map<string, StudioFile>;
}

/** index.html's modification time, or undefined when there is no build. */
function buildVersion(dir: string): number | undefined {
  try {
    const st = statSync(join(dir, 'index.html'));
    return st.isFile() ? st.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

/** The built files (a dozen, under 1 MB with the interface font), read into memory at once. */
function loadFiles(dir: string, version: number): Build | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  const files = new Map<string, StudioFile>();
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (!type || !FILE_NAME.test(name)) continue;
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    const body = readFileSync(path);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    files.set(name, { body, type, etag, immutable: /\.[0-9a-f]{8,}\.(js|css|map|woff2)$/.test(name) });
  }
  return { version, files };
}

export interface StudioOptions {
  /** Where the built Studio is; default dist/studio/ of this package. */
  dir?: string;
  /** Origins result pictures are redirected to (S3), allowed as image sources; default none. */
  imageOrigins?: readonly string[];
}

export async function studio(app: FastifyInstance, opts: StudioOptions): Promise<void> {
  const dir = opts.dir ?? STUDIO_DIR;
  const headers = studioHeaders(opts.imageOrigins);
  let build: Build | undefined;

  const secure = (reply: FastifyReply) => {
    for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    return reply;
  };

  const send = async (name: string, ifNoneMatch: string | undefined, reply: FastifyReply) => {
    secure(reply);
    // One stat per request: cheap next to the answer, and a rebuild needs no restart.
    const version = buildVersion(dir);
    if (version === undefined) build = undefined;
    else if (build?.version !== version) build = loadFiles(dir, version);
    if (!build) {
      return reply
        .status(503)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send('The Imprint Studio is not built: run `npm run build` (it writes dist/studio/), then reload this page.\n');
    }
    const file = FILE_NAME.test(name) ? build.files.get(name) : undefined;
    if (!file) {
      const out = errorReply('not_found', `the Studio has no file "${name.slice(0, 100)}": open /studio`);
      return reply.status(out.status).header('cache-control', 'no-store').send(out.body);
    }
    reply
      .header('content-type', file.type)
      .header('etag', file.etag)
      .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (ifNoneMatch === file.etag) return reply.status(304).send();
    return reply.send(file.body);
  };

  app.get('/studio', async (req, reply) => send('index.html', req.headers['if-none-match'], reply));
  app.get('/studio/', async (req, reply) => send('index.html', req.headers['if-none-match'], reply));
  app.get<{ Params: { '*': string } }>('/studio/*', async (req, reply) => send(req.params['*'], req.headers['if-none-match'], reply));
}
