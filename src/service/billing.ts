// Billing of interface B's video renders: the price held from the balance when a task is queued and
// the charge when it is done, in one place so the queue side and the worker cannot disagree.
import type { TaskRecord } from '../store/metadata/records.js';
import { taskOptions } from './tasks.js';

/** Money is kept to the micro-unit (the store keeps micros): rounding here avoids float dust. */
export const money = (x: number): number => Math.round(x * 1e6) / 1e6;

/** What a video of `seconds` costs at `rate` per second: held from the balance when queued. */
export const priceFor = (seconds: number, rate: number): number => money(seconds * rate);

/**
 * What a finished task is charged, or undefined when it is not billed (interface A, or no video made).
 * Paid interface B renders pay for the video actually made, at the rate fixed when queued, and never
 * more than was held: frame rounding must not overdraw the balance. Demo renders cost 0.
 */
export function chargeFor(task: Pick<TaskRecord, 'api' | 'demo' | 'reserved' | 'options'>, billedDuration: number | null): number | undefined {
  if (task.api !== 'b' || billedDuration === null) return undefined;
  const { rate } = taskOptions(task);
  if (task.demo || rate === undefined) return 0;
  return Math.min(task.reserved, priceFor(billedDuration, rate));
}
