// The listing endpoints' shapes (GET /public/v2/designs, /designs/<id>, /account, /tasks) and what
// the Studio derives from them: the type label, the size text, the formats a design renders to, the
// price of a video render. No DOM: unit-tested.
import type { ObjectType } from '../../../src/objects/types.js';
import type { JsonSchema } from './json-schema.js';
import type { Format, Fps, SizeType } from './render-request.js';
import type { SlideInfo } from './timeline.js';

export interface DesignSummary {
  design_id: number;
  name: string;
  kind: 'design' | 'video';
  width: number;
  height: number;
  /** Seconds; null for a still. */
  duration: number | null;
  animated: boolean;
  created_at: string;
  updated_at: string;
}

// The engine's list of object types (a module that imports nothing; a type, so the bundle takes nothing from src/).
export type { ObjectType };

export interface ObjectInfo {
  /** Several objects may share a name (a role): one override entry applies to all of them. */
  name: string;
  /** Where the object is in the template (absent from an older service): unique where names repeat. */
  path?: string;
  type: ObjectType;
  slide: string | null;
  box: { x: number; y: number; width: number; height: number };
  rotation: number;
  override_schema: JsonSchema;
  values: Record<string, unknown>;
  /** A mockup's layers (an addition of the service; the form also takes ids from values.mockup_data). */
  layers?: { id: string; kind?: string }[];
}

export type PriceKey = 'sd/30' | 'sd/60' | 'hd/30' | 'hd/60';

export interface DesignDetail extends DesignSummary {
  background: string | null;
  slides: SlideInfo[];
  objects: ObjectInfo[];
  /** Interface B's price of one render per size/fps; null where B would refuse it, or for a still. */
  prices: Record<PriceKey, number | null> | null;
  /** The second a still of this design shows (where the editor opens it); null for a still design. */
  poster_time: number | null;
}

export interface AccountInfo {
  account_id: number;
  name: string;
  plan: string;
  balance: number;
  requests_per_minute: number;
  video: { rates: Partial<Record<PriceKey, number>>; demo_renders_left_today: number; renders_left_today: number };
}

export interface TaskListItem {
  id: number;
  interface: 'A' | 'B';
  design_id: number;
  format: string;
  state: 'queued' | 'pending' | 'done' | 'error';
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  result_url?: string;
  error?: { code: string; description: string };
}

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
