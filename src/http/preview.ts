// POST /public/v2/preview: a design with overrides rendered synchronously (an addition to the spec,
// used by the Studio): the image bytes, or with `Accept: application/json` the image as a data URL
// with the fit report and warnings. A thin adapter: the account guard, the body's schema, content
// negotiation and headers; the render itself is the service's (its preview threads, no task stored).
import type { FastifyInstance } from 'fastify';
import { validationError } from '../errors.js';
import { issueToError } from '../format/zod-error.js';
import type { PreviewResult } from '../service/answers.js';
import type { Service } from '../service/service.js';
import { fail, type AccountGuard } from './auth.js';
import { jsonDepth } from './errors.js';
import { PreviewRequest } from './schemas.js';

export interface PreviewRouteOptions {
  service: Service;
  /** The server's one account guard (src/http/auth.ts): key, block and the plan's requests per minute. */
  guard: AccountGuard['guard'];
}

/** As for a render request (interface A). */
const MAX_JSON_DEPTH = 32;

/** How much an Accept header wants `type`: the q of its most specific matching range, and where that range stands. */
function acceptance(ranges: readonly { type: string; q: number }[], type: string): { q: number; specificity: number; index: number } {
  const [major] = type.split('/');
  let best = { q: 0, specificity: -1, index: Infinity };
  ranges.forEach((r, index) => {
    const specificity = r.type === type ? 2 : r.type === `${major}/*` ? 1 : r.type === '*/*' ? 0 : -1;
    if (specificity > best.specificity) best = { q: r.q, specificity, index };
  });
  return best;
}

/**
 * True when the Accept header prefers JSON to the image's own type: by q-value, then by the more
 * specific range (`application/json` over `*\/*`), then by order. No Accept header: the image.
 */
export function prefersJson(accept: string | undefined, imageType: string): boolean {
  if (!accept) return false;
  const ranges = accept.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.map((p) => /^q=([\d.]+)$/.exec(p)?.[1]).find((v) => v !== undefined);
    const n = q === undefined ? 1 : Number(q);
    return { type, q: Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0 };
  });
  const json = acceptance(ranges, 'application/json');
  const image = acceptance(ranges, imageType);
  if (json.q === 0 || json.q !== image.q) return json.q > image.q;
  return json.specificity !== image.specificity ? json.specificity > image.specificity : json.index < image.index;
}

export async function previewRoutes(app: FastifyInstance, { service, guard }: PreviewRouteOptions): Promise<void> {
  // The body must be JSON (415 otherwise), as for a render request. Scoped to this plugin.
  app.removeContentTypeParser('text/plain');

  app.post('/preview', { onRequest: guard }, async (req, reply) => {
    const account = req.account!;
    // multipart/form-data has a parser (for uploads) that leaves the body empty: it is not JSON either.
    if (req.isMultipart()) throw fail('unsupported_media_type', 'send the body as application/json');
    const body = req.body;
    if (jsonDepth(body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw validationError('$', `the body nests deeper than ${MAX_JSON_DEPTH} levels: flatten it`);
    const parsed = PreviewRequest.safeParse(body);
    if (!parsed.success) throw issueToError(parsed.error.issues[0]!, body, { root: '$', schema: PreviewRequest });
    // The client closing the connection first (the Studio aborts a preview a newer edit replaces).
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    const preview = await service.preview(account, parsed.data, gone.signal);
    reply
      .header('server-timing', `render;dur=${preview.renderMs.toFixed(1)}`)
      .header('x-imprint-scale', String(preview.scale))
      .header('cache-control', 'no-store')
      .header('vary', 'Accept');
    if (prefersJson(req.headers.accept, preview.mimeType)) {
      return reply.send({
        image: `data:${preview.mimeType};base64,${preview.bytes.toString('base64')}`,
        width: preview.width,
        height: preview.height,
        scale: preview.scale,
        report: preview.report,
        warnings: preview.warnings,
      } satisfies PreviewResult);
    }
    return reply.header('content-type', preview.mimeType).send(preview.bytes);
  });
}
