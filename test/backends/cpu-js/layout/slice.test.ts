// sliceND against a dense strided reference on random shapes, steps (negative included) and
// empty selections; with `view` a contiguous selection shares the block's memory.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { NumberArray } from '../../../../src/array/dtype.ts';
import type { NDArray } from '../../../../src/array/ndarray.ts';
import { contiguousRun, sliceND } from '../../../../src/backends/cpu-js/layout/slice.ts';
import { randomDense } from '../../../helpers/reference.ts';

/** The selection element by element, through NDArray.get. */
function denseSlice(x: NDArray, start: number[], step: number[], count: number[]): number[] {
  const out: number[] = [];
  const idx = count.map(() => 0);
  if (count.some((c) => c === 0)) return out;
  for (;;) {
    out.push(x.get(...idx.map((i, ax) => start[ax]! + i * step[ax]!)) as number);
    let ax = idx.length - 1;
    for (; ax >= 0; ax--) {
      idx[ax]!++;
      if (idx[ax]! < count[ax]!) break;
      idx[ax] = 0;
    }
    if (ax < 0) return out;
  }
}

const arbSelection = fc
  .array(
    fc.record({
      n: fc.integer({ min: 1, max: 6 }),
      a: fc.nat(),
      b: fc.nat(),
      step: fc.constantFrom(1, 1, 2, 3, -1, -2),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((axes) => {
    const shape = axes.map((x) => x.n);
    const start: number[] = [];
    const count: number[] = [];
    axes.forEach(({ n, a, b, step }) => {
      const s = a % n;
      // elements reachable from s with this step, then any count up to that (0 included)
      const room = step > 0 ? Math.floor((n - 1 - s) / step) + 1 : Math.floor(s / -step) + 1;
      start.push(s);
      count.push(b % (room + 1));
    });
    return { shape, start, step: axes.map((x) => x.step), count };
  });

describe('sliceND', () => {
  test.each([false, true])('random strided selections equal the reference (view %s)', (view) => {
    fc.assert(
      fc.property(arbSelection, fc.integer({ min: 1, max: 1e6 }), (sel, seed) => {
        const x = randomDense(sel.shape, 'float64', seed);
        const got = sliceND(x, { ...sel, view });
        expect(got.shape).toEqual(sel.count);
        expect(Array.from(got.data as NumberArray)).toEqual(
          denseSlice(x, sel.start, sel.step, sel.count),
        );
        const shares = got.data.buffer === x.data.buffer;
        expect(shares).toBe(view && got.size > 0 && contiguousRun(sel.shape, sel) >= 0);
      }),
      { numRuns: 300 },
    );
  });

  test.each<[number[], number[], number[], number[], number]>([
    [[4, 5], [1, 0], [1, 1], [2, 5], 5], // whole rows
    [[4, 5], [2, 1], [1, 1], [1, 3], 11], // part of one row
    [[4, 5], [1, 1], [1, 1], [2, 3], -1], // parts of two rows
    [[4, 5], [3, 0], [-1, 1], [2, 5], -1], // rows reversed
    [[2, 3, 4], [1, 1, 0], [1, 1, 1], [1, 2, 4], 16], // one index, then whole rows
  ])('contiguousRun(%j from %j step %j count %j) is %i', (shape, start, step, count, want) => {
    expect(contiguousRun(shape, { start, step, count })).toBe(want);
  });
});
