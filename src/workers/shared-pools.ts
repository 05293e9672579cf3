// The pools computes share: one per kind ('threads', 'processes') and size, started on first
// use and shut down together by shutdown().

import type { PoolExecutor } from './pool-executor.ts';

const pools = new Map<string, PoolExecutor>();

/**
 * The shared pool of `kind`: the default-sized one when `workers` is undefined or equals its
 * size, else one of `workers` members. `make(workers)` starts a missing one.
 * @example
 * const pool = sharedPool('threads', 2, (n) => new ThreadPoolExecutor({ workers: n }));
 */
export function sharedPool<P extends PoolExecutor>(
  kind: string,
  workers: number | undefined,
  make: (workers?: number) => P,
): P {
  const key = `${kind}:default`;
  let pool = pools.get(key) as P | undefined;
  if (pool === undefined) {
    pool = make();
    pools.set(key, pool);
  }
  if (workers === undefined || workers === pool.concurrency) return pool;
  const sizedKey = `${kind}:${workers}`;
  let sized = pools.get(sizedKey) as P | undefined;
  if (sized === undefined) {
    sized = make(workers);
    pools.set(sizedKey, sized);
  }
  return sized;
}

/**
 * Shut every shared pool down (a later compute starts new ones).
 * @example
 * await shutdownSharedPools();
 */
export async function shutdownSharedPools(): Promise<void> {
  const live = [...pools.values()];
  pools.clear();
  await Promise.all(live.map((p) => p.shutdown()));
}
