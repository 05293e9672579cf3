// Picks the executor a compute runs on: inline for 'sync', the shared worker-thread pool for
// 'threads', the process pool for 'processes' (loaded when used), or the caller's Executor.

import type { SchedulerName } from '../config.ts';
import { ValueError } from '../errors.ts';
import { createFnResolver } from '../kernels/resolve.ts';
import { InlineExecutor } from '../workers/inline.ts';
import type { Executor } from '../workers/types.ts';

let inline: InlineExecutor | undefined;

/** The main thread's inline executor (resolves inline, module and source kernels). */
export function inlineExecutor(): InlineExecutor {
  inline ??= new InlineExecutor(createFnResolver({ inline: true }));
  return inline;
}

/** The executor for a compute's `scheduler` option. */
export async function resolveExecutor(
  scheduler: SchedulerName | Executor,
  workers?: number,
): Promise<Executor> {
  if (typeof scheduler === 'object') return scheduler;
  if (scheduler === 'sync') return inlineExecutor();
  if (scheduler === 'threads') {
    const { getPool } = await import('../workers/pool.ts');
    return getPool(workers);
  }
  if (scheduler === 'processes') {
    const { getProcessPool } = await import('../workers/process-pool.ts');
    return getProcessPool(workers);
  }
  if (scheduler === 'distributed') {
    const { getDistributedExecutor } = await import('../workers/distributed-shared.ts');
    return getDistributedExecutor();
  }
  throw new ValueError(
    `compute: scheduler ${JSON.stringify(scheduler)} is not one of 'sync', 'threads', 'processes', 'distributed', or an Executor`,
  );
}
