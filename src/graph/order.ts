// Memory-aware static order of a task table: a depth-first post-order from the outputs,
// so one branch (a reduction subtree, an output block) finishes before the next starts;
// a task whose inputs have all been ordered is ordered at once, so shared inputs free early.

import type { TaskTable } from './materialize.ts';

/** Dependents of every task, as CSR: `start[t] .. start[t + 1]` into `list`. */
function dependentsOf(table: TaskTable): { start: Int32Array; list: Int32Array } {
  const { count, deps } = table;
  const start = new Int32Array(count + 1);
  for (let i = 0; i < deps.length; i++) start[deps[i]! + 1]!++;
  for (let t = 0; t < count; t++) start[t + 1]! += start[t]!;
  const fill = start.slice(0, count);
  const list = new Int32Array(deps.length);
  for (let t = 0; t < count; t++) {
    const s = table.depStart[t]!;
    for (let i = 0; i < table.depCount[t]!; i++) list[fill[deps[s + i]!]!++] = t;
  }
  return { start, list };
}

/**
 * Priority of every task (lower runs first): a depth-first post-order walk from the output
 * blocks, visiting each task's inputs in kernel order; whenever every input of a task has
 * been ordered, that task is ordered next. Dependencies always come before dependents.
 * @example
 * const prio = orderTasks(materializeTasks([y.layer]));
 */
export function orderTasks(table: TaskTable): Int32Array {
  const { count, depStart, depCount, deps } = table;
  const priority = new Int32Array(count).fill(-1);
  // computed inputs not yet ordered; source blocks (constants) exist already, and ordering
  // one must not release all of its readers at once (fromArray's one block feeds them all)
  const missing = new Int32Array(count);
  for (let t = 0; t < count; t++) {
    for (let i = 0; i < depCount[t]!; i++) {
      if (!table.isConstant[deps[depStart[t]! + i]!]) missing[t]!++;
    }
  }
  const { start, list } = dependentsOf(table);
  const stackTask = new Int32Array(count);
  const stackNext = new Int32Array(count);
  const visiting = new Uint8Array(count);
  const ready: number[] = [];
  let next = 0;

  const assign = (t: number): void => {
    for (let i = depStart[t]!; i < depStart[t]! + depCount[t]!; i++) {
      if (priority[deps[i]!]! < 0 && table.isConstant[deps[i]!]) priority[deps[i]!] = next++;
    }
    priority[t] = next++;
    if (table.isConstant[t]) return;
    for (let i = start[t]!; i < start[t + 1]!; i++) {
      const d = list[i]!;
      if (--missing[d]! === 0 && !visiting[d]) ready.push(d);
    }
  };
  const drain = (): void => {
    while (ready.length > 0) {
      const d = ready.pop()!;
      if (priority[d]! < 0 && !visiting[d]) assign(d);
    }
  };

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
          visiting[t] = 0;
          if (priority[t]! < 0) assign(t);
          sp--;
          drain();
        }
      }
    }
  }
  return priority;
}
