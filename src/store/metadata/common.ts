// Helpers every record module of the metadata store shares: money as integer millionths, and the
// unique-constraint check of both databases.
const MICROS = 1_000_000;
export const toMicros = (amount: number): number => Math.round(amount * MICROS);
export const fromMicros = (micros: number): number => micros / MICROS;

/** Unique-constraint violations of either database, as the service's `conflict` error. */
export function uniqueViolation(e: unknown): boolean {
  const err = e as { code?: string };
  return err.code === '23505' || err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
