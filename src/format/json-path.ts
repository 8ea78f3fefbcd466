// JSON paths in error messages: `$.objects[3].border.style`, `$.objects_overrides["my title"].text`.

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function jsonPath(segments: readonly PathSegment[], root = '$'): string {
  let out = root;
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENTIFIER.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** Appends segments to an already formatted path. */
export function childPath(base: string, ...segments: PathSegment[]): string {
  return jsonPath(segments, base);
}
