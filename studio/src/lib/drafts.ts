// The edits of a design kept for the tab (sessionStorage): what the user typed, uploaded or dragged
// survives going to another view, Back, a reload or a crash of the page, and comes back when the
// design is opened again in the same tab. Kept per account and design; read defensively (storage is
// the user's to change), written on every change. No DOM beyond the Storage interface.
import type { Json, Overrides, SlideOverride } from './overrides.js';

/** What the editor keeps of a design between visits. */
export interface Draft {
  overrides: Overrides;
  /** A video design's replaced slide backgrounds, by slide name. */
  slides: Record<string, SlideOverride>;
  /** The object that was selected, if any. */
  selected: string | null;
  /** The timeline's second, for a design that moves. */
  time: number | null;
  /** The design's `updated_at` when the draft was made: a later one means the design changed since. */
  designUpdatedAt: string;
}

/** The part of the Web Storage API drafts use (sessionStorage in the page, a Map in tests). */
export type DraftStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

const PREFIX = 'imprint.studio.draft';
const keyOf = (accountId: number, designId: number) => `${PREFIX}.${accountId}.${designId}`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isJson(v: unknown, depth = 0): v is Json {
  if (depth > 64) return false;
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  return isRecord(v) && Object.values(v).every((x) => isJson(x, depth + 1));
}

/** A draft is a draft only when it holds edits: selection and time alone are not worth asking about. */
export function hasEdits(d: Pick<Draft, 'overrides' | 'slides'>): boolean {
  return Object.keys(d.overrides).length > 0 || Object.keys(d.slides).length > 0;
}

/** The stored draft of a design, or null when there is none or it cannot be read (never throws). */
export function loadDraft(storage: DraftStore, accountId: number, designId: number): Draft | null {
  let raw: string | null;
  try {
    raw = storage.getItem(keyOf(accountId, designId));
  } catch {
    return null;
  }
  if (raw === null) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(v) || !isRecord(v.overrides) || !isRecord(v.slides) || typeof v.designUpdatedAt !== 'string') return null;
  const overrides: Overrides = {};
  for (const [name, entry] of Object.entries(v.overrides)) {
    if (!isRecord(entry) || !isJson(entry)) return null;
    Object.defineProperty(overrides, name, { value: entry, enumerable: true, writable: true, configurable: true });
  }
  const slides: Record<string, SlideOverride> = {};
  for (const [name, slide] of Object.entries(v.slides)) {
    if (!isRecord(slide) || typeof slide.path !== 'string') return null;
    Object.defineProperty(slides, name, { value: { path: slide.path }, enumerable: true, writable: true, configurable: true });
  }
  return {
    overrides,
    slides,
    selected: typeof v.selected === 'string' ? v.selected : null,
    time: typeof v.time === 'number' && Number.isFinite(v.time) && v.time >= 0 ? v.time : null,
    designUpdatedAt: v.designUpdatedAt,
  };
}

/**
 * Keeps the draft (or removes it when it holds no edits). False when the browser refused to store it
 * (storage full or disabled): the editor then says the edits are not kept.
 */
export function saveDraft(storage: DraftStore, accountId: number, designId: number, draft: Draft): boolean {
  try {
    if (!hasEdits(draft)) storage.removeItem(keyOf(accountId, designId));
    else storage.setItem(keyOf(accountId, designId), JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

/** The ids of this account's designs that have edits kept in the tab (the designs grid marks them). */
export function draftedDesigns(storage: DraftStore, accountId: number): Set<number> {
  const out = new Set<number>();
  const prefix = `${PREFIX}.${accountId}.`;
  try {
    for (let i = 0; i < storage.length; i++) {
      const k = storage.key(i);
      if (!k?.startsWith(prefix)) continue;
      const id = Number(k.slice(prefix.length));
      if (Number.isSafeInteger(id) && loadDraft(storage, accountId, id)) out.add(id);
    }
  } catch {
    // Storage unreadable: no marks.
  }
  return out;
}
