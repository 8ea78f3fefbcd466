// Near-miss field names: the known fields an unknown key most likely meant, for "did you mean …?"
// in validation messages (a misspelling, another casing, or a shortened or longer name).

/** Lower case without separators: fontSize, font-size and font_size all compare equal. */
const squash = (name: string): string => name.toLowerCase().replace(/[-_\s]/g, '');
const words = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[-_\s]+/)
    .filter(Boolean);

/** Edit distance counting a swap of two neighbouring letters as one edit ("heigth" → "height"). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** Edits a misspelling of a name this long may have and still be recognised. */
const tolerance = (length: number): number => (length <= 2 ? 0 : length <= 4 ? 1 : length <= 8 ? 2 : 3);

/**
 * The known names `key` most likely meant, best first (at most three, all equally likely), or none:
 * the same name in another spelling (fontSize), a misspelling (colour, heigth), or a name sharing
 * whole words with it (radius → corner_radius, text_color → color).
 */
export function closestNames(key: string, known: readonly string[]): string[] {
  const k = squash(key);
  if (k === '') return [];
  const same = known.filter((n) => squash(n) === k);
  if (same.length > 0) return same.slice(0, 3);

  let best = Infinity;
  let near: string[] = [];
  for (const n of known) {
    const d = editDistance(k, squash(n));
    if (d > tolerance(Math.min(k.length, squash(n).length))) continue;
    if (d < best) [best, near] = [d, [n]];
    else if (d === best) near.push(n);
  }
  if (near.length > 0) return near.slice(0, 3);

  // Whole words: the key's words all in a known name, or a known name's words all in the key. Fewer
  // words left over is a closer match.
  const kw = words(key);
  let fewest = Infinity;
  let related: string[] = [];
  for (const n of known) {
    const nw = words(n);
    const extra = kw.every((w) => nw.includes(w)) ? nw.length - kw.length : nw.every((w) => kw.includes(w)) ? kw.length - nw.length : -1;
    if (extra < 0) continue;
    if (extra < fewest) [fewest, related] = [extra, [n]];
    else if (extra === fewest) related.push(n);
  }
  return related.slice(0, 3);
}

/** `did you mean "corner_radius"?`, `did you mean "a", "b" or "c"?`, or '' when nothing is close. */
export function didYouMean(key: string, known: readonly string[]): string {
  const names = closestNames(key, known).map((n) => JSON.stringify(n));
  if (names.length === 0) return '';
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]!}`;
  return `did you mean ${list}?`;
}
