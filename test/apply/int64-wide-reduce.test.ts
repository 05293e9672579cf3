// int64 and uint64 reductions of elementwise chains over more than a thousand blocks: the
// partials are absorbed into their combine tasks (packed views over the blocks), which must
// take such data as the unfused steps do, and give the same exact answer.

import { describe, expect, it } from 'vitest';
import { NDArray } from '../../src/array/ndarray.ts';
import { compute, fromArray } from '../../src/index.ts';
import { bigs, lazyBig, randomBig, wrap, wrapU } from '../helpers/int64-ref.ts';
import { rng } from '../helpers/reference.ts';

const ROWS = 64;
const COLS = 80;

describe('reductions of chains over many small int64 blocks', () => {
  for (const dtype of ['int64', 'uint64'] as const) {
    const cast = dtype === 'int64' ? wrap : wrapU;
    const r = rng(dtype === 'int64' ? 11 : 12);
    const values = randomBig(ROWS * COLS, r).map(cast);
    // 2 × 2 chunks: 1280 blocks, enough for the partials to be absorbed
    const x = () => lazyBig(values, [ROWS, COLS], r, dtype).rechunk([2, 2]).add(3n);
    const plus = values.map((v) => cast(v + 3n));
    const row = (i: number) => plus.slice(i * COLS, (i + 1) * COLS);

    it(`${dtype}: sum, prod, min, max along axis 1 and whole, exact modulo 2^64`, async () => {
      const lazy = x();
      const [sum1, prod1, min1, max1, total] = await compute(
        lazy.sum({ axis: 1 }),
        lazy.prod({ axis: 1 }),
        lazy.min({ axis: 1 }),
        lazy.max({ axis: 1 }),
        lazy.sum(),
        { scheduler: 'sync' },
      );
      const rows = Array.from({ length: ROWS }, (_, i) => row(i));
      expect(bigs(sum1!)).toEqual(rows.map((l) => cast(l.reduce((a, b) => a + b, 0n))));
      expect(bigs(prod1!)).toEqual(rows.map((l) => cast(l.reduce((a, b) => a * b, 1n))));
      const least = (a: bigint, b: bigint) => (b < a ? b : a);
      const most = (a: bigint, b: bigint) => (b > a ? b : a);
      expect(bigs(min1!)).toEqual(rows.map((l) => l.reduce(least)));
      expect(bigs(max1!)).toEqual(rows.map((l) => l.reduce(most)));
      expect(bigs(total!)).toEqual([cast(plus.reduce((a, b) => a + b, 0n))]);
    });
  }

  it('uint8 chains sum to uint64 over many blocks, on threads as on sync', async () => {
    const r = rng(5);
    const raw = Array.from({ length: ROWS * COLS }, () => Math.floor(r() * 256));
    const a = fromArray(new NDArray(Uint8Array.from(raw), [ROWS, COLS], 'uint8'), {
      chunks: [2, 2],
    });
    const s = a.add(a.get('::-1, ::-1')).sum({ axis: 1 });
    expect(s.dtype).toBe('uint64');
    const want = Array.from({ length: ROWS }, (_, i) => {
      let t = 0n;
      for (let j = 0; j < COLS; j++) {
        t += BigInt((raw[i * COLS + j]! + raw[(ROWS - 1 - i) * COLS + (COLS - 1 - j)]!) & 255);
      }
      return t;
    });
    for (const scheduler of ['sync', 'threads'] as const) {
      const got = await compute(s, { scheduler, workers: 2 });
      expect(bigs(got)).toEqual(want);
    }
  });
});
