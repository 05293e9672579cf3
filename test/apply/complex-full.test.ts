// Complex scalars as values: full with a complex fill value (complex128 by default, complex64
// when asked; a real dtype refuses it when built), and x.set with a complex scalar.

import { describe, expect, it } from 'vitest';
import { compute, DTypeError, fromArray, full, ValueError, zeros } from '../../src/index.ts';

const SYNC = { scheduler: 'sync' } as const;

describe('full with a complex value', () => {
  it.each([
    [[3, 4], { re: 1.5, im: -2 }],
    [[5], { re: 0, im: 3 }],
    [[2, 3, 2], { re: -0.25, im: 0.5 }],
  ] as const)('fills %j with %j on random chunks and sums exactly', async (shape, v) => {
    const z = full([...shape], v, { chunks: 2 });
    expect(z.dtype).toBe('complex128');
    const [all, total] = await compute(z, z.sum(), SYNC);
    const n = shape.reduce((a, b) => a * b, 1);
    const d = all.data as Float64Array;
    for (let i = 0; i < n; i++) {
      expect([d[2 * i], d[2 * i + 1]]).toEqual([v.re, v.im]);
    }
    expect(total.item()).toEqual({ re: v.re * n, im: v.im * n });
  });

  it('takes complex64, computes with it, and names different values differently', async () => {
    const a = full([2], { re: 1, im: 1 }, { dtype: 'complex64' });
    expect(a.dtype).toBe('complex64');
    expect((await compute(a.mul(2), SYNC)).toNested()).toEqual([
      { re: 2, im: 2 },
      { re: 2, im: 2 },
    ]);
    expect(full([2], { re: 1, im: 1 }).name).not.toBe(full([2], { re: 1, im: 2 }).name);
    expect(full([2], { re: 1, im: 0 }).name).toBe(full([2], 1, { dtype: 'complex128' }).name);
  });

  it('refuses a real dtype and parts that are not numbers', () => {
    expect(() => full([2], { re: 1, im: 1 }, { dtype: 'float64' })).toThrow(DTypeError);
    expect(() => full([2], { re: 1, im: 1 }, { dtype: 'float64' })).toThrow(
      /^full: complex fill value/,
    );
    expect(() => full([2], { re: 1, im: 'x' } as never)).toThrow(ValueError);
  });
});

describe('x.set with a complex scalar', () => {
  it('sets a slice and a mask of a complex array, casting to its precision', async () => {
    const z = full([2, 3], { re: 1, im: 1 }, { dtype: 'complex64', chunks: 2 });
    const m = fromArray([
      [true, false, true],
      [false, false, true],
    ]);
    const [s, k] = await compute(
      z.set('0, :', { re: 5, im: -0.1 }),
      z.set(m, { re: 7, im: 7 }),
      SYNC,
    );
    expect(s.dtype).toBe('complex64');
    const one = { re: 1, im: 1 };
    const five = { re: 5, im: Math.fround(-0.1) };
    expect(s.toNested()).toEqual([
      [five, five, five],
      [one, one, one],
    ]);
    const seven = { re: 7, im: 7 };
    expect(k.toNested()).toEqual([
      [seven, one, seven],
      [one, one, seven],
    ]);
  });

  it('refuses a complex scalar into a real array when built', () => {
    expect(() => zeros([3]).set('0', { re: 1, im: 2 })).toThrow(DTypeError);
  });
});
