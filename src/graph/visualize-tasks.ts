// DOT text of the task graph (ts-graphviz): one node per task of the materialized table (source
// blocks as boxes), edges from each input block to its consumer. Capped: large graphs are unreadable.

import { Digraph, Edge, Node, toDot } from 'ts-graphviz';
import { ValueError } from '../errors.ts';
import { type TaskTable, taskKey } from './materialize.ts';

/** The most tasks a task-level picture draws. */
export const MAX_DRAWN_TASKS = 2000;

/**
 * The tasks of `table` as DOT text; more than MAX_DRAWN_TASKS is a ValueError naming `fn`.
 * @example
 * const dot = tasksToDot(materializeTasks([x.sum().layer]), 'visualize');
 */
export function tasksToDot(table: TaskTable, fn: string): string {
  if (table.count > MAX_DRAWN_TASKS) {
    throw new ValueError(
      `${fn}: level 'tasks' draws at most ${MAX_DRAWN_TASKS} tasks, this graph has ${table.count}; use level 'operations' (one node per operation) or fewer chunks`,
    );
  }
  const dot = new Digraph('tessera', { rankdir: 'BT' });
  const nodes: Node[] = [];
  for (let t = 0; t < table.count; t++) {
    const key = taskKey(table, t);
    const layer = table.layers[table.layerOf[t]!]!;
    const node = new Node(`t${t}`, {
      label: `${layer.op}\n${key.slice(key.lastIndexOf(':') + 1)}`,
      shape: table.isConstant[t] ? 'box' : 'ellipse',
      tooltip: key,
    });
    nodes.push(node);
    dot.addNode(node);
  }
  for (let t = 0; t < table.count; t++) {
    const s = table.depStart[t]!;
    for (let i = 0; i < table.depCount[t]!; i++) {
      dot.addEdge(new Edge([nodes[table.deps[s + i]!]!, nodes[t]!]));
    }
  }
  return toDot(dot);
}
