// Waiting for a condition the test cannot be told about directly (a webhook arriving, a counter, a
// stored state): checked on a short tick until it holds, bounded by a budget that names what was
// awaited, so a slow machine only waits longer and a broken one fails with a clear message.
// This is the one place a test may wait on the clock: a fixed sleep followed by an assertion is a
// guess about how long something takes, and is not used (see docs/architecture.md, Tests).
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000, tickMs = 20): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, tickMs));
  }
}

/** Like waitUntil, for a check that produces the value awaited (undefined while it is not there yet). */
export async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000, tickMs = 20): Promise<T> {
  let found: T | undefined;
  await waitUntil(
    what,
    async () => {
      found = await check();
      return found !== undefined;
    },
    timeoutMs,
    tickMs,
  );
  return found as T;
}
