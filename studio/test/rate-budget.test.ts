// Previews keep the plan's last requests of each minute for renders and uploads: they wait for the
// window to reset once only PREVIEW_RESERVE are left, and never because of headers that are missing.
import { describe, expect, it } from 'vitest';
import { PREVIEW_RESERVE, RateBudget } from '../src/lib/rate-budget.js';

describe('RateBudget', () => {
  it('lets previews through until the reserve, then holds them until the window resets', () => {
    const b = new RateBudget();
    expect(b.previewDelay(0)).toBe(0);
    b.note(String(PREVIEW_RESERVE + 1), '40', 1000);
    expect(b.previewDelay(1000)).toBe(0);
    b.note(String(PREVIEW_RESERVE), '40', 2000);
    // Reset 40 s after the answer that said so.
    expect(b.previewDelay(2000)).toBe(40_000);
    expect(b.previewDelay(32_000)).toBe(10_000);
    expect(b.previewDelay(42_000)).toBe(0);
    // A new window's first answer lifts the hold at once.
    b.note('49', '60', 43_000);
    expect(b.previewDelay(43_000)).toBe(0);
  });

  it('ignores answers without the headers or with unreadable ones', () => {
    const b = new RateBudget();
    b.note('0', '30', 0);
    b.note(null, null, 100);
    b.note('x', '30', 200);
    b.note('3', 'soon', 300);
    // Still the one readable answer.
    expect(b.previewDelay(1000)).toBe(29_000);
  });
});
