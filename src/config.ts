// Global configuration: defaults every operation reads when a call does not say otherwise.
// One mutable object, set with `configure()`; tests restore it with `resetConfig()`.

import { isMainThread } from 'node:worker_threads';
import { defaultBufferPoolLimit, setBufferPoolLimit } from './array/buffer-pool.ts';
import { checkConfigPatch } from './config-check.ts';

/**
 * Where compute() runs tasks: inline ('sync'), on worker threads sharing memory ('threads'),
 * in child processes that isolate native crashes ('processes'), or on a cluster.
 */
export type SchedulerName = 'sync' | 'threads' | 'processes' | 'distributed';

/** The global settings `configure` changes and `config` reads (scheduler, workers, chunk sizes, memory bound, backends, limits). */
export interface Config {
  /** Target bytes per chunk for 'auto' chunks. */
  chunkBytes: number;
  /** Pool size for 'threads' and 'processes'; 0 = os.availableParallelism(). */
  workers: number;
  /** Default scheduler for compute(). */
  scheduler: SchedulerName;
  /** Default fan-in of reduction trees. */
  splitEvery: number;
  /** Backend names, lowest priority first, above the built-in order (default: none). */
  backendPriority: string[];
  /** Redis of the 'distributed' scheduler (default: env TESSERA_REDIS_URL, or localhost). */
  redis: string;
  /**
   * After a compute is aborted or times out, how long (ms) a pool worker may keep running one
   * of its tasks before it is terminated and replaced (default 1000).
   */
  abortGraceMs: number;
  /**
   * The most blocks one array's chunk grid may have (default 10 million): a larger grid is a
   * ChunkError when the array is built, before any per-block work.
   */
  maxTasks: number;
  /**
   * The most bytes of released block buffers kept for reuse by new blocks (default an eighth
   * of the machine's memory, at most 1 GiB; 0 turns reuse off). Touching fresh memory costs
   * page faults, reused memory does not; kept buffers are let go after 2 s idle.
   */
  bufferPool: number;
}

const defaults: Config = {
  chunkBytes: 128 * 2 ** 20,
  workers: 0,
  scheduler: 'threads',
  splitEvery: 4,
  backendPriority: [],
  redis: process.env.TESSERA_REDIS_URL ?? 'redis://127.0.0.1:6379',
  abortGraceMs: 1000,
  maxTasks: 10_000_000,
  bufferPool: defaultBufferPoolLimit(),
};

/** The live configuration. Read it; change it with `configure()`. */
export const config: Config = { ...defaults, backendPriority: [...defaults.backendPriority] };

/**
 * Change global defaults.
 * @example
 * configure({ chunkBytes: 16 * 2 ** 20 });
 */
export function configure(patch: Partial<Config>): Config {
  checkConfigPatch(patch);
  Object.assign(
    config,
    patch,
    patch.backendPriority ? { backendPriority: [...patch.backendPriority] } : {},
  );
  if (patch.bufferPool !== undefined && isMainThread) setBufferPoolLimit(config.bufferPool);
  return config;
}

/**
 * Restore every default (for tests).
 * @example
 * configure({ scheduler: 'sync' });
 * resetConfig(); // config.scheduler is the default again
 */
export function resetConfig(): void {
  Object.assign(config, defaults, { backendPriority: [...defaults.backendPriority] });
  if (isMainThread) setBufferPoolLimit(config.bufferPool);
}
