// BigInt scalars in elementwise functions: weak like numbers (`x.add(1n)` on int64 data keeps
// int64), exact within ±2^53, and refused beyond it rather than rounded.

import { describe, expect, it } from 'vitest';
import { add, clip, compute, equal, fromArray, ValueError } from '../../src/index.ts';

const SYNC = { scheduler: 'sync' } as const;

describe('BigInt scalars', () => {
  it('combine with int64 arrays as weak scalars, in functional and method forms', async () => {
    const x = fromArray([1n, -5n, 2n ** 60n]);
    const [a, b, c, d] = await compute(
      x.add(1n),
      add(3n, x),
      equal(x, -5n),
      clip(x, 0n, 10n),
      SYNC,
    );
    expect(a.dtype).toBe('int64');
    expect(a.toNested()).toEqual([2n, -4n, 2n ** 60n + 1n]);
    expect(b.toNested()).toEqual([4n, -2n, 2n ** 60n + 3n]);
    expect(c.toNested()).toEqual([false, true, false]);
    expect(d.toNested()).toEqual([1n, 0n, 10n]);
  });

  it('are weak for other dtypes too (float32 stays float32)', async () => {
    const y = await compute(fromArray(new Float32Array([1.5])).mul(2n), SYNC);
    expect(y.dtype).toBe('float32');
    expect(y.toNested()).toEqual([3]);
  });

  it('beyond ±2^53 are refused when the expression is built', () => {
    const x = fromArray([1n]);
    expect(() => x.add(2n ** 60n)).toThrow(ValueError);
    expect(() => x.add(2n ** 60n)).toThrow(/^add: scalar 1152921504606846976n is beyond/);
  });
});
