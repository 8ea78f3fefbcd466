// Mockup objects: override field mockup_data.<layer_id> with image_url, color and hidden; layers
// checked for what their kind needs, then resolved into scene layers.
import { validationError } from '../../errors.js';
import { parseHexColor } from '../../format/color.js';
import { parseImageRef } from '../../format/image-ref.js';
import { childPath } from '../../format/json-path.js';
import type { MediaFit, SceneMockup, SceneMockupLayer } from '../../scene/scene.js';
import { shadowOf } from '../../format/shadow.js';
import { mergeFields, placementOf } from '../common.js';
import type { ObjectHandler } from '../handler.js';
import { MEDIA_ALIASES } from '../media.js';
import { MockupOverride, type LayerChanges, type MockupLayer, MockupObject } from './schema.js';

const KIND_ARTICLE = { image: 'an', color: 'a', artwork: 'an' } as const;

// Layers whose picture came from an override, with the override's path, so a missing or broken
// image is reported where the caller wrote it.
const overriddenImageAt = new WeakMap<MockupLayer, string>();

function applyLayerChanges(o: MockupObject, data: Record<string, LayerChanges>, at: string): MockupObject {
  const byId = new Map(o.layers.map((l, i) => [l.id, i]));
  const layers = [...o.layers];
  for (const [id, changes] of Object.entries(data)) {
    const lat = childPath(at, 'mockup_data', id);
    const index = byId.get(id);
    if (index === undefined) {
      throw validationError(lat, `the mockup has no layer "${id}": use one of ${o.layers.map((l) => JSON.stringify(l.id)).join(', ') || '(none)'}`);
    }
    const layer = layers[index]!;
    const misfit = (field: 'image_url' | 'color', worksOn: string): never => {
      const fix = layer.kind === 'artwork' ? 'artwork layers can only be hidden: remove it' : `give ${layer.kind === 'color' ? 'color' : 'image_url'} instead`;
      throw validationError(
        childPath(lat, field),
        `layer "${id}" is ${KIND_ARTICLE[layer.kind]} ${layer.kind} layer: ${field} works on ${worksOn} layers; ${fix}`,
      );
    };
    if (changes.image_url !== undefined && layer.kind !== 'image') misfit('image_url', 'image');
    if (changes.color !== undefined && layer.kind !== 'color') misfit('color', 'color');
    if (changes.image_url !== undefined) parseImageRef(changes.image_url, childPath(lat, 'image_url'));
    const changed: MockupLayer = {
      ...layer,
      ...(changes.image_url === undefined ? {} : { path: changes.image_url }),
      ...(changes.color === undefined ? {} : { color: changes.color }),
      ...(changes.hidden === undefined ? {} : { hidden: changes.hidden }),
    };
    if (changes.image_url !== undefined) overriddenImageAt.set(changed, childPath(lat, 'image_url'));
    layers[index] = changed;
  }
  return { ...o, layers };
}

function checkLayer(l: MockupLayer, at: string): void {
  if ((l.area === undefined) === (l.quad === undefined)) {
    throw validationError(at, `layer "${l.id}" needs exactly one of area {x, y, width, height} or quad [[x, y] × 4]`);
  }
  const needs = (field: keyof MockupLayer, why: string): void => {
    if (l[field] === undefined) throw validationError(childPath(at, field), why);
  };
  const refuses = (field: keyof MockupLayer): void => {
    if (l[field] !== undefined) throw validationError(childPath(at, field), `${field} does not apply to ${l.kind} layers: remove it`);
  };
  if (l.kind === 'color') {
    needs('color', `color layer "${l.id}" needs a color, e.g. "#e4572e"`);
    refuses('path');
    refuses('fit');
  } else {
    refuses('color');
    refuses('mask');
    if (l.kind === 'artwork') {
      needs('path', `artwork layer "${l.id}" needs a path to its image`);
      refuses('fit');
    }
  }
  for (const f of ['path', 'mask'] as const) if (l[f] !== undefined) parseImageRef(l[f], childPath(at, f));
}

export const mockupHandler: ObjectHandler<typeof MockupObject, typeof MockupOverride, SceneMockup> = {
  type: 'mockup',
  schema: MockupObject,
  what: 'a mockup object',
  override: MockupOverride,
  merge(o, ov, at) {
    const { mockup_data, ...rest } = ov as { mockup_data?: Record<string, LayerChanges> };
    return mergeFields(mockup_data ? applyLayerChanges(o, mockup_data, at) : o, rest);
  },
  check(o, at) {
    parseImageRef(o.base, childPath(at, 'base'));
    const seen = new Set<string>();
    o.layers.forEach((l, i) => {
      const lat = childPath(at, 'layers', i);
      if (seen.has(l.id))
        throw validationError(childPath(lat, 'id'), `layer id "${l.id}" is used twice: ids must be unique so mockup_data addresses one layer`);
      seen.add(l.id);
      checkLayer(l, lat);
    });
  },
  toScene(o, fieldPath): SceneMockup {
    const ref = (path: string, at: string) => ({ ...parseImageRef(path, at), at });
    const layersAt = fieldPath('layers');
    const imageAt = (i: number, l: MockupLayer): string => overriddenImageAt.get(l) ?? childPath(layersAt, i, 'path');
    const layers: SceneMockupLayer[] = [];
    o.layers.forEach((l, i) => {
      if (l.hidden) return;
      const base = {
        id: l.id,
        area: l.quad ? ({ kind: 'quad', quad: l.quad } as const) : ({ kind: 'rect', rect: l.area! } as const),
        opacity: l.opacity ?? 1,
        blend: l.blend ?? 'normal',
      };
      if (l.kind === 'image') {
        const fit: MediaFit = MEDIA_ALIASES[l.fit ?? 'cover'];
        layers.push({ ...base, kind: 'image', image: l.path === undefined ? null : ref(l.path, imageAt(i, l)), fit });
      } else if (l.kind === 'color') {
        layers.push({
          ...base,
          kind: 'color',
          color: parseHexColor(l.color!),
          mask: l.mask === undefined ? null : ref(l.mask, childPath(layersAt, i, 'mask')),
        });
      } else {
        layers.push({ ...base, kind: 'artwork', image: ref(l.path!, childPath(layersAt, i, 'path')) });
      }
    });
    return { type: 'mockup', ...placementOf(o), base: ref(o.base, fieldPath('base')), layers, ...(o.shadow ? { shadow: shadowOf(o.shadow) } : {}) };
  },
  assets(o) {
    // The base, then each visible layer's picture or mask.
    return { images: [o.base, ...o.layers.flatMap((l) => (l.kind === 'color' ? l.mask : l.image) ?? [])] };
  },
};
