// The thread-pool executor: batches of tasks run on worker_threads (comlink + p-queue), chunk
// data shared through SharedArrayBuffers; main-thread tasks run here through runTask.

import type { ResourceLimits } from 'node:worker_threads';
import { optionsObject } from './options-object.ts';
import {
  type MemberContext,
  PoolExecutor,
  type PoolMember,
  type PoolOptions,
} from './pool-executor.ts';
import { PoolWorker } from './pool-worker.ts';
import { sharedPool, shutdownSharedPools } from './shared-pools.ts';

export interface ThreadPoolOptions extends PoolOptions {
  /** Heap limits per worker: a worker over them dies with WorkerCrashedError. */
  readonly resourceLimits?: ResourceLimits;
}

/**
 * Runs task batches on a pool of worker threads. Batches resolve in task order; a kernel
 * throw rejects with TaskError, a dying worker with WorkerCrashedError (and is replaced),
 * an abort with CancelledError at once; a worker still running a task of the aborted batch
 * after `abortGraceMs` is terminated and replaced. Idle workers never keep the process alive.
 *
 * Threads share the process: a native crash in a kernel (a segfault in an addon) ends the
 * whole program. Give such a function `{ isolate: true }` (its tasks then run in a pool
 * process) or run everything on ProcessPoolExecutor (scheduler 'processes').
 * @example
 * const pool = new ThreadPoolExecutor({ workers: 2 });
 * const [y] = await pool.run([{ id: 0, key: 'slice-0', kernel: 'slice', params, inputs: [x] }]);
 * await pool.shutdown();
 */
export class ThreadPoolExecutor extends PoolExecutor {
  readonly name = 'threads';
  /** Blocks reuse released memory, unless a registry module's (user) kernels run here too. */
  readonly recycles: 'spares' | undefined;

  constructor(private readonly opts: ThreadPoolOptions = {}) {
    super('ThreadPoolExecutor', optionsObject('ThreadPoolExecutor', opts).registryModule, opts);
    this.recycles = opts.registryModule === undefined ? 'spares' : undefined;
  }

  protected spawn(ctx: MemberContext): PoolMember {
    const { registryModule, resourceLimits } = this.opts;
    return new PoolWorker({ registryModule, resourceLimits, depth: this.depth }, ctx);
  }
}

/**
 * The shared pool (config.workers threads), created on first use.
 * @example
 * const y = await getDefaultPool().run(batch);
 */
export function getDefaultPool(): ThreadPoolExecutor {
  return getPool();
}

/**
 * The shared pool, or a shared pool of `workers` threads when a compute asks for a size.
 * @example
 * const pool = getPool(2);
 */
export function getPool(workers?: number): ThreadPoolExecutor {
  return sharedPool('threads', workers, (n) => new ThreadPoolExecutor({ workers: n }));
}

/**
 * Shut the shared pools (threads and processes) down; a later compute starts new ones.
 * @example
 * await shutdownDefaultPool();
 */
export async function shutdownDefaultPool(): Promise<void> {
  await shutdownSharedPools();
}
