// Acceptance (issue 2): unknown sizes end to end — a mask gives shape [null]; elementwise
// ops and reductions still work; ops that need the size point to computeChunkSizes.

import { describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import * as t from '../../src/index.ts';
import { ChunkError, type LazyArray, type NDArray } from '../../src/index.ts';

const SYNC = { scheduler: 'sync' } as const;
const VALUES = [3, -1, 4, -1, 5, 9, -2, 6, 5, -3, 5, 8, 9, 7, -9, 3, 2, 2, -7, 1];
const POSITIVE = VALUES.filter((v) => v > 0);
const sumOf = (v: number[]): number => v.reduce((a, b) => a + b, 0);

const x = (): LazyArray => t.fromArray(new Float64Array(VALUES), { chunks: 6 });
const masked = (): LazyArray => {
  const a = x();
  return a.mask(a.greater(0));
};
const values = (r: NDArray): number[] => Array.from(r.data as NumberArray);

describe('y = x.mask(x.greater(0))', () => {
  test('has shape [null], one unknown chunk per input block, and a known dtype', () => {
    const y = masked();
    expect(y.shape).toEqual([null]);
    expect(y.chunks).toEqual([[null, null, null, null]]);
    expect(y.size).toBeNull();
    expect(y.nbytes).toBeNull();
    expect(y.numBlocks).toEqual([4]);
    expect(y.dtype).toBe('float64');
  });

  test('elementwise ops on y (with scalars, itself, broadcast arrays) compute', async () => {
    const y = masked();
    const [a, b, c, d] = (await t.compute(
      y.mul(2).add(1),
      y.add(y),
      y.add(t.fromArray([10])),
      t.where(y.greater(5), y, 0),
      SYNC,
    )) as NDArray[];
    expect(values(a!)).toEqual(POSITIVE.map((v) => v * 2 + 1));
    expect(values(b!)).toEqual(POSITIVE.map((v) => 2 * v));
    expect(values(c!)).toEqual(POSITIVE.map((v) => v + 10));
    expect(values(d!)).toEqual(POSITIVE.map((v) => (v > 5 ? v : 0)));
  });

  test('reductions on y compute, argmin/argmax give positions in y', async () => {
    const y = masked();
    const [s, mx, mn, am, ax, cs] = (await t.compute(
      y.sum(),
      y.max(),
      y.mean(),
      y.argmin(),
      y.argmax(),
      y.cumsum(),
      SYNC,
    )) as NDArray[];
    expect(s!.shape).toEqual([]);
    expect(s!.data[0]).toBe(sumOf(POSITIVE));
    expect(mx!.data[0]).toBe(9);
    expect(mn!.data[0]).toBeCloseTo(sumOf(POSITIVE) / POSITIVE.length, 12);
    expect(am!.data[0]).toBe(POSITIVE.indexOf(Math.min(...POSITIVE)));
    expect(ax!.data[0]).toBe(POSITIVE.indexOf(9));
    let run = 0;
    expect(values(cs!)).toEqual(POSITIVE.map((v) => (run += v)));
  });

  test.each([
    ['reshape', (y: LazyArray) => y.reshape([2, -1])],
    ['rechunk to a size', (y: LazyArray) => y.rechunk(3)],
    ['rechunk to -1', (y: LazyArray) => y.rechunk(-1)],
    ['rechunk auto', (y: LazyArray) => y.rechunk('auto')],
    ['get with a slice', (y: LazyArray) => y.get('1:3')],
    ['get with a reversed slice', (y: LazyArray) => y.get('::-1')],
    ['get with an integer', (y: LazyArray) => y.get('2')],
    ['take', (y: LazyArray) => y.take([0])],
    ['broadcastTo', (y: LazyArray) => y.broadcastTo([2, 14])],
    ['add an array of known size', (y: LazyArray) => y.add(x())],
  ])('%s raises ChunkError naming computeChunkSizes at build time', (_, op) => {
    const y = masked();
    let caught: unknown;
    try {
      op(y);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ChunkError);
    expect((caught as Error).message).toContain('computeChunkSizes');
  });

  test('computeChunkSizes(y) resolves the shape, then those ops work', async () => {
    const z = await t.computeChunkSizes(masked(), SYNC);
    expect(z.shape).toEqual([POSITIVE.length]);
    expect(z.chunks[0]!.every((c) => typeof c === 'number')).toBe(true);
    expect(z.chunks[0]!.reduce((a, b) => a! + b!, 0)).toBe(POSITIVE.length);
    const [r, rc, g, rev, tk] = (await t.compute(
      z.reshape([2, -1]),
      z.rechunk(3),
      z.get('1:3'),
      z.get('::-1'),
      z.take([0, POSITIVE.length - 1]),
      SYNC,
    )) as NDArray[];
    expect(r!.shape).toEqual([2, POSITIVE.length / 2]);
    expect(values(r!)).toEqual(POSITIVE);
    expect(z.rechunk(3).chunks[0]![0]).toBe(3);
    expect(values(rc!)).toEqual(POSITIVE);
    expect(values(g!)).toEqual(POSITIVE.slice(1, 3));
    expect(values(rev!)).toEqual([...POSITIVE].reverse());
    expect(values(tk!)).toEqual([POSITIVE[0], POSITIVE[POSITIVE.length - 1]]);
  });

  test('a 2-d mask gives a 1-d result in C order', async () => {
    const a = t.fromArray(new Float64Array(VALUES), { shape: [4, 5], chunks: [3, 2] });
    const y = a.mask(a.less(0));
    expect(y.shape).toEqual([null]);
    const r = await y.compute(SYNC);
    expect(values(r)).toEqual(VALUES.filter((v) => v < 0));
  });
});
