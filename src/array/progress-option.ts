// Adapts compute's `progress` option to the scheduler's progress callback.

import { createProgress, type ProgressEvent } from '../diagnostics/progress.ts';
import type { TaskTable } from '../graph/materialize.ts';
import { runnableCount } from '../graph/materialize.ts';

export type ProgressOption = boolean | ((p: ProgressEvent) => void) | undefined;

/** A progress sink for a compute, or undefined when none was asked for. */
export function progressReporter(
  opt: ProgressOption,
  table: TaskTable,
):
  | { update: (done: number, total: number, bytes: number) => void; finish: () => void }
  | undefined {
  if (opt === undefined || opt === false) return undefined;
  const sink = createProgress(opt, runnableCount(table));
  return { update: (done, _total, bytes) => sink.update(done, bytes), finish: () => sink.finish() };
}
