// pad against numpy.pad fixtures (numpy-pad.py) on random chunkings: values, dtype, shape,
// and the interior's chunks kept with new edge chunks; errors.

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import type { DType } from '../../src/array/dtype.ts';
import { shapeSize } from '../../src/array/ndarray.ts';
import { arange, compute, fromArray, type PadMode, pad, shutdown } from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray, randomAxisChunks, rng } from '../helpers/reference.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

interface PadCase {
  shape: number[];
  dtype: DType;
  widths: [number, number][];
  mode: PadMode;
  constantValues: [number, number][] | null;
  outShape: number[];
  out: number[];
}

const fixtures = JSON.parse(
  readFileSync(new URL('../fixtures/numpy-pad.json', import.meta.url), 'utf8'),
) as { cases: PadCase[] };

const label = (c: PadCase) => `${c.mode} [${c.shape}] ${JSON.stringify(c.widths)} ${c.dtype}`;

describe('pad matches numpy.pad', () => {
  test.each(fixtures.cases.map((c, i) => [label(c), c, i] as const))('%s', async (_, c, i) => {
    const r = rng(100 + i);
    const n = shapeSize(c.shape);
    const base = fromArray(
      c.dtype === 'int32'
        ? Int32Array.from({ length: n }, (_, k) => k)
        : Float64Array.from({ length: n }, (_, k) => k),
      { shape: c.shape },
    );
    for (let rep = 0; rep < 3; rep++) {
      const chunks = c.shape.map((s) => randomAxisChunks(s, r));
      const x = base.rechunk(chunks);
      const opts = c.constantValues
        ? { mode: c.mode, constantValues: c.constantValues }
        : { mode: c.mode };
      const y = pad(x, c.widths, opts);
      expect(y.shape).toEqual(c.outShape);
      // the interior's chunks are untouched; each padded side adds chunks of its own
      y.chunks.forEach((axis, ax) => {
        const before = Math.ceil(c.widths[ax]![0] / Math.max(...chunks[ax]!));
        expect(axis.slice(before, before + chunks[ax]!.length)).toEqual(chunks[ax]);
      });
      expectArray(await compute(y, SYNC), { dtype: c.dtype, shape: c.outShape, data: c.out });
    }
  });
});

describe('pad', () => {
  test('chunks: interior kept, one new chunk per padded side', () => {
    const x = arange(10, { chunks: [3, 3, 4] });
    expect(pad(x, [2, 1], { mode: 'wrap' }).chunks).toEqual([[2, 3, 3, 4, 1]]);
    expect(pad(x, [0, 2]).chunks).toEqual([[3, 3, 4, 2]]);
    expect(pad(x, 0)).toBe(x);
  });

  test('widths forms: one number, a pair for every axis, one entry per axis', () => {
    const x = fromArray(new Float64Array(6), { shape: [2, 3] });
    expect(pad(x, 1).shape).toEqual([4, 5]);
    expect(pad(x, [1, 2]).shape).toEqual([5, 6]);
    expect(pad(x, [[0, 1], 2]).shape).toEqual([3, 7]);
  });

  test.each([
    [() => pad(arange(4), -1), 'ValueError', ['pad:', 'pad width -1 on axis 0']],
    [() => pad(arange(4), 1.5), 'ValueError', ['pad:', 'pad width 1.5']],
    [
      () =>
        pad(arange(4), [
          [1, 1],
          [1, 1],
        ]),
      'ValueError',
      ['pad:', 'one entry per axis (1)'],
    ],
    [() => pad(arange(4), 1, { mode: 'mean' as PadMode }), 'ValueError', ['pad:', "mode 'mean'"]],
    [() => pad(arange(0), 1, { mode: 'edge' }), 'ValueError', ['pad:', 'axis 0 is empty']],
    [
      () => pad(arange(6).mask(arange(6).greater(2)), 1),
      'ChunkError',
      ['pad:', 'computeChunkSizes'],
    ],
  ])('error %#', (f, tag, fragments) => expectThrow(f, tag, fragments));
});
