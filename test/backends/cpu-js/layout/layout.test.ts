// Layout kernels called directly: conversions, views, broadcasts and permutations of blocks.
// The array-level tests cover them through graphs; these pin the edge cases of each kernel.

import { describe, expect, test } from 'vitest';
import { ndarray } from '../../../../src/array/ndarray.ts';
import {
  broadcastBlock,
  convertBlock,
  flipBlock,
  permuteBlock,
  reshapeBlock,
} from '../../../../src/backends/cpu-js/layout/layout.ts';

describe('layout kernels', () => {
  test('convertBlock: to bool is x != 0 (NaN is true); to ints truncates', () => {
    const x = ndarray([0, -0.5, 2, Number.NaN], [4], 'float64');
    expect(convertBlock(x, 'bool').toArray()).toEqual([0, 1, 1, 1]);
    expect(convertBlock(ndarray([-2.7, 2.7, 300]), 'int16').toArray()).toEqual([-2, 2, 300]);
    expect(convertBlock(ndarray([-1, 256]), 'uint8').toArray()).toEqual([255, 0]);
    expect(convertBlock(x, 'float64')).toBe(x);
  });

  test('reshapeBlock is a view and infers -1', () => {
    const x = ndarray([1, 2, 3, 4, 5, 6], [6], 'int32');
    const y = reshapeBlock(x, [-1, 3]);
    expect(y.shape).toEqual([2, 3]);
    expect(y.data).toBe(x.data);
    expect(reshapeBlock(ndarray([], [0], 'int32'), [3, -1]).shape).toEqual([3, 0]);
  });

  test('permuteBlock, flipBlock, broadcastBlock', () => {
    const x = ndarray([1, 2, 3, 4, 5, 6], [2, 3], 'float64');
    expect(permuteBlock(x, [1, 0]).toNested()).toEqual([
      [1, 4],
      [2, 5],
      [3, 6],
    ]);
    expect(flipBlock(x, [1]).toNested()).toEqual([
      [3, 2, 1],
      [6, 5, 4],
    ]);
    expect(broadcastBlock(ndarray([7, 8], [2, 1]), [2, 2, 3]).toNested()).toEqual([
      [
        [7, 7, 7],
        [8, 8, 8],
      ],
      [
        [7, 7, 7],
        [8, 8, 8],
      ],
    ]);
    expect(permuteBlock(ndarray([5], [], 'float64'), []).toNested()).toBe(5);
  });
});
