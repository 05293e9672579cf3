// The thread pool of a `tessera worker`, replaced when an aborted job's kernel keeps running:
// new jobs go to a fresh pool at once, and the old one is shut down (its threads terminated,
// the runaway kernel with them) as soon as its other jobs are done.

import type { Chunk } from '../kernels/types.ts';
import type { Executor, TaskPayload } from './types.ts';

/** An executor that can be shut down (ThreadPoolExecutor). */
export interface PoolLike extends Executor {
  shutdown(): Promise<void>;
}

interface Generation {
  readonly pool: PoolLike;
  /** Runs still counted on it: an abandoned run is not. */
  running: number;
  retired: boolean;
}

/**
 * Runs batches on the current pool. A batch whose `signal` aborts is given `graceMs` to end;
 * past that its pool is retired and a new one made (`replaced` counts how often).
 * @example
 * const pool = new ReplaceablePool(() => new ThreadPoolExecutor({ workers: 2 }), 1000);
 * const results = await pool.run(tasks, signal);
 */
export class ReplaceablePool {
  private current: Generation;
  /** The current pool and retired ones still finishing other jobs. */
  private readonly live = new Set<Generation>();
  replaced = 0;

  constructor(
    private readonly make: () => PoolLike,
    private readonly graceMs: number,
  ) {
    this.current = this.fresh();
  }

  private fresh(): Generation {
    const gen = { pool: this.make(), running: 0, retired: false };
    this.live.add(gen);
    return gen;
  }

  get concurrency(): number {
    return this.current.pool.concurrency;
  }

  /**
   * Run `tasks`; the promise settles when the pool is done with them (an abort does not cut
   * it short: the caller races it against its signal), or rejects once the pool is retired.
   */
  run(tasks: readonly TaskPayload[], signal: AbortSignal): Promise<Chunk[]> {
    const gen = this.current;
    gen.running++;
    let counted = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const release = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (!counted) return;
      counted = false;
      gen.running--;
      this.reap(gen);
    };
    const onAbort = (): void => {
      timer = setTimeout(() => {
        if (!counted) return;
        release();
        this.retire(gen);
      }, this.graceMs);
    };
    // no signal to the pool: its promise then tells when the thread is really free
    const p = gen.pool.run(tasks);
    p.then(release, release);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    return p;
  }

  private retire(gen: Generation): void {
    if (gen.retired) return;
    gen.retired = true;
    if (this.current === gen) {
      this.current = this.fresh();
      this.replaced++;
    }
    this.reap(gen);
  }

  private reap(gen: Generation): void {
    if (!gen.retired || gen.running > 0 || !this.live.delete(gen)) return;
    gen.pool.shutdown().catch(() => {});
  }

  /** Shut every pool down, retired ones included. */
  async shutdown(): Promise<void> {
    const gens = [...this.live];
    this.live.clear();
    for (const g of gens) g.retired = true;
    await Promise.all(gens.map((g) => g.pool.shutdown()));
  }
}
