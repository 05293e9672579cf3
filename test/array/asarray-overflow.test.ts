// JS numbers given for an integer dtype must fit it (NumPy 2 raises OverflowError for
// np.asarray([300], dtype=np.int8)); TypedArray data are cast and wrap, as astype does.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asarray } from '../../src/array/asarray.ts';
import { compute } from '../../src/array/compute.ts';
import { type DType, integerRange } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { ndarray } from '../../src/array/ndarray.ts';

const tagged = (tag: string, message: RegExp) =>
  expect.objectContaining({ _tag: tag, message: expect.stringMatching(message) });

const INTS: DType[] = ['int8', 'int16', 'int32', 'uint8', 'uint16', 'uint32'];

describe('numbers outside an integer dtype', () => {
  it.each([
    ['int8', 300],
    ['int8', -129],
    ['uint8', 256],
    ['uint8', -1],
    ['uint16', 65536],
    ['int32', 2 ** 31],
    ['uint32', -0.5 - 1],
    ['int16', Number.NaN],
    ['int32', Number.POSITIVE_INFINITY],
  ] as const)('asarray/fromArray/ndarray refuse %s %d', (dtype, v) => {
    const msg = new RegExp(`does not fit dtype '${dtype}'`);
    expect(() => asarray([1, v], { dtype })).toThrow(tagged('ValueError', /^asarray: value/));
    expect(() => asarray([1, v], { dtype })).toThrow(tagged('ValueError', msg));
    expect(() => fromArray([[v]], { dtype })).toThrow(tagged('ValueError', /^fromArray: /));
    expect(() => ndarray([v], undefined, dtype)).toThrow(tagged('ValueError', /^ndarray: /));
    expect(() => asarray(v, { dtype })).toThrow(tagged('ValueError', msg));
  });

  it('property: in-range numbers (fractions truncate) are kept; out-of-range ones raise', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...INTS),
        fc.array(fc.double({ min: -(2 ** 33), max: 2 ** 33, noNaN: true }), {
          minLength: 1,
          maxLength: 20,
        }),
        async (dtype, values) => {
          const [lo, hi] = integerRange(dtype)!;
          const ok = values.every((v) => Math.trunc(v) >= lo && Math.trunc(v) <= hi);
          if (!ok) {
            expect(() => asarray(values, { dtype })).toThrow(tagged('ValueError', /does not fit/));
            return;
          }
          const got = await compute(asarray(values, { dtype, chunks: 3 }));
          // -0 truncations compare as 0 in typed arrays
          expect(got.toArray()).toEqual(values.map((v) => Math.trunc(v) + 0));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the edges fit, bools fit every dtype, and TypedArray data still wrap like astype', async () => {
    expect((await compute(asarray([-128, 127.9], { dtype: 'int8' }))).toArray()).toEqual([
      -128, 127,
    ]);
    expect((await compute(asarray([0, 4294967295], { dtype: 'uint32' }))).toArray()).toEqual([
      0, 4294967295,
    ]);
    expect((await compute(asarray([true, false], { dtype: 'uint8' }))).toArray()).toEqual([1, 0]);
    expect((await compute(asarray(Float64Array.of(300), { dtype: 'int8' }))).toArray()).toEqual([
      44,
    ]);
    expect((await compute(asarray([300, 1.5]))).toArray()).toEqual([300, 1.5]);
  });
});
