// Tasks of { isolate: true } user functions: whatever the scheduler, they run on the shared
// process pool, so a native crash in one costs a process, not the program.

import type { Chunk } from '../kernels/types.ts';
import type { BatchTiming } from './task-timing.ts';
import type { TaskPayload } from './types.ts';

/**
 * Run isolated tasks on the shared process pool (started on first use).
 * @example
 * const [block] = await runIsolated([task]);
 */
export async function runIsolated(
  tasks: readonly TaskPayload[],
  signal?: AbortSignal,
  timing?: BatchTiming,
): Promise<Chunk[]> {
  const { getProcessPool } = await import('./process-pool.ts');
  return getProcessPool().run(tasks, signal, timing);
}
