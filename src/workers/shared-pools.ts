// The executors computes share: one per kind ('threads', 'processes', 'distributed') and
// size, started on first use and shut down together by shutdown().

/** What a shared executor must offer: its size, and a way to stop it. */
export interface SharedExecutor {
  readonly concurrency: number;
  shutdown(): Promise<void>;
}

const pools = new Map<string, SharedExecutor>();

/**
 * The shared pool of `kind`: the default-sized one when `workers` is undefined or equals its
 * size, else one of `workers` members. `make(workers)` starts a missing one.
 * @example
 * const pool = sharedPool('threads', 2, (n) => new ThreadPoolExecutor({ workers: n }));
 */
export function sharedPool<P extends SharedExecutor>(
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
