// Index forms NumPy users reach for: several items as several arguments, a bool list along
// one axis (x[:, mask]), a lazy integer array inside a tuple, take with lazy indices, and
// einsum broadcasting size-1 axes; each against a dense reference on random shapes.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { blockwise } from '../../src/apply/blockwise.ts';
import { einsum } from '../../src/apply/einsum.ts';
import { getIndex } from '../../src/apply/indexing.ts';
import { sum } from '../../src/apply/reductions.ts';
import { take } from '../../src/apply/take.ts';
import { compute } from '../../src/array/compute.ts';
import { arange } from '../../src/array/creation.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { NDArray, ndarray, shapeSize } from '../../src/array/ndarray.ts';
import '../../src/array/methods.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { arbShapeAndChunks, expectArray, randomDense, rng } from '../helpers/reference.ts';
import { denseEinsum } from './contraction-reference.ts';
import { denseTake } from './indexing-reference.ts';

/** A tuple selecting every element except along `axis`, where `item` sits. */
const tupleAt = (ndim: number, axis: number, item: unknown): unknown[] =>
  Array.from({ length: ndim }, (_, ax) => (ax === axis ? item : {}));

describe('x.get with several items', () => {
  test('x.get(a, b, c) is x.get([a, b, c])', async () => {
    const x = arange(24, { chunks: 5 }).reshape([2, 3, 4]);
    const [a, b] = (await compute(x.get(1, 2, 3), x.get([1, 2, 3]))) as NDArray[];
    expect(a!.shape).toEqual([]);
    expect(a!.data[0]).toBe(23n);
    expect(b!.data[0]).toBe(23n);
    const c = (await compute(x.get(1, { start: 1 }))) as NDArray;
    expectArray(c, { shape: [2, 4], data: [16, 17, 18, 19, 20, 21, 22, 23] });
  });
});

describe('a bool list along one axis (x[:, mask])', () => {
  test('matches a dense selection on random shapes, chunkings and masks', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 7), async ({ shape, chunks, seed }) => {
        const r = rng(seed);
        const axis = Math.floor(r() * shape.length);
        const mask = Array.from({ length: shape[axis]! }, () => r() < 0.5);
        mask[0] = true; // NumPy allows an all-false mask too; keep the list boolean-typed
        const dense = randomDense(shape, 'float64', seed);
        const x = fromArray(dense, { chunks });
        const got = (await compute(
          getIndex(x, tupleAt(shape.length, axis, mask) as never),
        )) as NDArray;
        const positions = mask.flatMap((m, i) => (m ? [i] : []));
        expectArray(got, denseTake(dense, positions, axis));
      }),
      { numRuns: 40 },
    );
  });

  test('a bool NDArray works as the list does; a wrong length is an IndexError', async () => {
    const x = arange(12, { chunks: 5 }).reshape([3, 4]);
    const m = ndarray(new Uint8Array([1, 0, 0, 1]), [4], 'bool');
    const got = (await compute(x.get([{}, m]))) as NDArray;
    expectArray(got, { shape: [3, 2], data: [0, 3, 4, 7, 8, 11] });
    expectThrow(() => x.get([{}, [true, false, true]]), 'IndexError', [
      'get: bool index of length 3 does not match axis 1 of size 4',
    ]);
  });
});

describe('a lazy integer array inside an index tuple', () => {
  test('gathers as NumPy does on random shapes and chunkings', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 7), async ({ shape, chunks, seed }) => {
        const r = rng(seed + 1);
        const axis = Math.floor(r() * shape.length);
        const n = shape[axis]!;
        const idx = Array.from(
          { length: 1 + Math.floor(r() * 6) },
          () => Math.floor(r() * 2 * n) - n,
        );
        const lazyIdx = fromArray(Int32Array.from(idx), { chunks: 1 + Math.floor(r() * 3) });
        const dense = randomDense(shape, 'float64', seed);
        const x = fromArray(dense, { chunks });
        const want = denseTake(
          dense,
          idx.map((i) => (i < 0 ? i + n : i)),
          axis,
        );
        const [a, b] = (await compute(
          getIndex(x, tupleAt(shape.length, axis, lazyIdx) as never),
          take(x, lazyIdx, { axis }),
        )) as NDArray[];
        expectArray(a!, want);
        expectArray(b!, want);
      }),
      { numRuns: 40 },
    );
  });

  test('an index out of bounds fails the compute with the function named', async () => {
    const x = arange(10, { chunks: 4 });
    const idx = fromArray(new Int32Array([1, 12]));
    await expect(compute(take(x, idx))).rejects.toThrow(
      /take: index 12 is out of bounds for axis 0 with size 10/,
    );
  });

  test('a float or 2-D lazy array is refused when the expression is built', () => {
    const x = arange(12, { chunks: 5 }).reshape([3, 4]);
    expectThrow(() => x.get([{}, arange(2, { dtype: 'float64' })]), 'IndexError', [
      'get: a lazy array',
    ]);
    expectThrow(() => take(x, arange(4).reshape([2, 2]), { axis: 1 }), 'IndexError', [
      'take: index array',
    ]);
  });
});

describe('einsum broadcasts size-1 axes', () => {
  test.each([
    ['ij,ij->ij', [1, 3], [2, 1]],
    ['ij,jk->ik', [2, 1], [3, 4]],
    ['ij,j->i', [3, 4], [1]],
    ['i,i->', [1], [5]],
  ])('%s with shapes %j and %j matches a dense reference', async (s, sa, sb) => {
    const a = randomDense(sa, 'float64', 3);
    const b = randomDense(sb, 'float64', 4);
    // the dense reference of the broadcast operands
    const out = s.split('->')[1]!;
    const terms = s.split('->')[0]!.split(',');
    const size = new Map<string, number>();
    terms.forEach((t, i) => {
      [...t].forEach((l, ax) => {
        const n = (i === 0 ? sa : sb)[ax]!;
        if (n !== 1) size.set(l, n);
      });
    });
    const widen = (x: NDArray, t: string): NDArray => {
      const shape = [...t].map((l, ax) => (x.shape[ax] === 1 ? (size.get(l) ?? 1) : x.shape[ax]!));
      const data = new Float64Array(shapeSize(shape));
      const st = shape.map((_, ax) => shapeSize(shape.slice(ax + 1)));
      const xs = x.shape.map((_, ax) => shapeSize(x.shape.slice(ax + 1)));
      for (let i = 0; i < data.length; i++) {
        let src = 0;
        for (let ax = 0; ax < shape.length; ax++) {
          const c = Math.floor(i / st[ax]!) % shape[ax]!;
          src += (x.shape[ax] === 1 ? 0 : c) * xs[ax]!;
        }
        data[i] = (x.data as NumberArray)[src]!;
      }
      return new NDArray(data, shape, 'float64');
    };
    const want = denseEinsum(terms, out, [widen(a, terms[0]!), widen(b, terms[1]!)], 'float64');
    const got = (await compute(
      einsum(s, fromArray(a, { chunks: 2 }), fromArray(b, { chunks: 2 })),
    )) as NDArray;
    expectArray(got, want);
  });

  test('sizes that differ and are not 1 stay a ShapeError', () => {
    expectThrow(
      () => einsum('ij,ij->ij', fromArray(randomDense([2, 3])), fromArray(randomDense([2, 4]))),
      'ShapeError',
      ["einsum: index 'j' has size 3 and 4"],
    );
  });
});

describe('small messages', () => {
  test('a fractional axis is "not an integer"', () => {
    const x = arange(24).reshape([2, 3, 4]);
    expectThrow(() => sum(x, { axis: 1.5 }), 'ValueError', ['sum: axis 1.5 is not an integer']);
  });

  test('blockwise newAxes takes explicit chunk sizes: the kernel runs per block', async () => {
    const x = fromArray([1, 2, 3, 4], { chunks: 2 });
    const y = blockwise(
      // a plain { shape, data } object is a block too
      (a: NDArray) => ({
        shape: [a.shape[0]!, 1],
        data: Float64Array.from(a.data as NumberArray, (v) => v * 10),
      }),
      'iq',
      x,
      'i',
      { dtype: 'float64', newAxes: { q: [1, 1, 1] } },
    );
    expect(y.chunks).toEqual([
      [2, 2],
      [1, 1, 1],
    ]);
    const got = (await compute(y)) as NDArray;
    expectArray(got, { shape: [4, 3], data: [10, 10, 10, 20, 20, 20, 30, 30, 30, 40, 40, 40] });
  });
});
