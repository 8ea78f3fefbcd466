// The one walk over a display list that every paint backend is driven by, and the helpers about
// display lists that backends and their image preparation share.
import type { DisplayItem, Matrix } from '../scene/display-list.js';
import type { GroupItem, ItemOf, PageInput, PaintBackend, PreparedPage } from './backend.js';

/** Prepares every page (the only asynchronous part), then paints them in order and finishes. */
export async function paintPages<Output, Page extends PreparedPage>(backend: PaintBackend<Output, Page>, pages: readonly PageInput[]): Promise<Output> {
  const prepared = await Promise.all(pages.map((p) => backend.prepare(p)));
  // Synchronous from here to finish: backends rely on it (pooled canvases, pdfkit's current page).
  for (const page of prepared) {
    backend.beginPage(page);
    paintItems(backend, page.list.items);
    backend.endPage();
  }
  return backend.finish();
}

export function paintItems<Output, Page extends PreparedPage>(backend: PaintBackend<Output, Page>, items: readonly DisplayItem[]): void {
  for (const it of items) {
    switch (it.kind) {
      case 'group':
        paintGroup(backend, it);
        break;
      case 'fill':
        backend.fill(it);
        break;
      case 'gradient':
        backend.gradient(it);
        break;
      case 'stroke':
        backend.stroke(it);
        break;
      case 'image':
        backend.image(it);
        break;
      case 'image_quad':
        backend.imageQuad(it);
        break;
      case 'glyphs':
        backend.glyphs(it);
        break;
      case 'link':
        backend.link(it);
        break;
    }
  }
}

function paintGroup<Output, Page extends PreparedPage>(backend: PaintBackend<Output, Page>, g: GroupItem): void {
  if (g.opacity <= 0) return;
  backend.save();
  backend.transform(g.transform);
  if (needsLayer(g)) {
    if (backend.beginLayer(g)) {
      if (g.clip) backend.clip(g.clip, g.clipEvenOdd === true);
      paintItems(backend, g.items);
      if (g.mask) {
        backend.beginMask(g);
        paintItems(backend, g.mask.items);
        backend.endMask(g);
      }
      backend.endLayer(g);
    }
  } else {
    // One painted thing (or none) cannot overlap itself: its opacity and blend apply directly.
    backend.opacity(g.opacity);
    const blend = g.blend ?? 'normal';
    if (blend !== 'normal') backend.blend(blend);
    if (g.clip) backend.clip(g.clip, g.clipEvenOdd === true);
    paintItems(backend, g.items);
  }
  backend.restore();
}

/**
 * A group must be composited as one layer when it is see-through or blended and paints more than one
 * thing, or when it casts a shadow (the shadow is of the layer's silhouette, drawn as it composites)
 * or is blurred (the blur is of the composited layer, as CSS filters apply to the whole element).
 */
export function needsLayer(g: GroupItem): boolean {
  if (g.shadow || (g.blur ?? 0) > 0 || g.mask) return true;
  return (g.opacity < 1 || (g.blend ?? 'normal') !== 'normal') && leafCount(g.items) > 1;
}

/** How many things the items paint: a clip counts as one (it cuts what it holds); links paint nothing. */
export function leafCount(items: readonly DisplayItem[]): number {
  let n = 0;
  for (const it of items) n += it.kind === 'group' ? leafCount(it.items) + (it.clip ? 1 : 0) : it.kind === 'link' ? 0 : 1;
  return n;
}

/** The geometric mean of the axis scales: what one local unit measures in device units. */
export function matrixScale([a, b, c, d]: Matrix): number {
  return Math.sqrt(Math.abs(a * d - b * c));
}

export type ImageItem = ItemOf<'image' | 'image_quad'>;

/** Every image item in paint order, with the scale of its group relative to the page (for decode sizes). */
export function imageItems(items: readonly DisplayItem[], scale = 1, out: { item: ImageItem; scale: number }[] = []): { item: ImageItem; scale: number }[] {
  for (const it of items) {
    if (it.kind === 'group') {
      imageItems(it.items, scale * matrixScale(it.transform), out);
      if (it.mask) imageItems(it.mask.items, scale * matrixScale(it.transform), out);
    } else if (it.kind === 'image' || it.kind === 'image_quad') out.push({ item: it, scale });
  }
  return out;
}
