// The listing endpoints' shapes (GET /public/v2/designs, /designs/<id>, /account, /tasks) and what
// the Studio derives from them: the type label, the size text, the formats a design renders to, the
// price of a video render. The shapes are the service's zod schemas' types (src/service/shapes.ts),
// imported as types only: the bundle takes nothing from there. No DOM: unit-tested.
import type { AccountInfo, DesignDetail, DesignSummary, ObjectInfo, PriceKey, SlideInfo, TaskListItem } from '../../../src/service/shapes.js';
import type { ObjectType } from '../../../src/objects/types.js';
import type { Format, Fps, SizeType } from './render-request.js';

export type { AccountInfo, DesignDetail, DesignSummary, ObjectInfo, PriceKey, SlideInfo, TaskListItem };

// The engine's list of object types (a module that imports nothing; a type, so the bundle takes nothing from src/).
export type { ObjectType };

export type DesignType = 'image' | 'animated' | 'video';

export function designType(d: Pick<DesignSummary, 'kind' | 'animated'>): DesignType {
  if (d.kind === 'video') return 'video';
  return d.animated ? 'animated' : 'image';
}

/** "1080 × 1080". */
export function sizeText(d: Pick<DesignSummary, 'width' | 'height'>): string {
  // A print design's size may be fractional (A4 at 300 dpi: 2480.315 × 3507.874 px).
  const px = (v: number) => +v.toFixed(3);
  return `${px(d.width)} × ${px(d.height)}`;
}

/** The still formats interface A renders (webp and avif are the service's additions to the spec). */
export const STILL_FORMATS: readonly Format[] = ['png', 'jpg', 'webp', 'avif', 'pdf'];

/** The formats offered for a design: every still format, and mp4 for one that moves. */
export function formatsFor(d: Pick<DesignSummary, 'kind' | 'animated'>): Format[] {
  return designType(d) === 'image' ? [...STILL_FORMATS] : [...STILL_FORMATS, 'mp4'];
}

/** A video design's mp4 goes through interface B (price, balance, demo); everything else through A1. */
export function usesInterfaceB(d: Pick<DesignSummary, 'kind'>, format: Format): boolean {
  return d.kind === 'video' && format === 'mp4';
}

export function priceKey(size: SizeType, fps: Fps): PriceKey {
  return `${size}/${fps}`;
}

/** The price of one render, or undefined when the design has none (null prices); 0 in demo mode. */
export function renderPrice(d: Pick<DesignDetail, 'prices'>, size: SizeType, fps: Fps, demo: boolean): number | undefined {
  if (demo) return 0;
  return d.prices?.[priceKey(size, fps)] ?? undefined;
}

/** Money with two decimals at least: 0.15, 10.00, 0.125. */
export function moneyText(n: number): string {
  const fixed = n.toFixed(2);
  return Number(fixed) === n ? fixed : String(Math.round(n * 10000) / 10000);
}

/** A short local date and time for tables. */
export function timeText(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
