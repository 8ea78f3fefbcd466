// The editor's document and its undo/redo. Every edit is a step (at most `limit`, the oldest dropped
// first); a continuous gesture (a drag, a burst of typing) sent with one gesture key collapses into one
// step; undo and redo give back the very documents that were there (the same objects, so the same JSON
// to the byte); `isDirty` compares the document with the last saved version and `draftPending` with the
// last autosaved draft. The state is immutable and documents are kept by reference, never copied: with
// the structural sharing of design-ops.ts a step costs the objects an edit changed. No DOM.

/** One state of the document: the document, what was selected, and the edit that made it. */
export interface Snapshot<D, S> {
  readonly doc: D;
  readonly selection: S;
  /** What the edit was, for the buttons' tooltips ("Undo Move"); "" for the opening document. */
  readonly label: string;
}

/** A version of the document kept elsewhere (the saved version, the autosaved draft). */
export interface Mark<D> {
  /** The document that was stored; null before anything was. */
  readonly doc: D | null;
  /** When (ms since the epoch, as the caller's clock says); null when not known. */
  readonly at: number | null;
  /** The server's version number of a saved design, when it has one. */
  readonly version: number | null;
}

export interface History<D extends object, S = readonly number[]> {
  readonly present: Snapshot<D, S>;
  /** Oldest first: the last is what undo gives back. */
  readonly past: readonly Snapshot<D, S>[];
  /** The next first: the first is what redo gives back. */
  readonly future: readonly Snapshot<D, S>[];
  readonly limit: number;
  readonly coalesceMs: number;
  /** The gesture the last edit belonged to, while it may still grow. */
  readonly gesture: { readonly key: string; readonly at: number } | null;
  readonly saved: Mark<D>;
  readonly draft: Mark<D>;
}

export interface HistoryOptions<S> {
  /** The selection of the opening document. Default: none (an empty list). */
  selection?: S;
  /** Steps kept for undo, a whole number of at least 1. Default 100. */
  limit?: number;
  /** Longest pause between two edits of one gesture that still collapses them, ms. Default 1000. */
  coalesceMs?: number;
  /**
   * Whether the opening document is the saved version (true, the default: it was just loaded) or
   * not yet saved anywhere (false: a new design, or a draft reopened after a reload).
   */
  saved?: boolean;
  /** The saved version's time and number, when `saved`. */
  savedAt?: number | null;
  version?: number | null;
}

export const DEFAULT_LIMIT = 100;
export const DEFAULT_COALESCE_MS = 1000;

const NO_MARK: Mark<never> = { doc: null, at: null, version: null };

export function createHistory<D extends object, S = readonly number[]>(doc: D, options: HistoryOptions<S> = {}): History<D, S> {
  const limit = options.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`history limit must be a whole number of at least 1, received ${limit}`);
  const coalesceMs = options.coalesceMs ?? DEFAULT_COALESCE_MS;
  if (!Number.isFinite(coalesceMs) || coalesceMs < 0) throw new RangeError(`coalesceMs must be a number of milliseconds of at least 0, received ${coalesceMs}`);
  const saved: Mark<D> = options.saved === false ? NO_MARK : { doc, at: options.savedAt ?? null, version: options.version ?? null };
  return {
    present: { doc, selection: options.selection ?? ([] as unknown as S), label: '' },
    past: [],
    future: [],
    limit,
    coalesceMs,
    gesture: null,
    saved,
    draft: saved,
  };
}

export interface EditOptions<S> {
  /** What the edit does, for the undo button ("Move", "Rename text_2"). */
  label?: string;
  /**
   * Edits with the same key, each within `coalesceMs` of the one before, are one step: send the
   * object and field being dragged or typed into (`move:3`, `text:headline`). Without a key every
   * edit is a step of its own.
   */
  gesture?: string;
  /** The edit's time in ms (default Date.now()): tests and replays give their own clock. */
  at?: number;
  /** The selection after the edit. Default: the selection before it. */
  selection?: S;
}

/**
 * The history after an edit that made `doc`. An edit that returns the document it was given (an
 * operation that changed nothing) is no step; it only updates the selection.
 */
export function edit<D extends object, S>(h: History<D, S>, doc: D, options: EditOptions<S> = {}): History<D, S> {
  const at = options.at ?? Date.now();
  const selection = options.selection ?? h.present.selection;
  if (doc === h.present.doc) return selection === h.present.selection ? h : { ...h, present: { ...h.present, selection } };
  const label = options.label ?? '';
  const key = options.gesture;
  const continues = key !== undefined && h.gesture !== null && h.gesture.key === key && at - h.gesture.at <= h.coalesceMs && at >= h.gesture.at;
  const gesture = key === undefined ? null : { key, at };
  if (continues && h.past.length > 0) {
    // The gesture's step grows: the document before the gesture stays the one undo gives back.
    return { ...h, present: { doc, selection, label }, future: [], gesture };
  }
  const past = [...h.past, h.present];
  if (past.length > h.limit) past.splice(0, past.length - h.limit);
  return { ...h, present: { doc, selection, label }, past, future: [], gesture };
}

/** Ends the gesture under way (pointer up, the text box left): the next edit is a step of its own. */
export function endGesture<D extends object, S>(h: History<D, S>): History<D, S> {
  return h.gesture === null ? h : { ...h, gesture: null };
}

/** The selection changed, the document did not: no step. */
export function select<D extends object, S>(h: History<D, S>, selection: S): History<D, S> {
  return { ...h, present: { ...h.present, selection } };
}

export const canUndo = (h: History<object, unknown>): boolean => h.past.length > 0;
export const canRedo = (h: History<object, unknown>): boolean => h.future.length > 0;

/** The state before the last step; the history itself when there is nothing to undo. */
export function undo<D extends object, S>(h: History<D, S>): History<D, S> {
  const previous = h.past[h.past.length - 1];
  if (!previous) return h;
  return { ...h, present: previous, past: h.past.slice(0, -1), future: [h.present, ...h.future], gesture: null };
}

/** The state the last undo left; the history itself when there is nothing to redo. */
export function redo<D extends object, S>(h: History<D, S>): History<D, S> {
  const next = h.future[0];
  if (!next) return h;
  return { ...h, present: next, past: [...h.past, h.present], future: h.future.slice(1), gesture: null };
}

/** The label of the step undo takes back ("" for none): "Undo Move". */
export const undoLabel = (h: History<object, unknown>): string => (h.past.length > 0 ? h.present.label : '');
/** The label of the step redo makes again ("" for none). */
export const redoLabel = (h: History<object, unknown>): string => h.future[0]?.label ?? '';

/** Which version a save stored. */
export interface MarkOptions<D> {
  /** The document stored: by default the present one (give the one sent when edits went on meanwhile). */
  doc?: D;
  at?: number;
  version?: number | null;
}

/** Notes that a version was saved; undo and redo keep working across it. */
export function markSaved<D extends object, S>(h: History<D, S>, options: MarkOptions<D> = {}): History<D, S> {
  const doc = options.doc ?? h.present.doc;
  const mark: Mark<D> = { doc, at: options.at ?? Date.now(), version: options.version === undefined ? h.saved.version : options.version };
  // A saved version is a stored draft too: nothing left to autosave until the next edit.
  return { ...h, saved: mark, draft: { ...mark, version: null } };
}

/** Notes that the draft (the autosave, never rendered by the API) was stored. */
export function markDraftSaved<D extends object, S>(h: History<D, S>, options: Omit<MarkOptions<D>, 'version'> = {}): History<D, S> {
  return { ...h, draft: { doc: options.doc ?? h.present.doc, at: options.at ?? Date.now(), version: null } };
}

// Each document's JSON, made once: documents are never changed, so the text stays true.
const jsonCache = new WeakMap<object, string>();
function jsonOf(doc: object): string {
  let text = jsonCache.get(doc);
  if (text === undefined) {
    text = JSON.stringify(doc);
    jsonCache.set(doc, text);
  }
  return text;
}

/** Whether two documents are the same JSON (the same object, at no cost). */
export function sameDocument(a: object | null, b: object | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return jsonOf(a) === jsonOf(b);
}

/**
 * Unsaved changes: the document differs from the last saved version (an edit undone back to it is
 * not a change). True for a document never saved.
 */
export function isDirty(h: History<object, unknown>): boolean {
  return !sameDocument(h.present.doc, h.saved.doc);
}

/** The document differs from the last stored draft: the autosave has work to do. */
export function draftPending(h: History<object, unknown>): boolean {
  return !sameDocument(h.present.doc, h.draft.doc);
}
