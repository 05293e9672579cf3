// Tests of broadcastShapes: a table of NumPy cases and a property against a brute-force
// reference that tries every candidate size per axis.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { broadcastShapes } from '../../src/chunking/broadcast.ts';
import type { Size } from '../../src/chunking/types.ts';
import { expectThrow } from '../helpers/expect-throw.ts';

describe('broadcastShapes', () => {
  test.each([
    [[[]], []],
    [[[3], []], [3]],
    [
      [[4, 1], [3]],
      [4, 3],
    ],
    [
      [[1, 5], [7, 1], [1]],
      [7, 5],
    ],
    [
      [
        [2, 1, 3],
        [4, 1],
      ],
      [2, 4, 3],
    ],
    [[[0], [1]], [0]],
    [
      [[null, 3], [1]],
      [null, 3],
    ],
    [[[null], [5]], [null]],
    [[[null], [1]], [null]],
    [
      [
        [2, null],
        [2, 1],
      ],
      [2, null],
    ],
  ] as [Size[][], Size[]][])('%j -> %j', (shapes, expected) => {
    expect(broadcastShapes('add', ...shapes)).toEqual(expected);
  });

  test.each([
    [
      [[3], [4]],
      ['add:', '(3,)', '(4,)'],
    ],
    [
      [
        [2, 3],
        [3, 3],
      ],
      ['add:', '(2, 3)', '(3, 3)', '2 vs 3'],
    ],
    [
      [[0], [2]],
      ['(0,)', '(2,)'],
    ],
  ] as [Size[][], string[]][])('%j throws ShapeError', (shapes, fragments) => {
    expectThrow(() => broadcastShapes('add', ...shapes), 'ShapeError', fragments);
  });

  test('matches a brute-force reference', () => {
    const dim = fc.oneof(fc.constantFrom<Size>(1, 1, null, 0), fc.integer({ min: 2, max: 4 }));
    const shapes = fc.array(fc.array(dim, { maxLength: 4 }), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(shapes, (ss) => {
        const expected = referenceBroadcast(ss);
        if (expected === 'error') {
          expect(() => broadcastShapes('f', ...ss)).toThrow(/f: shapes/);
        } else {
          expect(broadcastShapes('f', ...ss)).toEqual(expected);
        }
      }),
    );
  });
});

/**
 * Reference: left-pad every shape with 1s; per axis, the known sizes other than 1 must
 * all be one value n (the result) or absent (result 1); an unknown entry makes it unknown.
 */
function referenceBroadcast(shapes: Size[][]): Size[] | 'error' {
  const nd = Math.max(...shapes.map((s) => s.length));
  const padded = shapes.map((s) => [...new Array<Size>(nd - s.length).fill(1), ...s]);
  const out: Size[] = [];
  for (let ax = 0; ax < nd; ax++) {
    const col = padded.map((s) => s[ax] as Size);
    const stretched = new Set(col.filter((d): d is number => d !== null && d !== 1));
    if (stretched.size > 1) return 'error';
    out.push(col.includes(null) ? null : ([...stretched][0] ?? 1));
  }
  return out;
}
