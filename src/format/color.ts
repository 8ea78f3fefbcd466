// Hex colours (#rgb, #rgba, #rrggbb, #rrggbbaa) → RGBA; the only colour syntax templates accept.
import type { RGBA } from '../scene/scene.js';

export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
export const HEX_COLOR_HINT = 'expected a hex colour such as "#ff8800" or "#ff880080" (#rgb, #rgba, #rrggbb or #rrggbbaa)';

/** Parses a colour already validated against HEX_COLOR. Alpha is 0..1. */
export function parseHexColor(hex: string): RGBA {
  let h = hex.slice(1);
  if (h.length <= 4) h = [...h].map((c) => c + c).join('');
  const n = (i: number): number => parseInt(h.slice(i, i + 2), 16);
  const a = h.length === 8 ? n(6) / 255 : 1;
  return [n(0), n(2), n(4), a];
}
