// take against a dense gather: random shapes, chunkings, axes and index lists (repeats,
// unsorted, negative), output chunking, blocks read per task, unknown sizes and errors.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { take } from '../../src/apply/take.ts';
import { compute } from '../../src/array/compute.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { ndarray } from '../../src/array/ndarray.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import {
  arbShapeAndChunks,
  expectArray,
  randomDense,
  rng,
  withChunks,
} from '../helpers/reference.ts';
import { denseTake } from './indexing-reference.ts';

describe('take', () => {
  test('random axes and index lists match a dense gather', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 8), async ({ shape, chunks, seed }) => {
        const r = rng(seed + 3);
        const axis = Math.floor(r() * shape.length);
        const n = shape[axis]!;
        const raw = Array.from({ length: Math.floor(r() * 12) }, () => Math.floor(r() * 2 * n) - n);
        const dense = randomDense(shape, 'int16', seed);
        const y = take(fromArray(dense, { chunks }), raw, { axis });
        const expectedShape = [...shape];
        expectedShape[axis] = raw.length;
        expect(y.shape).toEqual(expectedShape);
        chunks.forEach((c, ax) => {
          if (ax !== axis) expect(y.chunks[ax]).toEqual(c);
        });
        const wrapped = raw.map((i) => (i < 0 ? i + n : i));
        expectArray(await compute(y), denseTake(dense, wrapped, axis));
      }),
      { numRuns: 120 },
    );
  });

  test('1-D default axis, repeats and unsorted indices', async () => {
    const x = fromArray(
      Float64Array.from({ length: 10 }, (_, i) => i * 10),
      { chunks: 4 },
    );
    const y = take(x, [7, -1, 0, 7, 3, 3, 9]);
    expect(y.chunks).toEqual([[4, 3]]);
    expect(Array.from((await compute(y)).data as NumberArray)).toEqual([70, 90, 0, 70, 30, 30, 90]);
  });

  test('Int32Array and int NDArray indices', async () => {
    const dense = randomDense([3, 5], 'float64', 2);
    const x = fromArray(dense, { chunks: 2 });
    const a = await compute(take(x, Int32Array.from([4, 0]), { axis: 1 }));
    const b = await compute(take(x, ndarray([4, 0], [2], 'int32'), { axis: -1 }));
    expectArray(a, denseTake(dense, [4, 0], 1));
    expectArray(b, denseTake(dense, [4, 0], 1));
  });

  test('empty index list', async () => {
    const x = fromArray(randomDense([4, 3]), { chunks: 2 });
    const y = take(x, [], { axis: 0 });
    expect(y.shape).toEqual([0, 3]);
    expect((await compute(y)).shape).toEqual([0, 3]);
  });

  test('each output block reads only the input blocks its indices hit', () => {
    const x = fromArray(new Float64Array(100), { chunks: 10, name: 'x' });
    const y = take(x, [5, 3, 1, 95]);
    expect(y.chunks).toEqual([[4]]);
    expect(y.layer.task([0]).inputs).toEqual([
      [0, [0]],
      [0, [9]],
    ]);
    // one take task + the two from-array blocks it reads
    expect(runnableCount(materializeTasks([y.layer]))).toBe(3);
  });

  test('an unknown size on another axis is fine; on the taken axis it is a ChunkError', async () => {
    const dense = randomDense([4, 6], 'float64', 5);
    const x = fromArray(dense, { chunks: [2, 3] });
    const unknown = withChunks(x, [
      [null, null],
      [3, 3],
    ]);
    const y = take(unknown, [5, 0], { axis: 1 });
    expect(y.chunks).toEqual([[null, null], [2]]);
    expectArray(await compute(y), denseTake(dense, [5, 0], 1));
    expectThrow(() => take(unknown, [0], { axis: 0 }), 'ChunkError', /^take: .*computeChunkSizes/);
  });

  test.each<[string, () => unknown, string, RegExp]>([
    [
      'out of bounds',
      () => take(fromArray(new Float64Array(10)), [2, 10]),
      'IndexError',
      /^take: index 10 is out of bounds for axis 0 with size 10/,
    ],
    [
      'negative out of bounds',
      () => take(fromArray(new Float64Array(10)), [-11]),
      'IndexError',
      /^take: index -11 is out of bounds/,
    ],
    [
      'non-integer',
      () => take(fromArray(new Float64Array(10)), [1.5]),
      'IndexError',
      /^take: index 1.5 at position 0 is not an integer/,
    ],
    [
      'float NDArray',
      () => take(fromArray(new Float64Array(10)), ndarray([1, 2])),
      'DTypeError',
      /^take: indices have dtype 'float64'/,
    ],
    [
      '2-D indices',
      () => take(fromArray(new Float64Array(10)), ndarray([1, 2], [1, 2], 'int32')),
      'IndexError',
      /^take: indices of shape \(1, 2\) are not 1-D/,
    ],
    [
      'missing axis',
      () => take(fromArray(new Float64Array(6), { shape: [2, 3] }), [0]),
      'ValueError',
      /^take: axis is required for a 2-d array/,
    ],
    [
      'bad axis',
      () => take(fromArray(new Float64Array(6), { shape: [2, 3] }), [0], { axis: 2 }),
      'ValueError',
      /^take: axis 2 is out of bounds/,
    ],
  ])('error: %s', (_, f, tag, text) => {
    expectThrow(f, tag, text);
  });
});
