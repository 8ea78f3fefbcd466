// Waiting for a condition the test cannot be told about directly (a webhook arriving, a counter, a
// stored state): checked on a short tick until it holds, bounded by a budget that names what was
// awaited, so a slow machine only waits longer and a broken one fails with a clear message.
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
