// Polotno line elements → Imprint line objects: colour, dash and the heads both draw alike.
import type { LineInput } from '../imprint-types.js';
import type { PolotnoLine } from '../schema.js';
import { color } from '../shared.js';
import { animationsOf, begin, commonEffects } from './common.js';

type Head = NonNullable<LineInput['start_head']>;

/** The heads Polotno and Imprint both draw, by the same names. */
const HEADS: ReadonlySet<string> = new Set<Head>(['arrow', 'triangle', 'circle', 'square', 'bar']);
const isHead = (name: string): name is Head => HEADS.has(name);

export function convertLine(e: PolotnoLine, at: string, pageSeconds: number): LineInput {
  // A line's height is its stroke width: the Imprint line takes it from its box the same way.
  const { base } = begin(e, 'line', { defaultWidth: 400, height: e.height ?? 10 });
  const out: LineInput = { ...base, color: color(e.color ?? 'black', `${at}.color`) };
  if (e.dash?.length) out.dash = e.dash;
  for (const [field, key] of [
    ['startHead', 'start_head'],
    ['endHead', 'end_head'],
  ] as const) {
    const head = e[field] ?? '';
    // Polotno draws nothing for a head it does not know; Imprint's "none" is the same.
    if (head !== '') out[key] = isHead(head) ? head : 'none';
  }
  commonEffects(e, at, out);
  animationsOf(e.animations, out, at, pageSeconds);
  return out;
}
