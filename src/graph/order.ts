// Memory-aware static order of a task table: a depth-first post-order from the outputs,
// so one branch (a reduction subtree, an output block) finishes before the next starts.

import type { TaskTable } from './materialize.ts';

/**
 * Priority of every task (lower runs first): its position in a depth-first post-order
 * walk from the output blocks, visiting each task's inputs in kernel order. Dependencies
 * always come before their dependents.
 * @example
 * const prio = orderTasks(materializeTasks([y.layer]));
 */
export function orderTasks(table: TaskTable): Int32Array {
  const { count, depStart, depCount, deps } = table;
  const priority = new Int32Array(count).fill(-1);
  const visiting = new Uint8Array(count);
  const stackTask = new Int32Array(count);
  const stackNext = new Int32Array(count);
  let next = 0;
  for (const out of table.outputs) {
    for (const root of out) {
      if (priority[root]! >= 0) continue;
      let sp = 0;
      stackTask[0] = root;
      stackNext[0] = 0;
      visiting[root] = 1;
      while (sp >= 0) {
        const t = stackTask[sp]!;
        const i = stackNext[sp]!;
        if (i < depCount[t]!) {
          stackNext[sp] = i + 1;
          const d = deps[depStart[t]! + i]!;
          if (priority[d]! < 0 && !visiting[d]) {
            visiting[d] = 1;
            sp++;
            stackTask[sp] = d;
            stackNext[sp] = 0;
          }
        } else {
          priority[t] = next++;
          sp--;
        }
      }
    }
  }
  return priority;
}
