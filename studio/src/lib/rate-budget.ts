// The plan's requests per minute, as the service reports them on every answer (X-RateLimit-Remaining
// and X-RateLimit-Reset), kept so that previews, which a person's typing sends by the dozen, never use
// the last few requests of the minute: those stay for what the person asked for (a render, an upload,
// opening a design). Previews wait for the window to reset instead, and the Studio says so.

/** Requests of each minute that previews leave to everything else. */
export const PREVIEW_RESERVE = 5;

export class RateBudget {
  private remaining: number | null = null;
  /** When the window resets, in the clock's ms. */
  private resetAt = 0;

  /** Records an answer's headers; `now` in ms (performance.now() in the page). */
  note(remaining: string | null, resetSeconds: string | null, now: number): void {
    const r = Number(remaining);
    const s = Number(resetSeconds);
    if (remaining === null || resetSeconds === null || !Number.isFinite(r) || !Number.isFinite(s)) return;
    this.remaining = r;
    this.resetAt = now + s * 1000;
  }

  /** Ms a preview must wait so that PREVIEW_RESERVE requests stay for other calls (0: send now). */
  previewDelay(now: number): number {
    if (this.remaining === null || this.remaining > PREVIEW_RESERVE || now >= this.resetAt) return 0;
    return Math.ceil(this.resetAt - now);
  }
}
