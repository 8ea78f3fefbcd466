// One design as the HTTP API and the Studio see it (DesignDetail, shapes.ts): its named objects with
// type, box and the JSON Schema of the override entry the API validates them with (made from each
// type's zod schema, the one source), the template's current values of those fields, its slides, and
// what interface B would charge for one render of it on the account's plan.
import { toJson, type JsonSchema } from '../design/json-schema.js';
import { parseDesign } from '../design/parse.js';
import { slotsOf } from '../design/slots.js';
import { ImprintError } from '../errors.js';
import { stillTime } from '../layout/timeline.js';
import { handlerForType, type DesignObject, type ObjectType } from '../objects/registry.js';
import { checkRenderable, MAX_SLIDE_VIDEO_SECONDS } from '../render-checks.js';
import { resolveScene } from '../resolve/resolve.js';
import { slideTimes } from '../resolve/slides.js';
import type { Account, DesignRecord } from '../store/metadata/records.js';
import { priceFor } from './billing.js';
import type { ServiceContext } from './context.js';
import { designShape, designSummaryJson, getDesign } from './designs.js';
import { accountFontSet } from './fonts.js';
import type { DesignDetail, ObjectInfo, Prices } from './shapes.js';
import { VIDEO_FPS, VIDEO_SIZES } from '../output-formats.js';
import { videoRate } from './videos.js';

/** Override schemas per object type, made once: they are the same for every design. */
const schemas = new Map<ObjectType, Record<string, unknown>>();
function overrideSchema(type: ObjectType): Record<string, unknown> {
  let s = schemas.get(type);
  if (!s) {
    s = toJson(handlerForType(type)!.override);
    delete s.$schema;
    schemas.set(type, s);
  }
  return s;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The part of a template value the override schema describes: nested option objects (config,
 * background, border) keep only the fields an override may set, so `values` is a valid override entry.
 */
function project(value: unknown, schema: JsonSchema | undefined): unknown {
  if (!schema?.properties || !isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (Object.hasOwn(schema.properties, k)) out[k] = project(v, schema.properties[k]);
  return out;
}

function valuesOf(object: DesignObject, schema: JsonSchema): Record<string, unknown> {
  const values = project(object, schema) as Record<string, unknown>;
  // A mockup's layers are set in the template as `layers`, overridden by id in `mockup_data`: the
  // current colour and visibility of each, in the override's own shape.
  if (object.type === 'mockup') {
    values.mockup_data = Object.fromEntries(
      object.layers.map((l) => [l.id, { ...(l.kind === 'color' && l.color !== undefined ? { color: l.color } : {}), hidden: l.hidden ?? false }]),
    );
  }
  return values;
}

/** What interface B would charge for one render of this scene at each size and frame rate (the same checks as B1). */
function pricesOf(account: Account, scene: Parameters<typeof checkRenderable>[0]): Prices | null {
  if (scene.duration === null) return null;
  const duration = scene.duration;
  const prices = {} as Prices;
  for (const size of VIDEO_SIZES) {
    for (const fps of VIDEO_FPS) {
      let price: number | null = priceFor(duration, videoRate(account.plan, size, fps));
      try {
        checkRenderable(scene, { format: 'mp4', fps, maxDuration: MAX_SLIDE_VIDEO_SECONDS });
      } catch (e) {
        if (!(e instanceof ImprintError)) throw e;
        price = null;
      }
      prices[`${size}/${fps}`] = price;
    }
  }
  return Object.values(prices).every((p) => p === null) ? null : prices;
}

/** The detail of a stored design (GET /public/v2/designs/<id>, and the answer to an import). */
export async function describeDesign(ctx: ServiceContext, account: Account, record: DesignRecord): Promise<DesignDetail> {
  const fonts = await accountFontSet(ctx, account.id, record.template);
  const design = parseDesign(record.template, fonts);
  const slides = design.slides ?? [];
  const slots = slotsOf(design);
  const objects: ObjectInfo[] = [];
  for (const { object, slide, at } of slots) {
    if (object.name === undefined) continue;
    const schema = overrideSchema(object.type);
    objects.push({
      name: object.name,
      path: at,
      type: object.type,
      slide: slide === null ? null : (slides[slide]!.name ?? null),
      box: { x: object.x, y: object.y, width: object.width, height: object.height },
      rotation: object.rotation ?? 0,
      override_schema: schema,
      values: valuesOf(object, schema),
      ...(object.type === 'mockup' ? { layers: object.layers.map((l) => ({ id: l.id, kind: l.kind })) } : {}),
    });
  }
  const { starts } = slideTimes(slides);
  let prices: Prices | null;
  let posterTime: number | null = null;
  try {
    const scene = resolveScene(design, {}, fonts);
    prices = pricesOf(account, scene);
    if (scene.duration !== null) posterTime = stillTime(scene);
  } catch (e) {
    // A template that does not resolve without overrides cannot be rendered by B either.
    if (!(e instanceof ImprintError)) throw e;
    prices = null;
  }
  return {
    ...designSummaryJson(record, designShape(record.template), await ctx.meta.hasDraft(account.id, record.id)),
    version: record.version,
    background: design.background?.type === 'color' ? (design.background.color ?? null) : null,
    slides: slides.map((s, i) => ({
      name: s.name ?? null,
      duration: s.duration,
      start: starts[i]!,
      objects: [...new Set(slots.flatMap((x) => (x.slide === i && x.object.name !== undefined ? [x.object.name] : [])))],
    })),
    objects,
    prices,
    poster_time: posterTime,
  };
}

/**
 * A design of this account by id, described, with its latest version or `version`; design_not_found
 * for an unknown one or another account's, version_not_found for a version it does not keep.
 */
export async function designDetail(ctx: ServiceContext, account: Account, designId: unknown, version?: number): Promise<DesignDetail> {
  return describeDesign(ctx, account, await getDesign(ctx, account.id, designId, { version }));
}
