// Tests of block-grid arithmetic: offsets, counts, block shapes, C-order iteration, ravel/unravel.
// Properties check iteration order and the ravel/unravel round trip against a counting reference.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  blockGrid,
  blockShape,
  blocksOf,
  chunkOffsets,
  numBlocks,
  ravelBlock,
  shapeOfChunks,
  unravelBlock,
} from '../../src/chunking/blocks.ts';
import { expectThrow } from '../helpers/expect-throw.ts';

describe('chunkOffsets', () => {
  test.each([
    [[], [0]],
    [[0], [0, 0]],
    [
      [3, 3, 1],
      [0, 3, 6, 7],
    ],
    [
      [5, 0, 2],
      [0, 5, 5, 7],
    ],
  ])('%j -> %j', (chunks, expected) => {
    expect(chunkOffsets(chunks)).toEqual(expected);
  });
});

describe('grid counts and shapes', () => {
  test('numBlocks, blockGrid, shapeOfChunks', () => {
    expect(numBlocks([])).toBe(1);
    expect(
      numBlocks([
        [3, 3, 1],
        [2, 2],
      ]),
    ).toBe(6);
    expect(blockGrid([[3, 3, 1], [null]])).toEqual([3, 1]);
    expect(shapeOfChunks([[3, 3, 1], [null, 2], [0]])).toEqual([7, null, 0]);
  });

  test('blockShape', () => {
    expect(blockShape([[3, 3, 1], [4]], [2, 0])).toEqual([1, 4]);
    expect(blockShape([], [])).toEqual([]);
  });

  test.each([
    [[[3, 1]], [2], 'IndexError', ['blockShape', 'block index 2', 'axis 0']],
    [[[3, 1]], [0, 0], 'IndexError', ['blockShape', '(0, 0)']],
    [[[3, 1]], [-1], 'IndexError', ['block index -1']],
  ])('blockShape(%j, %j) throws %s', (chunks, block, tag, fragments) => {
    expectThrow(() => blockShape(chunks, block), tag, fragments);
  });
});

describe('blocksOf / ravelBlock / unravelBlock', () => {
  test('C order', () => {
    expect([...blocksOf([2, 3])]).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [1, 0],
      [1, 1],
      [1, 2],
    ]);
    expect([...blocksOf([])]).toEqual([[]]);
    expect([...blocksOf([2, 0])]).toEqual([]);
  });

  test('iteration order is ravel order, and unravel inverts ravel', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 4 }), (grid) => {
        let flat = 0;
        for (const b of blocksOf(grid)) {
          expect(ravelBlock(b, grid)).toBe(flat);
          expect(unravelBlock(flat, grid)).toEqual(b);
          flat++;
        }
        expect(flat).toBe(grid.reduce((a, b) => a * b, 1));
      }),
    );
  });

  test.each([
    [() => ravelBlock([3, 0], [3, 4]), 'IndexError', ['ravelBlock', '(3, 0)', '(3, 4)']],
    [() => ravelBlock([0], [3, 4]), 'IndexError', ['ravelBlock']],
    [() => unravelBlock(12, [3, 4]), 'IndexError', ['unravelBlock', 'flat index 12']],
    [() => unravelBlock(-1, [3, 4]), 'IndexError', ['flat index -1']],
  ])('bad input %# throws', (f, tag, fragments) => {
    expectThrow(f, tag, fragments);
  });
});
