// The segments of a display list's `path` geometry, read once per distinct path data and kept in a
// bounded cache: an icon drawn on every frame of a video is not re-parsed each time.
import { parsePathData, pathBounds, type PathSegment } from '../svg/path-data.js';
import type { Rect } from '../scene/scene.js';

const MAX_PATHS = 4096;
const cache = new Map<string, PathSegment[]>();

export function pathSegments(d: string): PathSegment[] {
  let segs = cache.get(d);
  if (segs) {
    cache.delete(d);
  } else {
    segs = parsePathData(d);
    if (cache.size >= MAX_PATHS) cache.delete(cache.keys().next().value!);
  }
  cache.set(d, segs);
  return segs;
}

/** The path's bounding box (empty at the origin for an empty path). */
export function pathRect(d: string): Rect {
  const b = pathBounds(pathSegments(d));
  return b ? { x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0 } : { x: 0, y: 0, width: 0, height: 0 };
}

/** Receives a path's segments; `from` of a quadratic is the current point (pdf turns it into a cubic). */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  cubicTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void;
  quadTo(x1: number, y1: number, x: number, y: number, from: readonly [number, number]): void;
  close(): void;
}

export function tracePathData(d: string, sink: PathSink): void {
  let at: [number, number] = [0, 0];
  for (const s of pathSegments(d)) {
    switch (s.cmd) {
      case 'M':
        sink.moveTo(...s.args);
        at = s.args;
        break;
      case 'L':
        sink.lineTo(...s.args);
        at = s.args;
        break;
      case 'C':
        sink.cubicTo(...s.args);
        at = [s.args[4], s.args[5]];
        break;
      case 'Q':
        sink.quadTo(...s.args, at);
        at = [s.args[2], s.args[3]];
        break;
      case 'Z':
        sink.close();
    }
  }
}
