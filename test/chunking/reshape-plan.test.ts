// planReshape: every output block must be exactly one input block, element for element.
// Checked by enumerating flat element positions of blocks on random shapes and chunkings.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { chunkOffsets } from '../../src/chunking/blocks.ts';
import { contractChunks, expandChunks, planReshape } from '../../src/chunking/reshape-plan.ts';
import { arbShapeAndChunks, rng } from '../helpers/reference.ts';

/** Flat C-order positions of the elements of block `b`, in the block's own C order. */
function blockPositions(
  shape: readonly number[],
  chunks: readonly number[][],
  b: readonly number[],
) {
  const offs = chunks.map((c) => chunkOffsets(c));
  const lo = b.map((i, ax) => offs[ax]![i]!);
  const hi = b.map((i, ax) => offs[ax]![i + 1]!);
  const out: number[] = [];
  const walk = (ax: number, flat: number): void => {
    if (ax === shape.length) {
      out.push(flat);
      return;
    }
    for (let i = lo[ax]!; i < hi[ax]!; i++) walk(ax + 1, flat * shape[ax]! + i);
  };
  walk(0, 0);
  return out;
}

function* grid(chunks: readonly number[][]): Generator<number[]> {
  const idx = chunks.map(() => 0);
  for (;;) {
    yield [...idx];
    let ax = chunks.length - 1;
    for (; ax >= 0; ax--) {
      if (++idx[ax]! < chunks[ax]!.length) break;
      idx[ax] = 0;
    }
    if (ax < 0) return;
  }
}

/** A random shape with the same number of elements: prime factors regrouped, unit axes added. */
function randomTarget(size: number, seed: number): number[] {
  const r = rng(seed);
  const primes: number[] = [];
  for (let n = size, p = 2; n > 1; ) {
    if (n % p === 0) {
      primes.push(p);
      n /= p;
    } else p++;
  }
  const out: number[] = [];
  for (const p of primes) {
    if (out.length > 0 && r() < 0.5) out[out.length - 1]! *= p;
    else out.push(p);
  }
  if (r() < 0.3) out.splice(Math.floor(r() * (out.length + 1)), 0, 1);
  return out.length === 0 ? [1] : out;
}

function checkPlan(inShape: number[], outShape: number[], chunks: number[][]) {
  const plan = planReshape(inShape, outShape, chunks);
  const sums = (cs: number[][]) => cs.map((c) => c.reduce((a, b) => a + b, 0));
  expect(sums(plan.inChunks)).toEqual(inShape);
  expect(sums(plan.outChunks)).toEqual(outShape);
  for (const b of grid(plan.outChunks)) {
    const inBlock = inShape.map(() => 0);
    for (const g of plan.groups) {
      g.inAxes.forEach((ax, k) => {
        inBlock[ax] = g.blocks[b[g.outAxes[0]!]!]![k]!;
      });
    }
    expect(blockPositions(outShape, plan.outChunks, b)).toEqual(
      blockPositions(inShape, plan.inChunks, inBlock),
    );
  }
  return plan;
}

describe('planReshape', () => {
  test.each([
    // [inShape, chunks, outShape, expected inChunks, expected outChunks]
    [[6, 4], [[2, 2, 2], [4]], [24], [[2, 2, 2], [4]], [[8, 8, 8]]],
    [
      [6, 4],
      [
        [2, 2, 2],
        [2, 2],
      ],
      [24],
      [[1, 1, 1, 1, 1, 1], [4]],
      [[4, 4, 4, 4, 4, 4]],
    ],
    [
      [6, 4],
      [
        [1, 1, 1, 1, 1, 1],
        [2, 2],
      ],
      [24],
      null,
      [[2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]],
    ],
    [[24], [[8, 8, 8]], [6, 4], [[8, 8, 8]], [[2, 2, 2], [4]]],
    [[24], [[5, 5, 5, 5, 4]], [6, 4], [[4, 4, 4, 8, 4]], [[1, 1, 1, 2, 1], [4]]],
    [
      [2, 3, 4],
      [[1, 1], [3], [2, 2]],
      [6, 4],
      [[1, 1], [3], [2, 2]],
      [
        [3, 3],
        [2, 2],
      ],
    ],
    [
      [6, 4],
      [[3, 3], [4]],
      [4, 6],
      [[3, 3], [4]],
      [[2, 2], [6]],
    ],
    [
      [6, 4],
      [[2, 2, 2], [4]],
      [4, 6],
      [[3, 3], [4]],
      [[2, 2], [6]],
    ],
    [
      [3, 1, 4],
      [[1, 2], [1], [2, 2]],
      [1, 3, 4, 1],
      [[1, 2], [1], [2, 2]],
      [[1], [1, 2], [2, 2], [1]],
    ],
  ])('%j chunked %j -> %j', (inShape, chunks, outShape, inChunks, outChunks) => {
    const plan = checkPlan(inShape, outShape, chunks);
    expect(plan.inChunks).toEqual(inChunks ?? chunks);
    expect(plan.outChunks).toEqual(outChunks);
  });

  test('random shapes, chunkings and targets map blocks one to one (fast-check)', () => {
    fc.assert(
      fc.property(arbShapeAndChunks(4, 8), ({ shape, chunks, seed }) => {
        const size = shape.reduce((a, b) => a * b, 1);
        checkPlan(shape, randomTarget(size, seed), chunks);
      }),
      { numRuns: 300 },
    );
  });

  test('block count stays within the input count times the split factor', () => {
    const plan = checkPlan([100, 100], [10000], [Array(10).fill(10), Array(10).fill(10)]);
    expect(plan.outChunks[0]!.length).toBe(100);
    expect(Math.max(...plan.outChunks[0]!)).toBe(100);
  });
});

describe('expandChunks / contractChunks', () => {
  test.each([
    [[4, 5], 2, [2, 2, 2, 3]],
    [[3], 1, [3]],
    [[3], 5, [1, 1, 1]],
    [[10], 3, [3, 3, 4]],
  ])('expandChunks(%j, %d) = %j', (c, f, out) => expect(expandChunks(c, f)).toEqual(out));

  test.each([
    [[2, 2, 8, 4], 4, [4, 8, 4]],
    [[5, 5, 5, 5, 4], 4, [4, 4, 4, 8, 4]],
    [[1, 1, 1, 1], 2, [2, 2]],
    [[6], 3, [6]],
  ])('contractChunks(%j, %d) = %j', (c, f, out) => expect(contractChunks(c, f)).toEqual(out));
});
