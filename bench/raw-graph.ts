// The raw graph of the per-task overhead benchmarks: n independent trivial tasks, each picking
// the one element of a shared tuple (as Dask's per_task_overhead.py builds noop(i) tasks).

import { NDArray } from '../src/array/ndarray.ts';
import { defineLayer } from '../src/graph/define-layer.ts';
import type { Layer } from '../src/graph/layer.ts';

/** N independent tasks, each picking the one element of a shared tuple (Dask: noop(i)). */
export function rawLayer(n: number): Layer {
  const value = new NDArray(new Float64Array(new SharedArrayBuffer(8)), [1], 'float64');
  const source = defineLayer({
    op: 'tuple',
    name: `bench-tuple-${n}`,
    deps: [],
    chunks: [[1]],
    dtype: 'float64',
    task: () => {
      throw new Error('source has no tasks');
    },
    constant: () => [value],
  });
  const params = { index: 0 };
  return defineLayer({
    op: 'noop',
    deps: [source],
    chunks: [new Array<number>(n).fill(1)],
    dtype: 'float64',
    task: () => ({ kernel: 'pick', inputs: [[0, [0]]], params }),
  });
}
