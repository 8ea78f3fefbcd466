// Axis scales for charts: "nice" tick values (1, 2, 5 × 10ⁿ steps) that cover the data, and the
// number of decimals a step needs. Pure numbers, tested as data.

export interface Ticks {
  min: number;
  max: number;
  step: number;
  values: number[];
  /** Decimals needed to write every tick exactly. */
  decimals: number;
}

function niceNumber(x: number, round: boolean): number {
  const exp = Math.floor(Math.log10(x));
  const f = x / 10 ** exp;
  let nf: number;
  if (round) nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
  else nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return nf * 10 ** exp;
}

export function decimalsFor(step: number): number {
  return Math.max(0, Math.min(10, -Math.floor(Math.log10(step) + 1e-9)));
}

/**
 * Ticks covering [min, max] with about `target` intervals (Heckbert's nice numbers). A flat range is
 * widened to include 0 (or to 0..1 when it is 0), so axes never collapse or divide by zero.
 */
export function niceTicks(min: number, max: number, target = 5): Ticks {
  let lo = Math.min(min, max);
  let hi = Math.max(min, max);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (hi === lo) {
    if (lo === 0) hi = 1;
    else if (lo > 0) lo = 0;
    else hi = 0;
  }
  const intervals = Math.max(1, Math.round(target));
  const range = niceNumber(hi - lo, false);
  const step = niceNumber(range / intervals, true);
  const decimals = decimalsFor(step);
  const fix = (v: number): number => Number(v.toFixed(decimals)) + 0; // + 0 turns -0 into 0
  const first = Math.floor(lo / step + 1e-9);
  const last = Math.ceil(hi / step - 1e-9);
  const values: number[] = [];
  for (let i = first; i <= last; i++) values.push(fix(i * step));
  return { min: values[0]!, max: values[values.length - 1]!, step, values, decimals };
}

/** Maps a value in [ticks.min, ticks.max] onto [from, to] (either direction). */
export function linear(ticks: Pick<Ticks, 'min' | 'max'>, from: number, to: number): (v: number) => number {
  const span = ticks.max - ticks.min;
  return (v) => from + ((v - ticks.min) / span) * (to - from);
}
