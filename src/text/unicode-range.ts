// CSS unicode-range values ("U+0000-00FF,U+0131,U+4??"): parsed into sorted code point intervals and
// looked up by binary search. The subset files of an @fontsource face each draw only their range.

/** Sorted, non-overlapping [first, last] code point intervals. */
export type UnicodeRanges = readonly (readonly [number, number])[];

const MAX_CODE_POINT = 0x10ffff;
const ITEM = /^U\+([0-9A-F]{1,6})(?:-([0-9A-F]{1,6}))?$|^U\+([0-9A-F?]{1,6})$/i;

/** Why a unicode-range value cannot be read; the message quotes the item. */
export class UnicodeRangeError extends Error {}

/** The intervals of a CSS unicode-range value (CSS Fonts 4 §4.5): single code points, ranges and "?" wildcards, comma-separated. */
export function parseUnicodeRange(value: string): UnicodeRanges {
  const items = value.split(',').map((s) => s.trim());
  const out: [number, number][] = [];
  for (const item of items) {
    const m = ITEM.exec(item);
    if (!m) throw new UnicodeRangeError(`${JSON.stringify(item.slice(0, 40))} is not a unicode-range item (U+XXXX, U+XXXX-YYYY or U+XX??)`);
    let first: number;
    let last: number;
    if (m[3] !== undefined) {
      first = parseInt(m[3].replace(/\?/g, '0'), 16);
      last = parseInt(m[3].replace(/\?/g, 'F'), 16);
    } else {
      first = parseInt(m[1]!, 16);
      last = m[2] === undefined ? first : parseInt(m[2], 16);
    }
    if (first > last || last > MAX_CODE_POINT)
      throw new UnicodeRangeError(`${JSON.stringify(item)} is not a range of code points (U+0000 to U+10FFFF, first before last)`);
    out.push([first, last]);
  }
  out.sort((a, b) => a[0] - b[0]);
  // Merged, so a lookup is one binary search.
  const merged: [number, number][] = [];
  for (const r of out) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/** Whether `codePoint` lies in the intervals. */
export function inUnicodeRange(ranges: UnicodeRanges, codePoint: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [first, last] = ranges[mid]!;
    if (codePoint < first) hi = mid - 1;
    else if (codePoint > last) lo = mid + 1;
    else return true;
  }
  return false;
}
