// The float64 radix sort against TypedArray.prototype.sort (the order NumPy and tessera use:
// NaN last, -0 before 0), bit for bit, on random lines with edge values, and the sort kernel
// on lines long enough to take it, ascending and descending.

import { describe, expect, it } from 'vitest';
import type { NumberArray } from '../../../../src/array/dtype.ts';
import { NDArray } from '../../../../src/array/ndarray.ts';
import { RADIX_MIN, radixSortFloat64 } from '../../../../src/backends/cpu-js/layout/radix-sort.ts';
import { sortBlock } from '../../../../src/backends/cpu-js/layout/sort.ts';
import { rng } from '../../../helpers/reference.ts';

const EDGE = [Number.NaN, -0, 0, Infinity, -Infinity, 5e-324, -5e-324, 1e308, -1e308, 1, -1];

function line(n: number, seed: number): Float64Array {
  const r = rng(seed);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = r();
    // edge values, ties, and wide-ranging magnitudes of both signs
    out[i] =
      u < 0.1
        ? EDGE[Math.floor(r() * EDGE.length)]!
        : u < 0.3
          ? Math.round(r() * 8)
          : (r() - 0.5) * 10 ** (r() * 40 - 20);
  }
  // a NaN with its sign bit set sorts last too
  if (n > 3) new Uint32Array(out.buffer)[3] = 0xfff80001;
  return out;
}

const same = (a: Float64Array, b: Float64Array): boolean => a.every((v, k) => Object.is(v, b[k]));

describe('radixSortFloat64', () => {
  it.each([RADIX_MIN, 100, 1000, 3001])('equals TypedArray sort on %i elements', (n) => {
    for (let seed = 1; seed <= 5; seed++) {
      const x = line(n, seed * n);
      const want = x.slice().sort();
      radixSortFloat64(x, new Uint32Array(4 * n));
      expect(same(x, want)).toBe(true);
    }
  });

  it('the sort kernel uses it on long lines, in both orders and along any axis', () => {
    const x = line(200 * 3, 9);
    const block = new NDArray(x, [3, 200], 'float64');
    const asc = sortBlock(block, { axis: 1, descending: false, withIndices: false }) as NDArray;
    const desc = sortBlock(block, { axis: 1, descending: true, withIndices: false }) as NDArray;
    const cols = sortBlock(new NDArray(x, [200, 3], 'float64'), {
      axis: 0,
      descending: false,
      withIndices: false,
    }) as NDArray;
    for (let i = 0; i < 3; i++) {
      const want = x.slice(i * 200, (i + 1) * 200).sort();
      expect(same(asc.data.subarray(i * 200, (i + 1) * 200) as Float64Array, want)).toBe(true);
      const nans = want.filter(Number.isNaN).length;
      const wantDesc = Float64Array.from(
        [...want.subarray(0, 200 - nans)].reverse().concat(new Array(nans).fill(Number.NaN)),
      );
      expect(same(desc.data.subarray(i * 200, (i + 1) * 200) as Float64Array, wantDesc)).toBe(true);
      const col = Float64Array.from({ length: 200 }, (_v, k) => x[k * 3 + i]!).sort();
      expect(
        same(
          Float64Array.from({ length: 200 }, (_v, k) => (cols.data as NumberArray)[k * 3 + i]!),
          col,
        ),
      ).toBe(true);
    }
  });
});
