// Which shapes of an SVG clip a picture (image clip_svg): its filled shapes with every transform
// applied, and why a file cannot serve as a clip. Layout combines them into one clip path.
import type { Matrix } from '../scene/display-list.js';
import { multiply, type SvgDocument, type SvgNode } from './parse.js';
import { transformPath, type PathSegment } from './path-data.js';

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** Why the drawing cannot clip a picture, or undefined: the message for the clip_svg field. */
export function svgClipProblem(doc: SvgDocument): string | undefined {
  const shapes = filledShapes(doc.nodes, IDENTITY);
  if (shapes.length === 0) return 'it has no filled shapes, so it would hide the whole picture: give the clip shapes a fill';
  if (shapes.length > 1 && shapes.some((s) => s.evenOdd)) {
    return 'a clip of several shapes must use fill-rule nonzero (the default): the even-odd rule is supported when the file has one filled shape; combine the shapes into one path';
  }
  return undefined;
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
