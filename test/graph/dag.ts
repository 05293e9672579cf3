// Test helper: random small layer DAGs of synthetic layers with a scalar block value,
// so graph passes and the scheduler can be checked without array operations.

import fc from 'fast-check';
import { NDArray } from '../../src/array/ndarray.ts';
import { defineLayer } from '../../src/graph/define-layer.ts';
import type { Layer } from '../../src/graph/layer.ts';
import type { Chunk, Kernel, KernelRegistry } from '../../src/kernels/types.ts';

/** A registry with 'test-sum': the sum of the inputs' first elements plus params.bias. */
export function testRegistry(): KernelRegistry {
  const reg: KernelRegistry = new Map();
  reg.set('test-sum', ((inputs: Chunk[], p: { bias: number }) => {
    let s = p.bias;
    for (const c of inputs) s += (c as NDArray).data[0] as number;
    return new NDArray(new Float64Array([s]), [1], 'float64');
  }) as Kernel<never>);
  return reg;
}

/** A source layer of `n` one-element blocks with values 1..n. */
export function sourceLayer(name: string, n: number): Layer {
  return defineLayer({
    op: 'src',
    name,
    deps: [],
    chunks: [Array(n).fill(1)],
    dtype: 'float64',
    task: () => {
      throw new Error('source');
    },
    constant: (b) => new NDArray(new Float64Array([b[0]! + 1]), [1], 'float64'),
  });
}

/** A layer whose block i sums block i of each dep (deps share its block count). */
export function sumLayer(deps: Layer[], n: number, bias: number, prefix = 's'): Layer {
  return defineLayer({
    op: `${prefix}sum`,
    token: [bias],
    deps,
    chunks: [Array(n).fill(1)],
    dtype: 'float64',
    fusable: true,
    task: (b) => ({
      kernel: 'test-sum',
      inputs: deps.map((_, d) => [d, b] as const),
      params: { bias },
    }),
  });
}

/** A layer of one block summing every block of `dep` (a reduction). */
export function reduceLayer(dep: Layer, prefix = 'r'): Layer {
  const n = dep.chunks[0]!.length;
  return defineLayer({
    op: `${prefix}reduce`,
    deps: [dep],
    chunks: [[1]],
    dtype: 'float64',
    task: () => ({
      kernel: 'test-sum',
      inputs: Array.from({ length: n }, (_, i) => [0, [i]] as const),
      params: { bias: 0 },
    }),
  });
}

/** A DAG recipe: each node lists earlier nodes it consumes (node 0.. are sources). */
export interface DagRecipe {
  blocks: number;
  sources: number;
  nodes: number[][];
}

export const arbDag: fc.Arbitrary<DagRecipe> = fc
  .record({
    blocks: fc.integer({ min: 1, max: 4 }),
    sources: fc.integer({ min: 1, max: 3 }),
    picks: fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 8,
    }),
  })
  .map(({ blocks, sources, picks }) => ({
    blocks,
    sources,
    nodes: picks.map((p, i) => [...new Set(p.map((v) => v % (sources + i)))]),
  }));

/** Build a recipe's layers with a name prefix (to check order does not depend on names). */
export function buildDag(r: DagRecipe, prefix: string): Layer[] {
  const layers: Layer[] = [];
  for (let s = 0; s < r.sources; s++) layers.push(sourceLayer(`${prefix}src${s}`, r.blocks));
  for (const [i, deps] of r.nodes.entries()) {
    layers.push(
      sumLayer(
        deps.map((d) => layers[d]!),
        r.blocks,
        i,
        prefix,
      ),
    );
  }
  return layers;
}

/** Dense reference value of block b of every layer in a recipe. */
export function referenceValues(r: DagRecipe, b: number): number[] {
  const v: number[] = [];
  for (let s = 0; s < r.sources; s++) v.push(b + 1);
  for (const [i, deps] of r.nodes.entries()) v.push(deps.reduce((acc, d) => acc + v[d]!, i));
  return v;
}
