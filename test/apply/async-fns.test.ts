// Async user functions in mapBlocks, blockwise and lazyApply: their tasks are awaited on
// every scheduler, never fused with their neighbours, and give the same values as the
// synchronous version; a plain function that returns a promise inside a fused task fails
// with a message that says to declare it async.

import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import { isTesseraError, KernelError, type TaskError } from '../../src/errors.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { blockwise, compute, fromArray, lazyApply, mapBlocks } from '../../src/index.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import { expectArray, randomDense } from '../helpers/reference.ts';
import { rejection } from '../helpers/rejection.ts';

afterAll(() => shutdownDefaultPool());

const ref = randomDense([12, 10], 'float64', 8);
const x = () => fromArray(ref, { chunks: [5, 4] });
const dense = (f: (v: number) => number) => ({
  dtype: 'float64' as const,
  shape: ref.shape,
  data: (ref.data as NumberArray).map(f),
});

// Self-contained, so worker threads and processes get them by source.
const plusOneLater = async (b: NDArray) => {
  await new Promise((r) => setTimeout(r, 1));
  return (b.data as NumberArray).map((v) => v + 1);
};
const sortRowsLater = async (a: NDArray) => {
  await new Promise((r) => setTimeout(r, 1));
  const n = a.shape[1]!;
  const o = a.data.slice();
  for (let i = 0; i < o.length; i += n) o.subarray(i, i + n).sort();
  return o;
};

describe.each(['sync', 'threads', 'processes'] as const)('async functions on %s', (scheduler) => {
  const opts = { scheduler, workers: 2 } as const;

  test('mapBlocks and blockwise between elementwise steps', async () => {
    const y = mapBlocks(plusOneLater, x().mul(2), { dtype: 'float64' }).add(1);
    expectArray(
      await compute(y, opts),
      dense((v) => v * 2 + 2),
    );
    const z = blockwise(plusOneLater, 'ij', x(), 'ij', { dtype: 'float64' });
    expectArray(
      await compute(z, opts),
      dense((v) => v + 1),
    );
  }, 30_000);

  test('lazyApply with core axes', async () => {
    const got = await compute(lazyApply(sortRowsLater, x(), { axis: 1 }), opts);
    const want = ref.data.slice();
    for (let i = 0; i < want.length; i += 10) want.subarray(i, i + 10).sort();
    expectArray(got, { shape: ref.shape, data: want });
  }, 30_000);
});

describe('graph and errors', () => {
  test('an async mapBlocks is a task of its own; a sync one fuses with its neighbours', () => {
    const kernels = (f: (b: NDArray) => unknown) => {
      const y = mapBlocks(f, x().mul(2), { dtype: 'float64' }).add(1);
      const table = materializeTasks(fuseLayers([y.layer]));
      return new Set(table.layers.map((l) => l.op));
    };
    const sync = kernels((b: NDArray) => b.data);
    const later = kernels(plusOneLater);
    expect([...later].some((op) => op.includes('plusOneLater'))).toBe(true);
    expect(later.size).toBeGreaterThan(sync.size);
  });

  test('a plain function returning a promise inside a fused task says to declare it async', async () => {
    const sneaky = (b: NDArray) => Promise.resolve(b.data);
    const y = mapBlocks(sneaky, x().mul(2), { dtype: 'float64' }).add(1);
    const err = (await rejection(compute(y, { scheduler: 'sync' }))) as TaskError;
    expect(isTesseraError(err, 'TaskError')).toBe(true);
    expect(err.cause).toBeInstanceOf(KernelError);
    expect(String(err.cause)).toMatch(/returns a promise must be declared async/);
  });
});
