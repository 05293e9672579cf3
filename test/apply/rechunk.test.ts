// rechunk against a dense reference: random chunkings, every spec form, planned intermediate
// steps (graph size and memory bounds), task kinds, unknown sizes and errors.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { rechunk } from '../../src/apply/rechunk.ts';
import { compute } from '../../src/array/compute.ts';
import { zeros } from '../../src/array/creation.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { blocksOf, numBlocks } from '../../src/chunking/blocks.ts';
import { normalizeChunks } from '../../src/chunking/normalize.ts';
import { rechunkTaskBytes } from '../../src/chunking/rechunk-plan.ts';
import type { Chunks } from '../../src/chunking/types.ts';
import type { Layer } from '../../src/graph/layer.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import {
  arbShapeAndChunks,
  expectArray,
  randomAxisChunks,
  randomDense,
  rng,
  withChunks,
} from '../helpers/reference.ts';

/** The rechunk layers from `y` back to the first non-rechunk layer, first step first. */
function steps(y: LazyArray): Layer[] {
  const out: Layer[] = [];
  for (let l = y.layer; l.op === 'rechunk'; l = l.deps[0]!) out.unshift(l);
  return out;
}

/** Input references (pieces) of every task of a layer. */
function edges(layer: Layer): number {
  let n = 0;
  for (const b of blocksOf(layer.chunks.map((c) => c.length))) n += layer.task(b).inputs.length;
  return n;
}

describe('rechunk', () => {
  test('random old/new chunkings keep the values and reach the target', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 10), async ({ shape, chunks, seed }) => {
        const r = rng(seed + 9);
        const target = shape.map((n) => randomAxisChunks(n, r));
        const dense = randomDense(shape, 'float32', seed);
        const y = rechunk(fromArray(dense, { chunks }), target);
        expect(y.chunks).toEqual(target);
        expect(y.dtype).toBe('float32');
        expectArray(await compute(y), dense);
      }),
      { numRuns: 120 },
    );
  });

  test.each<[string, number[], number[][], Parameters<typeof rechunk>[1]]>([
    ['one size for every axis', [7, 5], [[3, 4], [5]], 2],
    [
      '-1 joins an axis',
      [7, 5],
      [
        [3, 4],
        [1, 4],
      ],
      [-1, 2],
    ],
    [
      'null keeps an axis',
      [7, 5],
      [
        [3, 4],
        [1, 4],
      ],
      [null, 5],
    ],
    [
      'record keyed by axis',
      [7, 5],
      [
        [3, 4],
        [1, 4],
      ],
      { 1: 3 },
    ],
    [
      'negative record key',
      [7, 5],
      [
        [3, 4],
        [1, 4],
      ],
      { [-2]: 7 },
    ],
    [
      'explicit sizes',
      [7, 5],
      [
        [3, 4],
        [1, 4],
      ],
      [
        [1, 6],
        [2, 2, 1],
      ],
    ],
    ['1-D flat explicit sizes', [9], [[9]], [2, 3, 4]],
    [
      'auto',
      [7, 5],
      [
        [3, 4],
        [1, 4],
      ],
      'auto',
    ],
  ])('spec: %s', async (_, shape, chunks, spec) => {
    const dense = randomDense(shape, 'int32', 2);
    const x = fromArray(dense, { chunks });
    const y = rechunk(x, spec);
    const expected = normalizeChunks(spec, shape, { previousChunks: chunks, dtype: 'int32' });
    expect(y.chunks).toEqual(expected);
    expectArray(await compute(y), dense);
  });

  test('identical chunks give x itself', () => {
    const x = fromArray(randomDense([6, 4]), { chunks: [3, 2] });
    expect(rechunk(x, [3, 2])).toBe(x);
    expect(rechunk(x, {})).toBe(x);
    expect(rechunk(x, [[3, 3], null])).toBe(x);
  });

  test('task kinds: whole blocks pass through, one piece slices, several merge', () => {
    const x = fromArray(randomDense([10]), { chunks: [[4, 4, 2]] });
    const split = rechunk(x, [[4, 2, 2, 2]]).layer;
    expect([0, 1, 2, 3].map((i) => split.task([i]).kernel)).toEqual([
      'passthrough',
      'slice',
      'slice',
      'passthrough',
    ]);
    const merged = rechunk(x, [[5, 5]]).layer;
    const t = merged.task([0]);
    expect(t.kernel).toBe('rechunk-merge');
    expect(t.inputs).toEqual([
      [0, [0]],
      [0, [1]],
    ]);
    expect(merged.fusable).toBe(false);
  });

  test('a merge of 2-D pieces copies each into place', async () => {
    const dense = randomDense([5, 7], 'uint8', 4);
    const x = fromArray(dense, {
      chunks: [
        [2, 3],
        [3, 4],
      ],
    });
    const y = rechunk(x, [[5], [1, 5, 1]]);
    expect(y.layer.task([0, 1]).inputs).toHaveLength(4);
    expectArray(await compute(y), dense);
  });

  test('transposed chunking goes through intermediates within the graph and memory bounds', () => {
    const x = zeros([10000, 100], { chunks: [10000, 1] });
    const memoryLimit = 2 * 10000 * 8 * 10;
    const y = rechunk(x, [1, 100], { memoryLimit });
    expect(y.chunks).toEqual([new Array(10000).fill(1), [100]]);
    const ls = steps(y);
    expect(ls.length).toBeGreaterThan(1);
    let prev: Chunks = x.chunks;
    for (const layer of ls) {
      const bound = 4 * (numBlocks(prev) + numBlocks(layer.chunks));
      expect(numBlocks(layer.chunks)).toBeLessThanOrEqual(bound);
      expect(edges(layer)).toBeLessThanOrEqual(bound);
      const need = Math.max(
        memoryLimit,
        rechunkTaskBytes(prev, prev, 8),
        rechunkTaskBytes(y.chunks, y.chunks, 8),
      );
      expect(rechunkTaskBytes(prev, layer.chunks, 8)).toBeLessThanOrEqual(need);
      prev = layer.chunks;
    }
    const direct = 10000 * 100;
    expect(edges(ls[ls.length - 1]!)).toBeLessThan(direct);
  });

  test('a small analogue computes the right values through its steps', async () => {
    const shape = [60, 40];
    const dense = randomDense(shape, 'float64', 8);
    const x = fromArray(dense, { chunks: [60, 1] });
    const y = rechunk(x, [1, 40], { memoryLimit: 2 * 60 * 8 * 5 });
    const ls = steps(y);
    expect(ls.length).toBeGreaterThan(1);
    let prev: Chunks = x.chunks;
    for (const layer of ls) {
      expect(edges(layer)).toBeLessThanOrEqual(4 * (numBlocks(prev) + numBlocks(layer.chunks)));
      prev = layer.chunks;
    }
    // every task counted: from-array blocks + one task per block of each step
    const tasks = runnableCount(materializeTasks([y.layer]));
    expect(tasks).toBe(40 + ls.reduce((s, l) => s + numBlocks(l.chunks), 0));
    expectArray(await compute(y), dense);
  });

  test('rechunking along other axes of an array with unknown sizes works', async () => {
    const dense = randomDense([4, 6], 'float64', 5);
    const x = fromArray(dense, { chunks: [2, 3] });
    const unknown = withChunks(x, [
      [null, null],
      [3, 3],
    ]);
    const y = rechunk(unknown, { 1: 2 });
    expect(y.chunks).toEqual([
      [null, null],
      [2, 2, 2],
    ]);
    expectArray(await compute(y), dense);
    expect(
      rechunk(unknown, [
        [null, null],
        [3, 3],
      ]),
    ).toBe(unknown);
    expectThrow(() => rechunk(unknown, 2), 'ChunkError', /^rechunk: .*computeChunkSizes/);
    expectThrow(
      () => rechunk(unknown, [[4], [6]]),
      'ChunkError',
      /^rechunk: axis 0 .*computeChunkSizes/,
    );
  });

  test.each<[string, Parameters<typeof rechunk>[1], RegExp]>([
    [
      'sizes that do not sum',
      [[3, 3], null],
      /^rechunk: chunks \(3, 3\) sum to 6, not 7, on axis 0/,
    ],
    ['a bad size', [0.5, 2], /^rechunk: chunk size 0.5/],
    ['wrong number of axes', [2, 2, 2], /^rechunk: chunks .* have 3 axes/],
  ])('error: %s', (_, spec, text) => {
    const x = fromArray(randomDense([7, 5]), { chunks: 2 });
    expectThrow(() => rechunk(x, spec), 'ChunkError', text);
  });
});
