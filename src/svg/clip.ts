// Which shapes of an SVG clip a picture (image clip_svg): its filled shapes with every transform
// applied, and why a file cannot serve as a clip. Layout combines them into one clip path.
import type { Matrix } from '../scene/display-list.js';
import type { SvgDocument, SvgNode, SvgPaint } from './document.js';
import { IDENTITY, multiply } from './geometry.js';
import { transformPath, type PathSegment } from './path-data.js';

/** Why the drawing cannot clip a picture, or undefined: the message for the clip_svg field. */
export function svgClipProblem(doc: SvgDocument): string | undefined {
  const shapes = filledShapes(doc.nodes, IDENTITY);
  if (shapes.length === 0) return 'it has no filled shapes, so it would hide the whole picture: give the clip shapes a fill';
  if (shapes.length > 1 && shapes.some((s) => s.evenOdd)) {
    return 'a clip of several shapes must use fill-rule nonzero (the default): the even-odd rule is supported when the file has one filled shape; combine the shapes into one path';
  }
  return undefined;
}

/**
 * Why a clip by the drawing's filled shapes would not show a picture as the drawing's own alpha does
 * (Polotno shows a frame's picture through every pixel the drawing paints, at that pixel's alpha), or
 * undefined when it does: nothing but opaque fills. Layout masks by the drawing's alpha otherwise.
 */
export function svgFrameProblem(doc: SvgDocument): string | undefined {
  const clip = svgClipProblem(doc);
  if (clip) return clip;
  const visit = (nodes: readonly SvgNode[]): string | undefined => {
    for (const n of nodes) {
      if (n.opacity === 0) continue;
      if (n.opacity < 1) return 'part of it is see-through (opacity below 1), and the picture would show through it only partly: make the drawing opaque';
      if (n.kind === 'group') {
        const inner = visit(n.children);
        if (inner) return inner;
        continue;
      }
      if (n.stroke && n.stroke.width > 0 && n.stroke.opacity > 0 && n.stroke.paint.color[3] > 0) {
        return 'it has strokes, and the picture would show through them too: turn the strokes into filled outlines (or remove them)';
      }
      if (n.fill && !opaquePaint(n.fill, n.fillOpacity)) {
        return 'a fill is see-through (fill-opacity, a colour or gradient stop with alpha below 1), and the picture would show through it only partly: make the fills opaque';
      }
    }
    return undefined;
  };
  return visit(doc.nodes);
}

function opaquePaint(p: SvgPaint, opacity: number): boolean {
  if (opacity < 1) return false;
  return p.kind === 'color' ? p.color[3] >= 1 : p.gradient.stops.every((s) => s.color[3] >= 1);
}

export function filledShapes(
  nodes: readonly SvgNode[],
  ctm: Matrix,
  out: { path: PathSegment[]; evenOdd: boolean }[] = [],
): { path: PathSegment[]; evenOdd: boolean }[] {
  for (const n of nodes) {
    if (n.opacity === 0) continue;
    const m = multiply(ctm, n.transform);
    if (n.kind === 'group') filledShapes(n.children, m, out);
    else if (n.fill) out.push({ path: transformPath(n.path, m), evenOdd: n.evenOdd });
  }
  return out;
}
