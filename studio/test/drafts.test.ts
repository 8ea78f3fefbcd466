// The edits kept for the tab (studio/src/lib/drafts.ts): a draft round-trips, one per account and
// design; a damaged or hostile stored value is ignored rather than crashing the editor; a full
// storage is reported, not thrown; the grid learns which designs have edits.
import { describe, expect, it } from 'vitest';
import { draftedDesigns, hasEdits, loadDraft, saveDraft, type Draft, type DraftStore } from '../src/lib/drafts.js';

function store(opts: { full?: boolean } = {}): DraftStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => {
      if (opts.full) throw new DOMException('quota', 'QuotaExceededError');
      data.set(k, v);
    },
    removeItem: (k) => void data.delete(k),
    key: (i) => [...data.keys()][i] ?? null,
    get length() {
      return data.size;
    },
  };
}

const draft = (over: Partial<Draft> = {}): Draft => ({
  overrides: { headline: { text: 'New <substyle bold="700">words</substyle>' }, badge: { x: 700, y: 420 } },
  slides: {},
  selected: 'headline',
  time: null,
  designUpdatedAt: '2026-11-27T10:00:00.000Z',
  ...over,
});

describe('drafts', () => {
  it('keeps a design’s edits per account and design, and gives them back as they were', () => {
    const s = store();
    expect(saveDraft(s, 1, 2, draft())).toBe(true);
    expect(saveDraft(s, 1, 5, draft({ overrides: { photo: { path: 'http://x/public/v2/uploads/1.png' } }, time: 3.5 }))).toBe(true);
    expect(loadDraft(s, 1, 2)).toEqual(draft());
    expect(loadDraft(s, 1, 5)?.time).toBe(3.5);
    expect(loadDraft(s, 2, 2)).toBeNull();
    expect(loadDraft(s, 1, 3)).toBeNull();
    expect([...draftedDesigns(s, 1)].sort()).toEqual([2, 5]);
    expect(draftedDesigns(s, 2).size).toBe(0);
  });

  it('removes the draft once its edits are gone (selection and time alone are not edits)', () => {
    const s = store();
    saveDraft(s, 1, 2, draft());
    expect(saveDraft(s, 1, 2, draft({ overrides: {}, selected: 'headline', time: 2 }))).toBe(true);
    expect(loadDraft(s, 1, 2)).toBeNull();
    expect(s.data.size).toBe(0);
    expect(hasEdits({ overrides: {}, slides: { intro: { path: 'u' } } })).toBe(true);
  });

  it('keeps an object named __proto__ as an own entry', () => {
    const s = store();
    const overrides = JSON.parse('{"__proto__": {"text": "x"}}') as Draft['overrides'];
    saveDraft(s, 1, 2, draft({ overrides }));
    const back = loadDraft(s, 1, 2)!;
    expect(Object.hasOwn(back.overrides, '__proto__')).toBe(true);
    expect(back.overrides['__proto__']).toEqual({ text: 'x' });
    expect(({} as Record<string, unknown>).text).toBeUndefined();
  });

  it('ignores a damaged or foreign stored value instead of failing', () => {
    const s = store();
    const key = 'imprint.studio.draft.1.2';
    for (const bad of [
      '{',
      'null',
      '[]',
      '{"overrides":[],"slides":{},"designUpdatedAt":"x"}',
      '{"overrides":{"a":1},"slides":{},"designUpdatedAt":"x"}',
      '{"overrides":{},"slides":{"s":{"path":3}},"designUpdatedAt":"x"}',
      '{"overrides":{"a":{"x":1e999}},"slides":{},"designUpdatedAt":"x"}',
    ]) {
      s.data.set(key, bad);
      expect(loadDraft(s, 1, 2)).toBeNull();
    }
    s.data.set(key, JSON.stringify({ ...draft(), time: -4, selected: 7 }));
    expect(loadDraft(s, 1, 2)).toMatchObject({ time: null, selected: null });
    expect(draftedDesigns(s, 1)).toEqual(new Set([2]));
  });

  it('says false when the browser will not store it (full or off), never throws', () => {
    expect(saveDraft(store({ full: true }), 1, 2, draft())).toBe(false);
    const broken: DraftStore = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
      removeItem: () => {},
      key: () => null,
      length: 0,
    };
    expect(loadDraft(broken, 1, 2)).toBeNull();
    expect(saveDraft(broken, 1, 2, draft())).toBe(false);
  });
});
