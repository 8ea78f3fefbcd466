// Render threads shared by every Engine of the process that asks for the same ones (same thread count,
// fonts and cache share): a host that makes an Engine per request gets warm threads, fonts and image
// caches from the second engine on, instead of starting threads for each (bench/engines.mjs). A pool
// that no engine holds any more (closed, or dropped and collected) ends its threads once it has been
// idle for a while, so the memory goes back too.
import { RenderPool, type RenderPoolOptions } from './pool.js';

// How long a pool no engine holds keeps its idle threads: the next engine of a host that makes one per
// request (and drops or closes the last) finds them warm; after that the threads and their caches end.
let unheldPoolMs = 10_000;

/** @internal for tests: how long an unheld pool keeps its idle threads (default 10 s) */
export function setUnheldPoolMs(ms: number): void {
  unheldPoolMs = ms;
}

interface Shared {
  pool: RenderPool;
  holders: number;
  /** The countdown to ending the pool, while no engine holds it. */
  retire?: NodeJS.Timeout;
}

const pools = new Map<string, Shared>();

/** An engine's hold on a shared pool; `release` (idempotent) lets the pool go when no one else holds it. */
export interface PoolLease {
  readonly pool: RenderPool;
  release(): void;
}

/** Holds the process's pool for these options, starting one (its threads start on demand) if there is none. */
export function leasePool(options: Omit<RenderPoolOptions, 'lazy'>): PoolLease {
  const key = JSON.stringify([options.size, options.rendersPerThread ?? 1, options.imageCacheBytes, options.fontsDir ?? null, options.installedDir ?? null]);
  let shared = pools.get(key);
  if (!shared || shared.pool.isClosed) {
    shared = { pool: new RenderPool({ ...options, lazy: true }), holders: 0 };
    pools.set(key, shared);
  }
  clearTimeout(shared.retire);
  shared.retire = undefined;
  shared.holders++;
  const held = shared;
  let released = false;
  return {
    pool: held.pool,
    release() {
      if (released) return;
      released = true;
      held.holders--;
      if (held.holders === 0) retireLater(key, held);
    },
  };
}

function retireLater(key: string, shared: Shared): void {
  shared.retire = setTimeout(() => {
    shared.retire = undefined;
    if (shared.holders > 0) return;
    // Renders of engines that let go are still finishing (or being stopped): wait for them.
    if (shared.pool.busy) return retireLater(key, shared);
    if (pools.get(key) === shared) pools.delete(key);
    void shared.pool.close();
  }, unheldPoolMs);
  // The countdown never keeps the process alive (idle threads of a lazy pool do not either).
  shared.retire.unref();
}

/** @internal for tests: the shared pools alive, with their thread count and how many engines hold each. */
export function sharedPools(): { pool: RenderPool; size: number; holders: number }[] {
  return [...pools.values()].map(({ pool, holders }) => ({ pool, size: pool.size, holders }));
}
