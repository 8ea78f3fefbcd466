// The bad-input tables' check of one row: the render is refused with a validation_error at the row's
// path, in words that say how to fix it, and the caller's input is left as it was.
import { expect } from 'vitest';
import { render, type RenderOptions } from '../../src/engine.js';
import { ImprintError } from '../../src/errors.js';

/** Zod's own wording, which tells the caller nothing about how to fix the input. */
export const RAW_ZOD =
  /Invalid input|Invalid option|Invalid discriminator|Invalid string|Invalid element|Unrecognized key|^Too (small|big)|expected \w+, received|expected (record|tuple|union|map|set)\b|does not match any allowed form|\[object Object\]/;
/** Words of a message that says what to write instead. */
export const FIX_HINT =
  /expected|use |add |remove|must|keep|fix|upload|write|close|give|register|pass |not allowed|not supported|cannot|needs|at most|at least|greater than|without a value/i;

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function rejectionOf(options: RenderOptions): Promise<unknown> {
  try {
    const result = await render(options);
    return { resolved: true, bytes: result.bytes.length };
  } catch (e) {
    return e;
  }
}

export async function expectRefused(options: RenderOptions, row: { path: string; message: string }): Promise<void> {
  const designBefore = typeof options.design === 'object' && options.design !== null ? structuredClone(options.design) : options.design;
  const overridesBefore = options.overrides === undefined ? undefined : structuredClone(options.overrides);

  const e = await rejectionOf(options);

  expect(e, `render did not reject with an ImprintError: ${JSON.stringify(e) ?? String(e)}`).toBeInstanceOf(ImprintError);
  const err = e as ImprintError;
  expect({ code: err.code, status: err.status, path: err.path }, err.message).toEqual({ code: 'validation_error', status: 400, path: row.path });
  expect(err.message).toContain(row.message);
  expect(err.message, 'message is raw zod text').not.toMatch(RAW_ZOD);
  expect(err.message, 'message does not say how to fix it').toMatch(FIX_HINT);
  expect(err.toJSON()).toEqual({ error: 'validation_error', path: row.path, description: err.message });

  // Refusing input never changes it.
  expect(options.design).toEqual(designBefore);
  expect(options.overrides).toEqual(overridesBefore);
}
