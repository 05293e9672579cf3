// The inline ('sync') executor: runs each task on the calling thread, through the same
// runTask path the worker threads use, with no promise per task.

import { builtinKernels } from '../backends/cpu-js/registry.ts';
import { type FnResolver, runTask } from '../kernels/run-task.ts';
import type { Chunk, KernelRegistry } from '../kernels/types.ts';
import { runIsolated } from './isolated.ts';
import type { Executor, TaskPayload } from './types.ts';

/**
 * An executor that runs tasks inline.
 * @example
 * await runTasks(table, new InlineExecutor(resolver), { priority });
 */
export class InlineExecutor implements Executor {
  readonly name = 'sync';
  readonly concurrency = 1;
  /** Blocks reuse released memory, unless the registry holds kernels of another's. */
  readonly recycles: 'inline' | undefined;

  constructor(
    private readonly resolve: FnResolver,
    private readonly registry: KernelRegistry = builtinKernels,
  ) {
    this.recycles = registry === builtinKernels ? 'inline' : undefined;
  }

  runSync(task: TaskPayload): Chunk | Promise<Chunk> {
    if (task.isolated) return runIsolated([task]).then((r) => r[0]!);
    return runTask(task, this.registry, this.resolve);
  }

  async run(batch: readonly TaskPayload[]): Promise<Chunk[]> {
    const out: Chunk[] = [];
    for (const t of batch) out.push(await this.runSync(t));
    return out;
  }
}
