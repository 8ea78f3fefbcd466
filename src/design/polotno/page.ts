// One Polotno page → its Imprint objects in paint order: each element by its type's converter
// (elements/), groups flattened into their elements, and where each object came from recorded.
import type { Converter } from './context.js';
import type { Shaped } from './elements/common.js';
import { convertFigure } from './elements/figure.js';
import { applyGroups, enterGroup, UNGROUPED, withGroupAnimations, type Inherited } from './elements/group.js';
import { convertImage } from './elements/image.js';
import { convertLine } from './elements/line.js';
import { convertSvg } from './elements/svg.js';
import { convertText } from './elements/text.js';
import { convertVideo } from './elements/video.js';
import type { ConvertedObject } from './imprint-types.js';
import type { PolotnoElement, PolotnoPage } from './schema.js';

/**
 * The objects of page `index`, which lasts `seconds`; `objectsAt` is where they go in the design
 * (`$.objects`, or `$.slides[i].objects` for a document of several pages).
 */
export function convertPage(c: Converter, page: PolotnoPage, index: number, seconds: number, objectsAt: string): ConvertedObject[] {
  const p = new Page(c, seconds, objectsAt);
  ordered(page.children).forEach(({ e, i }) => p.add(e, c.at(['pages', index, 'children', i]), UNGROUPED));
  return p.objects;
}

class Page {
  readonly objects: ConvertedObject[] = [];
  constructor(
    readonly c: Converter,
    readonly seconds: number,
    readonly objectsAt: string,
  ) {}

  add(e: PolotnoElement, at: string, inherited: Inherited): void {
    if (e.showInExport === false) return;
    if (e.type === 'group') {
      const { children, next } = enterGroup(e, at, inherited);
      ordered(children).forEach(({ e: child, i }) => this.add(child, `${at}.children[${i}]`, next));
      return;
    }
    const out = this.convert(withGroupAnimations(e, inherited), at);
    applyGroups(out, inherited);
    const path = `${this.objectsAt}[${this.objects.length}]`;
    // Field-level origins first (they are more specific), then the element as a whole.
    for (const [imprintField, polotnoField] of FIELD_ORIGINS) this.c.origin(`${path}.${imprintField}`, `${at}.${polotnoField}`);
    this.c.origin(path, at);
    this.objects.push(out);
  }

  private convert(e: Shaped, at: string): ConvertedObject {
    const { c, seconds } = this;
    switch (e.type) {
      case 'text':
        return convertText(c, e, at, seconds);
      case 'image':
        return convertImage(c, e, at, seconds);
      case 'video':
        return convertVideo(c, e, at, seconds);
      case 'figure':
        return convertFigure(e, at, seconds);
      case 'line':
        return convertLine(e, at, seconds);
      case 'svg':
        return convertSvg(c, e, at, seconds);
    }
  }
}

/** Where Imprint fields came from, for errors found once the design is validated. */
const FIELD_ORIGINS: [string, string][] = [
  ['font_family', 'fontFamily'],
  ['font_size', 'fontSize'],
  ['font_weight', 'fontWeight'],
  ['line_height', 'lineHeight'],
  ['letter_spacing', 'letterSpacing'],
  ['text', 'text'],
  ['corner_radius', 'cornerRadius'],
  ['path', 'src'],
  ['fill_image', 'maskSrc'],
  ['animations', 'animations'],
  ['x', 'x'],
  ['y', 'y'],
  ['width', 'width'],
  ['height', 'height'],
];

/** Children in paint order: alwaysOnTop ones after the others, each keeping its index for paths. */
function ordered(children: readonly PolotnoElement[]): { e: PolotnoElement; i: number }[] {
  const all = children.map((e, i) => ({ e, i }));
  return [...all.filter((x) => !x.e.alwaysOnTop), ...all.filter((x) => x.e.alwaysOnTop)];
}
