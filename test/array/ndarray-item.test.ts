// NDArray.item() (issue 11): the one value of a 0-d or size-1 array as a JS scalar.

import { describe, expect, test } from 'vitest';
import { compute, fromArray, ndarray, ones, ValueError } from '../../src/index.ts';

const SYNC = { scheduler: 'sync' } as const;

describe('NDArray.item()', () => {
  test('a 0-d array gives its value', async () => {
    const total = await compute(ones([10, 10], { chunks: 5 }).sum(), SYNC);
    expect(total.shape).toEqual([]);
    expect(total.item()).toBe(100);
  });
  test('a size-1 array of any rank gives its value', () => {
    expect(ndarray([[[7.5]]]).item()).toBe(7.5);
    expect(ndarray([-3], undefined, 'int32').item()).toBe(-3);
  });
  test('bool gives a boolean', async () => {
    expect((await compute(ones([3]).greater(0).all(), SYNC)).item()).toBe(true);
    expect(ndarray([false], undefined, 'bool').item()).toBe(false);
  });
  test('float16 is decoded', () => {
    expect(ndarray([1.5], undefined, 'float16').item()).toBe(1.5);
  });
  test('a bigger or empty array is a ValueError starting item:', async () => {
    const x = await compute(fromArray([1, 2, 3]), SYNC);
    expect(() => x.item()).toThrow(ValueError);
    expect(() => x.item()).toThrow(/^item: /);
    expect(() => ndarray([], undefined, 'float64').item()).toThrow(/^item: /);
  });
});
