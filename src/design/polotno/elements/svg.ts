// Polotno svg elements → Imprint svg objects: the drawing stretched to its box (or kept in aspect), its
// colours replaced, rounded and bordered, and a frame (maskSrc: a picture seen through the drawing).
import type { Converter } from '../context.js';
import { CSS_COLOR_HINT, cssColorToHex } from '../css-color.js';
import type { SvgInput } from '../imprint-types.js';
import type { PolotnoSvg } from '../schema.js';
import { color, refuse, round } from '../shared.js';
import { animationsOf, begin, commonEffects } from './common.js';

export function convertSvg(c: Converter, e: PolotnoSvg, at: string, pageSeconds: number): SvgInput {
  const { base } = begin(e, 'svg', { defaultWidth: 100, height: e.height ?? 100 });
  const legacy = (e.src === undefined || e.src === '') && e.svgSource !== undefined;
  const out: SvgInput = { ...base, path: c.source(legacy ? e.svgSource : e.src, `${at}.${legacy ? 'svgSource' : 'src'}`, 'svg', 'svg') };
  for (const f of ['cropX', 'cropY', 'cropWidth', 'cropHeight', 'flipX', 'flipY', 'clipSrc'] as const) {
    const v = e[f];
    const neutral = f === 'cropWidth' || f === 'cropHeight' ? 1 : f === 'clipSrc' ? '' : f === 'flipX' || f === 'flipY' ? false : 0;
    if (v !== undefined && v !== neutral) refuse(at, f, `${f} is not supported on svg elements: remove it (edit the SVG file instead)`);
  }
  // Polotno stretches an svg to its box unless stretchEnabled is off (then it keeps its aspect, as an <img>).
  out.config = { media_replacement_strategy: e.stretchEnabled === false ? 'contain' : 'fill' };
  if (e.maskSrc) {
    // A frame: Polotno draws the drawing, then the picture over it with "source-in" (the picture
    // where the drawing is), the picture cut to the box's aspect around its centre.
    if (e.stretchEnabled === false) {
      refuse(
        at,
        'stretchEnabled',
        'a frame (an svg with maskSrc) with stretchEnabled false is cut by Polotno from the top-left corner of the drawing stretched to the picture, which Imprint cannot draw: set stretchEnabled to true (the default)',
      );
    }
    out.fill_image = c.source(e.maskSrc, `${at}.maskSrc`, 'picture of the frame (maskSrc)', 'image');
  }
  // Polotno rounds the clip of the drawing, and draws the border as a node of its own (its opacity,
  // no shadow) on top; the svg object draws both the same way.
  const cornerRadius = e.cornerRadius ?? 0;
  if (cornerRadius > 0) out.corner_radius = round(cornerRadius);
  const borderSize = e.borderSize ?? 0;
  if (borderSize > 0) out.border = { width: borderSize, color: color(e.borderColor ?? 'black', `${at}.borderColor`) };
  const replace = e.colorsReplace && !Array.isArray(e.colorsReplace) ? Object.entries(e.colorsReplace) : [];
  if (replace.length) {
    out.colors = Object.fromEntries(
      replace.map(([from, to]) => {
        if (cssColorToHex(from) === undefined)
          refuse(at, `colorsReplace.${from}`, `${CSS_COLOR_HINT} as the colour to replace but received ${JSON.stringify(from)}`);
        return [from, color(to, `${at}.colorsReplace.${from}`)];
      }),
    );
  }
  commonEffects(e, at, out);
  animationsOf(e.animations, out, at, pageSeconds);
  return out;
}
