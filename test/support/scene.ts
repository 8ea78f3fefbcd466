// Test helpers: build a design around one object, lay it out, and read lines back from the display list.
import { parseDesign } from '../../src/design/parse.js';
import type { DesignInput } from '../../src/engine.js';
import type { DisplayItem, DisplayList } from '../../src/scene/display-list.js';
import { layout, type ImageSizes, type LayoutResult } from '../../src/layout/layout.js';
import { resolveScene } from '../../src/resolve/resolve.js';
import { bundledFonts } from '../../src/text/fonts.js';

/** A design around `objects`, unchecked: the engine (or `layoutOf`) validates it, so tests can pass bad objects too. */
export function designWith(objects: unknown[], extra: Record<string, unknown> = {}): DesignInput {
  return { width: 600, height: 400, fonts: ['Inter', 'Lora'], objects, ...extra } as DesignInput;
}

export function layoutOf(design: unknown, overrides: unknown = {}, images: ImageSizes = new Map()): LayoutResult {
  return layout(resolveScene(parseDesign(design), overrides), images, bundledFonts());
}

type Group = Extract<DisplayItem, { kind: 'group' }>;

/** The group of the n-th object (item 0 is the canvas background). */
export function objectGroup(list: DisplayList, n: number): Group {
  const g = list.items[n + 1];
  if (!g || g.kind !== 'group') throw new Error(`no object group ${n}`);
  return g;
}

/** Text of each painted line, joined from glyph runs that share a baseline. */
export function lineTexts(group: Group): string[] {
  const byBaseline = new Map<number, string>();
  for (const it of group.items) {
    if (it.kind !== 'glyphs') continue;
    const y = Math.round(it.glyphs[0]!.y * 100) / 100;
    byBaseline.set(y, (byBaseline.get(y) ?? '') + it.text);
  }
  return [...byBaseline.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
}
