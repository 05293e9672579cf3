// Chunk math of overlap: argument normalization, the minimum-chunk merge, and how one
// block is extended (runs over neighbour slots) against an index-by-index reference.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type Boundary,
  ensureMinimumChunks,
  extendAxisBlock,
  normalizeBoundary,
  normalizeDepth,
  trimWidths,
} from '../../src/chunking/overlap-plan.ts';

/** Global source index of padded position g, by np.pad's definitions (-1: constant). */
function source(g: number, n: number, b: Boundary): number {
  if (g >= 0 && g < n) return g;
  if (b === 'periodic') return ((g % n) + n) % n;
  if (b === 'nearest') return g < 0 ? 0 : n - 1;
  if (b === 'reflect') return g < 0 ? -1 - g : 2 * n - 1 - g;
  return -1;
}

const arbAxis = fc
  .array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 })
  .chain((chunks) =>
    fc.record({
      chunks: fc.constant(chunks),
      depth: fc.tuple(
        fc.integer({ min: 0, max: Math.min(...chunks) }),
        fc.integer({ min: 0, max: Math.min(...chunks) }),
      ),
      boundary: fc.constantFrom<Boundary>('reflect', 'periodic', 'nearest', 'none', 3),
    }),
  );

describe('overlap chunk math', () => {
  test('extendAxisBlock covers the window element by element, from at most 3 blocks', () => {
    fc.assert(
      fc.property(arbAxis, ({ chunks, depth, boundary }) => {
        const offsets = [0];
        for (const c of chunks) offsets.push(offsets[offsets.length - 1]! + c);
        const n = offsets[chunks.length]!;
        chunks.forEach((_, k) => {
          const e = extendAxisBlock(chunks, depth, boundary, k);
          const [tb, ta] = trimWidths(depth, boundary, k, chunks.length);
          expect(e.size).toBe(chunks[k]! + tb + ta);
          expect(e.blocks.length).toBeLessThanOrEqual(3);
          const got: number[] = [];
          for (const r of e.runs) {
            for (let j = 0; j < r.count; j++) {
              got.push(r.slot < 0 ? -1 : offsets[e.blocks[r.slot]!]! + r.start + j * r.step);
            }
          }
          const want: number[] = [];
          for (let g = offsets[k]! - tb; g < offsets[k + 1]! + ta; g++)
            want.push(source(g, n, boundary));
          expect(got).toEqual(want);
        });
      }),
      { numRuns: 300 },
    );
  });

  test('ensureMinimumChunks merges until every chunk holds the size, keeping the total', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 6 }),
        (chunks, size) => {
          const total = chunks.reduce((s, v) => s + v, 0);
          fc.pre(total >= size);
          const out = ensureMinimumChunks(chunks, size);
          expect(out.reduce((s, v) => s + v, 0)).toBe(total);
          expect(Math.min(...out)).toBeGreaterThanOrEqual(size);
        },
      ),
    );
    expect(ensureMinimumChunks([1, 1, 3, 1], 2)).toEqual([2, 4]);
    expect(ensureMinimumChunks([3, 3], 2)).toEqual([3, 3]);
  });

  test.each([
    [
      2,
      2,
      [
        [2, 2],
        [2, 2],
      ],
    ],
    [
      { 1: [0, 3] },
      2,
      [
        [0, 0],
        [0, 3],
      ],
    ],
    [
      { '-1': 1 },
      3,
      [
        [0, 0],
        [0, 0],
        [1, 1],
      ],
    ],
    [
      [1, [2, 0]],
      2,
      [
        [1, 1],
        [2, 0],
      ],
    ],
  ] as const)('normalizeDepth(%j, ndim %i)', (depth, ndim, want) => {
    expect(normalizeDepth('overlap', depth, ndim)).toEqual(want);
  });

  test('normalizeBoundary: one for all, by axis (others none), numbers as constants', () => {
    expect(normalizeBoundary('overlap', undefined, 2)).toEqual(['none', 'none']);
    expect(normalizeBoundary('overlap', 'periodic', 2)).toEqual(['periodic', 'periodic']);
    expect(normalizeBoundary('overlap', { 1: 0 }, 2)).toEqual(['none', 0]);
  });
});
