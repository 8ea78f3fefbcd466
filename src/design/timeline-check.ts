// Checks of the timeline fields that a schema cannot express: start before end, keyframes in
// increasing time, known easings, text-only presets, and times within the video.
import { childPath } from '../format/json-path.js';
import { parseEasing } from '../format/easing.js';
import type { DesignObject } from '../objects/registry.js';
import { validationError } from '../errors.js';

const EASING_HINT = 'use linear, ease-in, ease-out, ease-in-out or cubic-bezier(x1, y1, x2, y2) with x1 and x2 between 0 and 1';

/** `at` is the object's path; `duration` the design's, when it has one. */
export function checkTimeline(o: DesignObject, at: string, duration: number | undefined): void {
  const start = o.start ?? 0;
  if (o.end !== undefined && o.end <= start) throw validationError(childPath(at, 'end'), `end (${o.end} s) must come after start (${start} s)`);
  if (duration !== undefined && start >= duration) {
    throw validationError(childPath(at, 'start'), `the object starts at ${start} s but the video lasts ${duration} s: start it earlier`);
  }
  (o.animations ?? []).forEach((a, i) => {
    const aat = childPath(at, 'animations', i);
    if (a.easing !== undefined && parseEasing(a.easing) === null) {
      throw validationError(childPath(aat, 'easing'), `unknown easing ${JSON.stringify(a.easing)}: ${EASING_HINT}`);
    }
    if (a.type === 'keyframes') {
      a.keyframes.forEach((k, j) => {
        const prev = a.keyframes[j - 1];
        if (prev && k.time <= prev.time) {
          throw validationError(childPath(aat, 'keyframes', j, 'time'), `keyframes must be in increasing time: ${k.time} s comes after ${prev.time} s`);
        }
      });
      if (a.property === 'opacity' && a.keyframes.some((k) => k.value < 0 || k.value > 1)) {
        throw validationError(childPath(aat, 'keyframes'), 'opacity keyframes take values from 0 to 1');
      }
    }
    if (a.type === 'reveal' && o.type !== 'text') throw validationError(childPath(aat, 'type'), `reveal works on text objects, not on ${o.type} objects`);
  });
}
