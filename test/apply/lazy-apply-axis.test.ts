// lazyApply with core axes (issue point 15): only core axes are made whole, one task per
// block of the other axes, inputs of different chunkings unified, core axes resized or dropped.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { add } from '../../src/apply/elementwise-arith.ts';
import { lazyApply } from '../../src/apply/lazy-apply.ts';
import { compute } from '../../src/array/compute.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { lazyKernels } from '../fixtures/lazy-kernels.ts';
import { arbShapeAndChunks, at, expectArray, randomDense } from '../helpers/reference.ts';

/** Runnable task count per layer op prefix. */
function countTasks(x: LazyArray, op: string): number {
  const t = materializeTasks([x.layer]);
  let n = 0;
  for (let i = 0; i < t.count; i++)
    if (!t.isConstant[i] && t.layers[t.layerOf[i]!]!.op.startsWith(op)) n++;
  return n;
}

/** Ops of the layers that have runnable tasks. */
function taskOps(x: LazyArray): string[] {
  const t = materializeTasks([x.layer]);
  const ops = new Set<string>();
  for (let i = 0; i < t.count; i++) if (!t.isConstant[i]) ops.add(t.layers[t.layerOf[i]!]!.op);
  return [...ops].sort();
}

/** Dense reference: sort each row (last axis) of a 2-D array. */
function sortedRows(x: NDArray): number[] {
  const [r, c] = x.shape as [number, number];
  const out: number[] = [];
  for (let i = 0; i < r; i++) {
    const row = Array.from({ length: c }, (_, j) => at(x, [i, j]));
    out.push(...row.sort((a, b) => a - b));
  }
  return out;
}

const sortAlongAxis1 = (b: NDArray) => {
  const n = b.shape[1]!;
  const out = b.data.slice();
  for (let i = 0; i < out.length; i += n) out.subarray(i, i + n).sort();
  return out;
};

describe('15: core axes', () => {
  const dense = randomDense([16, 12], 'float64', 11);
  const x = fromArray(dense, { chunks: [2, 3] }); // 8 x 4 blocks

  test('15: only axis 1 is made whole: 8 independent tasks, each reading whole rows', async () => {
    const y = lazyApply(sortAlongAxis1, x, { axis: 1 });
    expect(y.chunks).toEqual([Array(8).fill(2), [12]]);
    expect(countTasks(y, 'lazy-apply')).toBe(8);
    expect(y.layer.task([5, 0]).params).toMatchObject({
      args: [{ count: 1, slice: { start: [10, 0], count: [2, 12] } }],
    });
    expectArray(await compute(y), { shape: [16, 12], data: sortedRows(dense) });
  });

  // x of 20 x 4 blocks with axis 1: 20 tasks and no rechunk layer, whatever made the blocks
  const big = randomDense([40, 8], 'float64', 21);
  test.each([
    // wrapped data: each task slices its rows out of the data (one copy, no block copied first)
    ['wrapped data (fromArray)', () => fromArray(big, { chunks: [2, 2] }), 1],
    // blocks a task computes: each task takes the 4 blocks of its rows and concatenates them
    ['computed blocks', () => add(fromArray(big, { chunks: [2, 2] }), 0), 4],
  ])('15: %s: 20 tasks, no rechunk layer', async (_, make, inputsPerTask) => {
    const y = lazyApply(sortAlongAxis1, make(), { axis: 1 });
    expect(y.chunks).toEqual([Array(20).fill(2), [8]]);
    expect(countTasks(y, 'lazy-apply')).toBe(20);
    const ops = taskOps(y);
    expect(ops.filter((op) => op.startsWith('rechunk'))).toEqual([]);
    expect(ops.filter((op) => op.startsWith('lazy-apply'))).toEqual(['lazy-apply-sortAlongAxis1']);
    // wrapped data: not even fromArray's slices run
    if (inputsPerTask === 1) expect(ops).toEqual(['lazy-apply-sortAlongAxis1']);
    expect(y.layer.task([3, 0]).inputs).toHaveLength(inputsPerTask);
    expectArray(await compute(y), { shape: [40, 8], data: sortedRows(big) });
  });

  test('15: whole rows of wrapped data reach fn as views of the data, other regions as copies', async () => {
    const shared = new Float64Array(new SharedArrayBuffer(6 * 4 * 8));
    for (let i = 0; i < 24; i++) shared[i] = 23 - i;
    const seen: { shared: boolean; offset: number; shape: number[] }[] = [];
    const record = (b: NDArray) => {
      seen.push({
        shared: b.data.buffer === shared.buffer,
        offset: b.data.byteOffset / 8,
        shape: b.shape,
      });
      return sortAlongAxis1(b);
    };
    const rows = fromArray(shared, { shape: [6, 4], chunks: [2, 3] });
    const y = lazyApply(record, rows, { axis: 1, inline: true });
    const want = sortedRows(new NDArray(shared.slice(), [6, 4], 'float64'));
    expectArray(await compute(y, { scheduler: 'sync' }), { shape: [6, 4], data: want });
    expect(seen.sort((a, b) => a.offset - b.offset)).toEqual(
      [0, 8, 16].map((offset) => ({ shared: true, offset, shape: [2, 4] })),
    );
    // columns of a 3-D array: not one run of memory, so a copy
    seen.length = 0;
    const cube = fromArray(shared, { shape: [2, 3, 4], chunks: [1, 2, 4] });
    const z = lazyApply(record, cube, { axis: 0, inline: true });
    await compute(z, { scheduler: 'sync' });
    expect(seen.map((s) => s.shared)).toEqual([false, false]);
  });

  test('15: non-core axes that need new chunks keep one rechunk (it also merges the core axis)', () => {
    const a = fromArray(dense, { chunks: [4, 3] });
    const b = add(fromArray(randomDense([16, 12], 'float64', 12), { chunks: [6, 3] }), 0);
    const y = lazyApply(
      (p: NDArray, q: NDArray) =>
        (p.data as NumberArray).map((v, i) => v + (q.data as NumberArray)[i]!),
      [a, b],
      {
        axis: 1,
      },
    );
    expect(y.chunks).toEqual([[4, 2, 2, 4, 4], [12]]);
    for (const dep of y.layer.deps) {
      expect(dep.op).toBe('rechunk');
      expect(dep.chunks).toEqual([[4, 2, 2, 4, 4], [12]]);
    }
  });

  test('15: a kernel that halves the core axis (a power spectrum) works when shape says so', async () => {
    // row i is a cosine at frequency bin i % 6: its spectrum peaks there
    const n = 12;
    const rows = new Float64Array(16 * n);
    for (let i = 0; i < 16; i++)
      for (let t = 0; t < n; t++) rows[i * n + t] = Math.cos((2 * Math.PI * (i % 6) * t) / n);
    const power = (b: NDArray) => {
      const [r, m] = b.shape as [number, number];
      const out = new Float64Array((r * m) / 2);
      for (let i = 0; i < r; i++)
        for (let k = 0; k < m / 2; k++) {
          let re = 0;
          let im = 0;
          for (let t = 0; t < m; t++) {
            re += (b.data as NumberArray)[i * m + t]! * Math.cos((2 * Math.PI * k * t) / m);
            im -= (b.data as NumberArray)[i * m + t]! * Math.sin((2 * Math.PI * k * t) / m);
          }
          out[(i * m) / 2 + k] = re * re + im * im;
        }
      return out;
    };
    const y = lazyApply(power, fromArray(rows, { shape: [16, n], chunks: [4, 5] }), {
      axis: -1,
      shape: [16, n / 2],
    });
    expect(y.chunks).toEqual([[4, 4, 4, 4], [6]]);
    const got = await compute(y);
    for (let i = 0; i < 16; i++) {
      const row = Array.from({ length: n / 2 }, (_, k) => got.get(i, k) as number);
      expect(row.indexOf(Math.max(...row))).toBe(i % 6);
    }
  });

  test('15: dropping the core axis gives one value per row block', async () => {
    const rowMax = (b: NDArray) => {
      const n = b.shape[1]!;
      return Array.from({ length: b.shape[0]! }, (_, i) =>
        Math.max(...(b.data as NumberArray).subarray(i * n, i * n + n)),
      );
    };
    const y = lazyApply(rowMax, x, { axis: 1, shape: [16] });
    expect(y.chunks).toEqual([Array(8).fill(2)]);
    expect(countTasks(y, 'lazy-apply')).toBe(8);
    const want = Array.from({ length: 16 }, (_, i) =>
      Math.max(...sortedRows(dense).slice(i * 12, i * 12 + 12)),
    );
    expectArray(await compute(y), { shape: [16], data: want });
  });

  test('15: inputs chunked differently on non-core axes are unified; broadcast inputs follow', async () => {
    const a = fromArray(dense, { chunks: [4, 5] });
    const b = fromArray(randomDense([16, 12], 'float64', 12), { chunks: [6, 12] });
    const bias = fromArray(randomDense([12], 'float64', 13), { chunks: 5 });
    const sumSorted = (p: NDArray, q: NDArray, r: NDArray) => {
      const out = (p.data as NumberArray).map(
        (v, i) => v + (q.data as NumberArray)[i]! + (r.data as NumberArray)[i % 12]!,
      );
      for (let i = 0; i < out.length; i += 12) out.subarray(i, i + 12).sort();
      return out;
    };
    const y = lazyApply(sumSorted, [a, b, bias], { axis: 1 });
    expect(y.chunks).toEqual([[4, 2, 2, 4, 4], [12]]);
    expect(countTasks(y, 'lazy-apply')).toBe(5);
    const got = await compute(y);
    const bd = randomDense([16, 12], 'float64', 12);
    const rd = randomDense([12], 'float64', 13);
    const summed = {
      shape: [16, 12],
      data: (dense.data as NumberArray).map(
        (v, i) => v + (bd.data as NumberArray)[i]! + (rd.data as NumberArray)[i % 12]!,
      ),
    };
    expectArray(got, { shape: [16, 12], data: sortedRows(summed as NDArray) });
  });

  test('15: several outputs with core axes: one tuple task per row block', async () => {
    const sortAndMax = (b: NDArray) => {
      const s = (b.data as NumberArray).slice();
      const n = b.shape[1]!;
      const mx: number[] = [];
      for (let i = 0; i < s.length; i += n) mx.push(s.subarray(i, i + n).sort()[n - 1]!);
      return [s, mx];
    };
    const [s, m] = lazyApply(sortAndMax, x, { axis: 1, shape: [[16, 12], [16]] });
    expect([s!.chunks, m!.chunks]).toEqual([[Array(8).fill(2), [12]], [Array(8).fill(2)]]);
    expect(countTasks(m!, 'lazy-apply-sortAndMax')).toBe(8 + 8); // 8 tuple tasks + 8 picks
    expect(countTasks(m!, 'lazy-apply-sortAndMax-out1')).toBe(8);
    const [rs, rm] = await compute(s!, m!);
    const sorted = sortedRows(dense);
    expectArray(rs!, { shape: [16, 12], data: sorted });
    expectArray(rm!, {
      shape: [16],
      data: Array.from({ length: 16 }, (_, i) => sorted[i * 12 + 11]!),
    });
  });

  test('15: property: sorting along the last axis matches the reference on any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbShapeAndChunks(3, 6),
        fc.boolean(),
        async ({ shape, chunks, seed }, computed) => {
          const d = randomDense(shape, 'float64', seed);
          // wrapped data is rechunked in place; computed blocks are gathered by the task
          const input = computed ? add(fromArray(d, { chunks }), 0) : fromArray(d, { chunks });
          const y = lazyApply(lazyKernels.sortRows, input, { axis: -1 });
          const core = shape.length - 1;
          expect(y.chunks).toEqual(chunks.map((c, ax) => (ax === core ? [shape[ax]] : c)));
          const n = shape[core]!;
          const want = Array.from(d.data as NumberArray);
          for (let i = 0; i < want.length; i += n) {
            const row = want.slice(i, i + n).sort((p, q) => p - q);
            want.splice(i, n, ...row);
          }
          expectArray(await compute(y), { shape, data: want });
        },
      ),
      { numRuns: 40 },
    );
  });
});
