// Basic slicing (getitem) against a dense NumPy-style reference: random shapes, chunkings and
// indices (negative steps, empty slices, ints, None, '...'), culling and error paths.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { getIndex } from '../../src/apply/indexing.ts';
import { getitem } from '../../src/apply/slicing.ts';
import { compute } from '../../src/array/compute.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { IndexItem } from '../../src/chunking/parse-index.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import {
  arbShapeAndChunks,
  expectArray,
  randomDense,
  rng,
  withChunks,
} from '../helpers/reference.ts';
import { denseGet, indexText, randomIndex } from './indexing-reference.ts';

function sumsOf(chunks: readonly (readonly (number | null)[])[]): (number | null)[] {
  return chunks.map((c) => (c.includes(null) ? null : (c as number[]).reduce((a, b) => a + b, 0)));
}

describe('getitem', () => {
  test('random basic indices match the dense reference (values, shape, dtype, chunks)', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 9), async ({ shape, chunks, seed }) => {
        const dense = randomDense(shape, 'int32', seed);
        const x = fromArray(dense, { chunks });
        const index = randomIndex(shape, rng(seed + 1));
        const expected = denseGet(dense, index);
        const y = getitem(x, index);
        expect(y.shape).toEqual(expected.shape);
        expect(sumsOf(y.chunks)).toEqual(expected.shape);
        expect(y.dtype).toBe('int32');
        expectArray(await compute(y), expected);
      }),
      { numRuns: 150 },
    );
  });

  test('string syntax builds the same array as item syntax', () => {
    fc.assert(
      fc.property(arbShapeAndChunks(3, 9), ({ shape, chunks, seed }) => {
        const x = fromArray(randomDense(shape, 'float64', seed), { chunks });
        const index = randomIndex(shape, rng(seed + 2));
        expect(getIndex(x, indexText(index)).name).toBe(getitem(x, index).name);
      }),
      { numRuns: 100 },
    );
  });

  test.each<[string, number[], number[][], IndexItem[]]>([
    ['negative step across blocks', [10], [[4, 4, 2]], [{ start: 9, step: -3 }]],
    [
      'full reverse',
      [7, 5],
      [
        [3, 3, 1],
        [2, 3],
      ],
      [{ step: -1 }, { step: -2 }],
    ],
    ['empty slice', [6, 4], [[2, 4], [4]], [{ start: 4, stop: 2 }, {}]],
    ['empty reverse slice', [6], [[2, 2, 2]], [{ start: 1, stop: 3, step: -1 }]],
    ['ints drop axes', [5, 6, 7], [[2, 3], [6], [3, 4]], [-1, '...', 3]],
    ['new axes everywhere', [4, 3], [[2, 2], [3]], [null, 1, null, { step: 2 }, null]],
    ['ellipsis only', [3, 4], [[1, 2], [4]], ['...']],
    ['index past the end is clipped', [5], [[2, 3]], [{ start: -100, stop: 100, step: 2 }]],
    ['empty axis', [0, 3], [[0], [2, 1]], [{ step: -1 }, 1]],
  ])('%s', async (_, shape, chunks, index) => {
    const dense = randomDense(shape, 'float64', 3);
    const y = getitem(fromArray(dense, { chunks }), index);
    const expected = denseGet(dense, index);
    expect(y.shape).toEqual(expected.shape);
    expectArray(await compute(y), expected);
  });

  test('0-d results and 0-d inputs', async () => {
    const dense = randomDense([3, 4], 'int16', 4);
    const y = getitem(fromArray(dense, { chunks: 2 }), [2, -1]);
    expect(y.shape).toEqual([]);
    expect((await compute(y)).data[0]).toBe(dense.data[11]);
    const s = getitem(y, [null, '...']);
    expect(s.shape).toEqual([1]);
    expect(Array.from((await compute(s)).data as NumberArray)).toEqual([dense.data[11]]);
  });

  test('a full index returns x itself', () => {
    const x = fromArray(randomDense([4, 5]), { chunks: 2 });
    expect(getitem(x, ['...'])).toBe(x);
    expect(getitem(x, [{}, { start: 0, step: 1 }])).toBe(x);
  });

  test('each output block reads one input block; untouched blocks are culled', () => {
    const x = fromArray(new Float64Array(100 * 100), { shape: [100, 100], chunks: 10, name: 'x' });
    expect(runnableCount(materializeTasks([x.layer]))).toBe(100);
    const corner = getitem(x, [{ stop: 3 }, { stop: 3 }]);
    const table = materializeTasks([corner.layer]);
    // one getitem task + the one from-array block it reads
    expect(runnableCount(table)).toBe(2);
    const strided = getitem(x, [{ start: 5, step: 20 }, 7]);
    expect(strided.chunks).toEqual([[1, 1, 1, 1, 1]]);
    expect(runnableCount(materializeTasks([strided.layer]))).toBe(10);
  });

  test('within-block slices on a one-block axis keep the grid and are fusable', () => {
    const x = fromArray(randomDense([6, 8]), { chunks: [3, 8] });
    expect(getitem(x, [{}, { start: 1, stop: -1 }]).layer.fusable).toBe(true);
    expect(getitem(x, [{ start: 1 }, {}]).layer.fusable).toBe(true);
    expect(getitem(x, [{ start: 4 }, {}]).layer.fusable).toBe(false);
    expect(getitem(x, [{ step: -1 }, {}]).layer.fusable).toBe(false);
    expect(getitem(x, [0]).layer.fusable).toBe(false);
  });

  test('names are deterministic and parameter-sensitive', () => {
    const x = fromArray(randomDense([6, 8]), { chunks: 3 });
    expect(getitem(x, [{ step: 2 }]).name).toBe(getitem(x, [{ step: 2 }]).name);
    expect(getitem(x, [{ step: 2 }]).name).not.toBe(getitem(x, [{ step: 3 }]).name);
  });

  test('unknown sizes: ":" passes through, anything else is a ChunkError', async () => {
    const dense = randomDense([4, 6], 'float64', 5);
    const x = fromArray(dense, { chunks: [2, 3] });
    const unknown = withChunks(x, [[null, null], x.chunks[1]!]);
    const y = getitem(unknown, [{}, { step: -2 }]);
    expect(y.chunks).toEqual([
      [null, null],
      [2, 1],
    ]);
    const out = await compute(getitem(unknown, [{}, { step: -2 }, null]));
    expectArray(out, denseGet(dense, [{}, { step: -2 }, null]));
    expectThrow(() => getitem(unknown, [1]), 'ChunkError', /^get: .*computeChunkSizes/);
    expectThrow(() => getitem(unknown, [{ step: 2 }]), 'ChunkError', /^get: .*computeChunkSizes/);
  });

  test.each<[string, IndexItem[], string, RegExp]>([
    [
      'int out of bounds',
      [5],
      'IndexError',
      /^get: index 5 is out of bounds for axis 0 with size 5/,
    ],
    ['negative out of bounds', [0, -7], 'IndexError', /^get: index -7 .*axis 1 with size 6/],
    ['too many indices', [0, 0, 0], 'IndexError', /^get: too many indices/],
    ['two ellipses', ['...', '...'], 'IndexError', /^get: .*more than one ellipsis/],
    ['zero step', [{ step: 0 }], 'IndexError', /^get: slice step 0/],
    ['non-integer', [1.5], 'IndexError', /^get: index 1.5/],
    ['integer array', [[0, 1]], 'IndexError', /^get: integer array \[0,1\]/],
  ])('error: %s', (_, index, tag, text) => {
    const x = fromArray(randomDense([5, 6]), { chunks: 2 });
    expectThrow(() => getitem(x, index), tag, text);
  });
});
