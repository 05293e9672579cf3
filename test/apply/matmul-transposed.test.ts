// matmul of a transposed operand (x.T @ y, x @ y.T, matrixTranspose of stacks) reads the
// untransposed array's blocks, with no transpose layer in the graph, on every CPU backend:
// checked against naive loops on random shapes, chunkings and dtypes.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { matmul } from '../../src/apply/linalg.ts';
import { permuteDims } from '../../src/apply/transpose.ts';
import { compute } from '../../src/array/compute.ts';
import type { DType } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray, shapeSize } from '../../src/array/ndarray.ts';
import { blasAvailable } from '../../src/backends/cpu-blas/support.ts';
import type { Layer } from '../../src/graph/layer.ts';
import { matrixTranspose, withBackend } from '../../src/index.ts';
import { expectArray, randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';
import { denseMatmul } from './contraction-reference.ts';

function chunked(shape: number[], dtype: DType, seed: number) {
  const r = rng(seed + 7);
  const dense = randomDense(shape, dtype, seed);
  return { dense, lazy: fromArray(dense, { chunks: shape.map((n) => randomAxisChunks(n, r)) }) };
}

/** Dense swap of the last two axes, by loops. */
function denseT(x: NDArray): NDArray {
  const nd = x.ndim;
  const [r, c] = [x.shape[nd - 2]!, x.shape[nd - 1]!];
  const batch = shapeSize(x.shape.slice(0, -2));
  const out = new Float64Array(x.size);
  for (let t = 0; t < batch; t++) {
    for (let i = 0; i < r; i++) {
      for (let j = 0; j < c; j++)
        out[t * r * c + j * r + i] = Number(x.data[t * r * c + i * c + j]);
    }
  }
  return new NDArray(out, [...x.shape.slice(0, -2), c, r], 'float64');
}

function layerOps(x: LazyArray): string[] {
  const seen = new Set<Layer>();
  const walk = (l: Layer): void => {
    if (seen.has(l)) return;
    seen.add(l);
    for (const d of l.deps) walk(d);
  };
  walk(x.layer);
  return [...seen].map((l) => l.op);
}

const backends = ['cpu-js', 'cpu-wasm', ...(blasAvailable() === true ? ['cpu-blas'] : [])];
/** A scope where `backend` goes first and the other CPU backends are off (cpu-js runs the rest). */
const only = (backend: string) => ({
  prioritize: backend,
  disable: ['cpu-js', 'cpu-wasm', 'cpu-blas'].filter((b) => b !== backend && b !== 'cpu-js'),
});
const dim = fc.integer({ min: 1, max: 40 });

describe.each(backends)('transposed operands on %s', (backend) => {
  test('x.T @ y and x @ y.T equal the dense products, with no transpose layer', async () => {
    await fc.assert(
      fc.asyncProperty(
        dim,
        dim,
        dim,
        fc.constantFrom<DType>('float64', 'float32'),
        fc.boolean(),
        fc.integer({ min: 1, max: 1e6 }),
        async (m, k, n, dtype, left, seed) => {
          // left: a is stored k×m and used as a.T; else b is stored n×k and used as b.T
          const a = chunked(left ? [k, m] : [m, k], dtype, seed);
          const b = chunked(left ? [k, n] : [n, k], dtype, seed + 1);
          const build = () =>
            left ? matmul(a.lazy.T, b.lazy) : matmul(a.lazy, matrixTranspose(b.lazy));
          const y = withBackend(only(backend), build);
          expect(layerOps(y)).not.toContain('transpose');
          const A = left ? denseT(a.dense) : a.dense;
          const B = left ? b.dense : denseT(b.dense);
          // float32 partial products are stored as float32 before the sum tree adds them
          expectArray(
            await compute(y),
            denseMatmul(A, B, dtype),
            dtype === 'float32' ? 1e-4 : 1e-9,
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  test('x.T @ x of a tall array in row blocks, and stacks through matrixTranspose', async () => {
    // fixed 100-row blocks: a product big enough that no backend defers it
    const dense = randomDense([300, 24], 'float64', 5);
    const tall = fromArray(dense, { chunks: [100, 24] });
    const traced = withBackend({ ...only(backend), trace: true }, () =>
      matmul(matrixTranspose(tall), tall),
    );
    expect(traced.decisions.find((d) => d.op === 'matmul')?.backend).toBe(backend);
    const y = traced.value;
    expectArray(await compute(y), denseMatmul(denseT(dense), dense, 'float64'));
    const s = chunked([3, 20, 30], 'float64', 6);
    const t = chunked([3, 20, 10], 'float64', 7);
    const z = withBackend(only(backend), () => matmul(matrixTranspose(s.lazy), t.lazy));
    expect(layerOps(z)).not.toContain('transpose');
    expectArray(await compute(z), denseMatmul(denseT(s.dense), t.dense, 'float64'));
  });

  test('other permutations are not taken as a matrix transpose', async () => {
    const s = chunked([4, 3, 5], 'float64', 8);
    const p = permuteDims(s.lazy, [1, 0, 2]); // (3, 4, 5): batch and rows swapped
    const q = chunked([3, 5, 2], 'float64', 10);
    const y = withBackend(only(backend), () => matmul(p, q.lazy));
    expect(layerOps(y)).toContain('transpose');
    const pd = await compute(p);
    expectArray(await compute(y), denseMatmul(pd, q.dense, 'float64'));
  });
});
