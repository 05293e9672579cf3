// The process-pool executor: batches of tasks run in child processes, so a kernel that
// crashes natively (a segfault in an addon, an abort) kills only its process.

import type { CodePolicy } from '../kernels/code-policy.ts';
import {
  type MemberContext,
  PoolExecutor,
  type PoolMember,
  type PoolOptions,
} from './pool-executor.ts';
import { PoolProcess } from './pool-process.ts';
import { sharedPool } from './shared-pools.ts';

export interface ProcessPoolOptions extends PoolOptions {
  /** V8 old-space limit per process (--max-old-space-size): over it, it dies with WorkerCrashedError. */
  readonly maxOldGenerationSizeMb?: number;
  /**
   * Bytes of large shared input buffers each process keeps while a compute runs (default
   * 1 GiB): the data under fromArray goes to a process once per compute, not with every task.
   */
  readonly cacheBytes?: number;
  /**
   * What code the processes may load (createCodePolicy): a task naming a module outside its
   * roots, or a kernel by source when that is not allowed, fails with TaskError before any
   * import. Default: no check.
   */
  readonly codePolicy?: CodePolicy;
}

/**
 * Runs task batches in child processes (scheduler 'processes'). Kernels are isolated: a
 * native crash, process.exit or running out of memory gives WorkerCrashedError naming the
 * task, and the process is replaced; so is one still running a task of an aborted batch
 * after `abortGraceMs` (killed). The price is copying: chunks travel over IPC (about
 * 0.3–0.5 GB/s and ~75 µs per batch on this machine), where worker threads share memory.
 * Use it for kernels that may crash the process; use 'threads' for everything else.
 * @example
 * const pool = new ProcessPoolExecutor({ workers: 2 });
 * const y = await compute(x.sum(), { scheduler: pool });
 * await pool.shutdown();
 */
export class ProcessPoolExecutor extends PoolExecutor {
  readonly name = 'processes';
  protected override readonly isolates = true;

  constructor(private readonly opts: ProcessPoolOptions = {}) {
    super('ProcessPoolExecutor', opts.registryModule, opts);
  }

  protected spawn(ctx: MemberContext): PoolMember {
    const { registryModule, maxOldGenerationSizeMb, cacheBytes = 2 ** 30, codePolicy } = this.opts;
    return new PoolProcess({ registryModule, maxOldGenerationSizeMb, cacheBytes, codePolicy }, ctx);
  }
}

/**
 * The shared process pool (config.workers processes), or one of `workers` processes.
 * @example
 * const pool = getProcessPool(2);
 */
export function getProcessPool(workers?: number): ProcessPoolExecutor {
  return sharedPool('processes', workers, (n) => new ProcessPoolExecutor({ workers: n }));
}
