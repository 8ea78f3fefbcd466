// SVG objects: override fields path, colors (merged key by key), config and shadow; the colour map is
// normalised here to the #rrggbbaa keys layout compares the file's colours in.
import { validationError } from '../../errors.js';
import { shadowOf } from '../../format/shadow.js';
import { parseHexColor } from '../../format/color.js';
import { parseImageRef } from '../../format/image-ref.js';
import { childPath } from '../../format/json-path.js';
import type { RGBA, SceneSvg } from '../../scene/scene.js';
import { colorKey, parseSvgColor } from '../../svg/color.js';
import { mergeFields, placementOf } from '../common.js';
import type { ObjectHandler } from '../handler.js';
import { MEDIA_ALIASES } from '../media.js';
import { SvgOverride, SvgObject } from './schema.js';

export const svgHandler: ObjectHandler<typeof SvgObject, typeof SvgOverride, SceneSvg> = {
  type: 'svg',
  schema: SvgObject,
  what: 'an svg object',
  override: SvgOverride,
  // Nested objects merge key by key, so an override's colours add to (or replace) the template's.
  merge: mergeFields,
  check(o, at) {
    parseImageRef(o.path, childPath(at, 'path'));
    if (o.fill_image !== undefined) parseImageRef(o.fill_image, childPath(at, 'fill_image'));
    // An override may style a border the template does not have; then it must give both fields.
    for (const field of ['width', 'color'] as const) {
      if (o.border && o.border[field] === undefined) {
        throw validationError(
          childPath(at, 'border', field),
          `the svg has no border to restyle: give border.${field} (${field === 'width' ? 'in pixels' : '#rrggbb or #rrggbbaa'}) as well`,
        );
      }
    }
  },
  toScene(o, fieldPath): SceneSvg {
    const pathAt = fieldPath('path');
    const colors: Record<string, RGBA> = {};
    // The schema has checked every key; later entries (an override's) win over equal earlier ones.
    for (const [from, to] of Object.entries(o.colors ?? {})) colors[colorKey(parseSvgColor(from)!)] = parseHexColor(to);
    const strategy = o.config?.media_replacement_strategy;
    return {
      type: 'svg',
      ...placementOf(o),
      svg: { ...parseImageRef(o.path, pathAt), at: pathAt },
      colors,
      fit: strategy === undefined ? null : MEDIA_ALIASES[strategy],
      ...(o.fill_image !== undefined ? { fillImage: { ...parseImageRef(o.fill_image, fieldPath('fill_image')), at: fieldPath('fill_image') } } : {}),
      ...(o.corner_radius ? { cornerRadius: o.corner_radius } : {}),
      ...(o.border?.width && o.border.color !== undefined ? { border: { width: o.border.width, color: parseHexColor(o.border.color) } } : {}),
      ...(o.shadow ? { shadow: shadowOf(o.shadow) } : {}),
    };
  },
  assets(o) {
    return { images: o.fillImage ? [o.fillImage] : [], svgs: [o.svg] };
  },
};
