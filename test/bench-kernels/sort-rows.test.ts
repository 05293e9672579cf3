// The bench's row-sort kernels against TypedArray.prototype.sort (the reference order:
// -Infinity … -0, +0 … Infinity, NaN): edge values, crowded buckets, random data, threads.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RadixScratch, radixSortFloat64 } from '../../bench/kernels/radix-sort-float64.ts';
import { sortKernels, sortRowsNative, sortRowsRadix } from '../../bench/kernels/sort-rows.ts';
import { lazyApply } from '../../src/apply/lazy-apply.ts';
import { compute } from '../../src/array/compute.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { rng } from '../helpers/reference.ts';

/** Same values, same order, NaN equal to NaN and -0 distinct from +0. */
function expectSameOrder(got: Float64Array, want: Float64Array): void {
  expect(got.length).toBe(want.length);
  const bad = Array.from(got).findIndex((v, i) => !Object.is(v, want[i]));
  expect(bad, `first difference at ${bad}: ${got[bad]} vs ${want[bad]}`).toBe(-1);
}

function radixSorted(values: ArrayLike<number>, scratch?: RadixScratch): Float64Array {
  const src = Float64Array.from(values);
  const before = src.slice();
  const dst = new Float64Array(src.length);
  radixSortFloat64(src, dst, scratch);
  expectSameOrder(src, before); // src unchanged
  return dst;
}

const reference = (values: ArrayLike<number>): Float64Array => Float64Array.from(values).sort();

/** A quiet NaN with the sign bit set (what x86 gives for 0/0) and one with a payload. */
function oddNaNs(): number[] {
  const b = new Float64Array(2);
  const w = new Uint32Array(b.buffer);
  w[1] = 0xfff80000;
  w[3] = 0x7ff00000;
  w[2] = 1;
  return [b[0]!, b[1]!];
}

describe('radixSortFloat64', () => {
  test.each([
    ['empty', []],
    ['one value', [3]],
    ['NaN last, -0 before +0', [3, Number.NaN, -1, 0, -0, 2, Number.NaN, -0, 0]],
    ['infinities', [Infinity, -Infinity, 0, 1e308, -1e308, Number.NaN, -Infinity]],
    ['subnormals', [5e-324, -5e-324, 0, -0, 2.2e-308, -2.2e-308]],
    ['all equal', Array(100).fill(1.5)],
    ['zeros of both signs only', Array.from({ length: 80 }, (_, i) => (i % 3 ? 0 : -0))],
    ['sign-bit NaNs and payload NaNs', [...oddNaNs(), 1, -1, ...oddNaNs(), 0]],
    ['only NaNs', [Number.NaN, ...oddNaNs()]],
    ['descending', Array.from({ length: 500 }, (_, i) => 500 - i)],
    ['few distinct values (crowded buckets)', Array.from({ length: 3000 }, (_, i) => i % 7)],
    // values equal in their top 40 bits: buckets split again and again
    ['narrow range', Array.from({ length: 2000 }, (_, i) => 1 + ((i * 7919) % 2000) * 2 ** -50)],
    // the cluster shares the 22 bits below the outlier's: insertion runs out, MSD splits it
    [
      'an outlier and a reversed narrow cluster',
      [1e6, ...Array.from({ length: 3000 }, (_, i) => 1 + (3000 - i) * 2 ** -40)],
    ],
    [
      'mixed signs, wide range',
      Array.from({ length: 700 }, (_, i) => (i % 2 ? -1 : 1) * 1.37 ** (i % 300)),
    ],
  ])('%s', (_, values) => {
    expectSameOrder(radixSorted(values), reference(values));
  });

  test('random data of many lengths and ranges equals TypedArray sort (one scratch reused)', () => {
    const scratch = new RadixScratch();
    fc.assert(
      fc.property(
        fc.array(fc.double(), { maxLength: 300 }),
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 33, maxLength: 600 }),
        (wide, unit) => {
          expectSameOrder(radixSorted(wide, scratch), reference(wide));
          expectSameOrder(radixSorted(unit, scratch), reference(unit));
        },
      ),
      { numRuns: 200 },
    );
  });

  test('long uniform, normal-like and integer-valued rows', () => {
    const r = rng(7);
    for (const gen of [
      () => r(),
      () => (r() + r() + r() - 1.5) * 1e6,
      () => Math.floor(r() * 50),
    ]) {
      const values = Array.from({ length: 5000 }, gen);
      expectSameOrder(radixSorted(values), reference(values));
    }
  });

  test('dst of another length is a RangeError', () => {
    expect(() => radixSortFloat64(new Float64Array(3), new Float64Array(2))).toThrow(RangeError);
  });
});

describe('row kernels', () => {
  const r = rng(3);
  const data = Float64Array.from({ length: 6 * 70 }, () => (r() < 0.05 ? Number.NaN : r() - 0.5));
  const x = new NDArray(data, [6, 70], 'float64');
  const want = data.slice();
  for (let i = 0; i < want.length; i += 70) want.subarray(i, i + 70).sort();

  test.each([
    ['sortRowsNative', sortRowsNative],
    ['sortRowsRadix', sortRowsRadix],
  ])('%s sorts each row into new shared memory, input untouched', (_, kernel) => {
    const before = data.slice();
    const out = kernel(x);
    expect(out.shape).toEqual([6, 70]);
    expect(out.dtype).toBe('float64');
    expect(out.data.buffer).toBeInstanceOf(SharedArrayBuffer);
    expectSameOrder(out.data as Float64Array, want);
    expectSameOrder(data, before);
  });

  test('sortRowsRadix on int32 falls back to TypedArray sort', () => {
    const ints = new NDArray(Int32Array.from([5, -2, 9, 0, 3, 3]), [2, 3], 'int32');
    expect(Array.from(sortRowsRadix(ints).data as NumberArray)).toEqual([-2, 5, 9, 0, 3, 3]);
  });

  test('through lazyApply on worker threads', async () => {
    const y = lazyApply(
      sortKernels.sortRowsRadix,
      fromArray(data, { shape: [6, 70], chunks: [2, 30] }),
      {
        axis: 1,
      },
    );
    const got = await compute(y, { scheduler: 'threads', workers: 2 });
    expectSameOrder(got.data as Float64Array, want);
  });
});
