// How far an mp4 render has got, in words for the progress bar under the render button: the task's
// `progress` (frames done of the total, the service's estimate of the time left). No DOM.

import type { TaskProgress } from '../../../src/service/shapes.js';

/** A task's `progress` as interfaces A and B and the events stream give it (docs/api.md, A2). */
export type { TaskProgress };

/** "190 of 450 frames · 42 % · about 8 s left"; "loading…" before the first frame; "encoded, storing…" at 1. */
export function progressText(p: TaskProgress): string {
  const pct = Math.floor(Math.min(1, Math.max(0, p.fraction)) * 100);
  const frames = `${p.frames_done} of ${p.frames_total} frames`;
  if (p.frames_done === 0) return `${frames} · loading files…`;
  if (p.fraction >= 1) return `${frames} · 100 % · storing the file…`;
  return `${frames} · ${pct} %${p.eta_seconds === null ? '' : ` · about ${etaText(p.eta_seconds)} left`}`;
}

function etaText(s: number): string {
  if (s < 1) return 'a second';
  if (s < 90) return `${Math.ceil(s)} s`;
  return `${Math.ceil(s / 60)} min`;
}
