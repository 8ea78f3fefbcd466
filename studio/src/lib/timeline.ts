// Time on the timeline of an animated or video design: which slide plays at a time (slides follow
// each other; a transition is part of the slide it leaves), the frames of the low-fps play preview,
// and the time as text. No DOM: unit-tested.

/** What the timeline needs of a slide (SlideInfo of the design listing has it): its length and, when known, its start. */
export interface TimedSlide {
  /** Seconds, its transition included. */
  duration: number;
  /** The second the slide starts at, when the service says (it does: an addition); else the sum of the durations before it. */
  start?: number;
}

export type SlideSpan<S extends TimedSlide = TimedSlide> = S & { start: number; end: number };

export function slideSpans<S extends TimedSlide>(slides: readonly S[]): SlideSpan<S>[] {
  let t = 0;
  return slides.map((s) => {
    const start = s.start ?? t;
    t = start + s.duration;
    return { ...s, start, end: t };
  });
}

/** The index of the slide on screen at `time`; the last slide holds its last frame. -1 without slides. */
export function slideIndexAt(slides: readonly TimedSlide[], time: number): number {
  const spans = slideSpans(slides);
  if (!spans.length) return -1;
  const i = spans.findIndex((s) => time >= s.start && time < s.end);
  return i < 0 ? (time < 0 ? 0 : spans.length - 1) : i;
}

/** The next frame time of a play preview at `fps`, looping back to 0 after the end. */
export function nextFrameTime(time: number, duration: number, fps: number): number {
  const step = 1 / fps;
  const next = Math.round((time + step) * 1000) / 1000;
  return next > duration ? 0 : next;
}

/** The time the scrubber may show: within [0, duration], at 1/100 s. */
export function clampTime(time: number, duration: number): number {
  if (!Number.isFinite(time)) return 0;
  return Math.round(Math.min(Math.max(0, time), duration) * 100) / 100;
}

/** `12.5 s`, `0 s`. */
export function formatSeconds(s: number): string {
  return `${Math.round(s * 10) / 10} s`;
}
