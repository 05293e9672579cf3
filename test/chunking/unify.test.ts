// Tests of commonRefinement and unifyChunks: tables with expected throws, and properties
// checking boundaries against a set-union reference.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { chunkOffsets } from '../../src/chunking/blocks.ts';
import type { Size } from '../../src/chunking/types.ts';
import { commonRefinement, unifyChunks } from '../../src/chunking/unify.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { cutChunks } from '../helpers/reference.ts';

/** Random chunks (positive sizes) of a given length. */
const chunkingOf = (n: number) =>
  fc
    .array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 12 })
    .map((sizes) => cutChunks(sizes, n));

const boundaries = (c: readonly number[]) => new Set(chunkOffsets(c));

describe('commonRefinement', () => {
  test.each([
    [
      [5, 5],
      [3, 7],
      [3, 2, 5],
    ],
    [[10], [10], [10]],
    [
      [2, 2, 2],
      [3, 3],
      [2, 1, 1, 2],
    ],
    [[0], [0], [0]],
    [[3, 0, 2], [5], [3, 2]],
  ])('%j with %j -> %j', (a, b, expected) => {
    expect(commonRefinement(a, b)).toEqual(expected);
  });

  test('sizes that differ throw', () => {
    expectThrow(() => commonRefinement([3, 3], [7]), 'ChunkError', [
      'commonRefinement',
      '(3, 3)',
      '(7,)',
    ]);
  });

  test('holds exactly the boundaries of both', () => {
    const pair = fc
      .integer({ min: 0, max: 30 })
      .chain((n) => fc.tuple(chunkingOf(n), chunkingOf(n)));
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const r = commonRefinement(a, b);
        const expected = new Set([...boundaries(a), ...boundaries(b)]);
        expect(boundaries(r)).toEqual(expected);
        expect(r.every((c) => c > 0) || (r.length === 1 && r[0] === 0)).toBe(true);
      }),
    );
  });
});

describe('unifyChunks', () => {
  test.each([
    {
      name: 'broadcast row',
      inputs: [
        { shape: [10, 4], chunks: [[5, 5], [4]] },
        { shape: [4], chunks: [[2, 2]] },
      ],
      chunks: [
        [5, 5],
        [2, 2],
      ],
      multiplier: 2,
    },
    {
      name: 'size-1 axes contribute nothing',
      inputs: [
        { shape: [6, 1], chunks: [[3, 3], [1]] },
        { shape: [1, 6], chunks: [[1], [2, 4]] },
      ],
      chunks: [
        [3, 3],
        [2, 4],
      ],
      multiplier: 2,
    },
    {
      name: 'refinement',
      inputs: [
        { shape: [7], chunks: [[3, 4]] },
        { shape: [7], chunks: [[4, 3]] },
      ],
      chunks: [[3, 1, 3]],
      multiplier: 1.5,
    },
    {
      name: 'unknown sizes, equal chunks',
      inputs: [
        { shape: [null, 2], chunks: [[null, null], [2]] },
        { shape: [2], chunks: [[1, 1]] },
      ],
      chunks: [
        [null, null],
        [1, 1],
      ],
      multiplier: 2,
    },
    {
      name: 'all size 1, extra output axis',
      inputs: [{ shape: [1], chunks: [[1]] }],
      outNdim: 2,
      chunks: [[1], [1]],
      multiplier: 1,
    },
    { name: 'scalars', inputs: [{ shape: [], chunks: [] }], chunks: [], multiplier: 1 },
  ] as {
    name: string;
    inputs: { shape: Size[]; chunks: Size[][] }[];
    outNdim?: number;
    chunks: Size[][];
    multiplier: number;
  }[])('$name', ({ inputs, outNdim, chunks, multiplier }) => {
    const r = unifyChunks('add', inputs, outNdim);
    expect(r.chunks).toEqual(chunks);
    expect(r.blockMultiplier).toBe(multiplier);
  });

  test.each([
    {
      inputs: [
        { shape: [3], chunks: [[3]] },
        { shape: [4], chunks: [[4]] },
      ],
      tag: 'ShapeError',
      fragments: ['add:', '(3,)', '(4,)'],
    },
    {
      inputs: [
        { shape: [null], chunks: [[null, null]] },
        { shape: [null], chunks: [[null]] },
      ],
      tag: 'ChunkError',
      fragments: ['add:', 'computeChunkSizes', '(null, null)'],
    },
    {
      inputs: [
        { shape: [null], chunks: [[null]] },
        { shape: [4], chunks: [[4]] },
      ],
      tag: 'ChunkError',
      fragments: ['computeChunkSizes'],
    },
    {
      inputs: [{ shape: [3, 3], chunks: [[3]] }],
      tag: 'ChunkError',
      fragments: ['add:', '1 axes', '(3, 3)'],
    },
    {
      inputs: [{ shape: [3, 3], chunks: [[3], [3]] }],
      outNdim: 1,
      tag: 'ShapeError',
      fragments: ['more than 1 dimensions'],
    },
  ] as {
    inputs: { shape: Size[]; chunks: Size[][] }[];
    outNdim?: number;
    tag: string;
    fragments: string[];
  }[])('throws $tag for %#', ({ inputs, outNdim, tag, fragments }) => {
    expectThrow(() => unifyChunks('add', inputs, outNdim), tag, fragments);
  });

  test('per axis, the union of boundaries of the inputs not broadcast there', () => {
    const input = (shape: number[]) =>
      fc.tuple(
        fc.constant(shape),
        fc.tuple(...shape.map((n) => chunkingOf(n))),
        fc.array(fc.boolean(), { minLength: shape.length, maxLength: shape.length }),
      );
    const case_ = fc
      .array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 3 })
      .chain((shape) => fc.array(input(shape), { minLength: 1, maxLength: 3 }));
    fc.assert(
      fc.property(case_, (raw) => {
        // some inputs broadcast some axes (size 1), and some drop leading axes
        const inputs = raw.map(([shape, chunks, ones], k) => {
          const s = shape.map((n, ax) => (ones[ax] ? 1 : n));
          const c = chunks.map((ch, ax) => (ones[ax] ? [1] : ch));
          const drop = k % 2 === 1 ? 1 : 0;
          return { shape: s.slice(drop), chunks: c.slice(drop) };
        });
        const nd = raw[0]![0].length;
        const r = unifyChunks('f', inputs, nd);
        for (let ax = 0; ax < nd; ax++) {
          const expected = new Set<number>([0]);
          let size = 1;
          for (const x of inputs) {
            const a = ax - (nd - x.shape.length);
            if (a < 0 || x.shape[a] === 1) continue;
            size = x.shape[a]!;
            for (const b of boundaries(x.chunks[a] as number[])) expected.add(b);
          }
          expect(boundaries(r.chunks[ax] as number[])).toEqual(expected.add(size));
        }
      }),
    );
  });
});
