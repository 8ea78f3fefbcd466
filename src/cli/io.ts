// The output streams a command writes to: the process's own when run as `imprint`, captured ones in
// tests. Its own module so that commands need not import main, which loads them.

export interface CliIO {
  /** The render's bytes go here with `--out -`, hence Uint8Array and the flush callback. */
  stdout: { write(s: string | Uint8Array, cb?: (err?: Error | null) => void): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean };
}
