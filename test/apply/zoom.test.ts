// zoom: against a dense reference written here from torch's interpolate formulas
// (align_corners=False; cubic convolution with A = -0.75), on random shapes, chunkings,
// factors and orders; chunk-independent; bounded blocks; errors.

import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { compute, fromArray, NDArray, ones, shutdown, ValueError, zoom } from '../../src/index.ts';
import { rng } from '../helpers/reference.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

/** torch's 1-D resampling of a line (the reference, independent of src). */
function resample(line: readonly number[], nOut: number, order: 0 | 1 | 3): number[] {
  const n = line.length;
  const scale = n / nOut;
  const at = (i: number): number => line[Math.min(Math.max(i, 0), n - 1)]!;
  const out: number[] = [];
  for (let j = 0; j < nOut; j++) {
    if (order === 0) {
      out.push(at(Math.floor(j * scale)));
    } else if (order === 1) {
      const s = Math.max((j + 0.5) * scale - 0.5, 0);
      const i = Math.floor(s);
      const l = s - i;
      out.push(at(i) * (1 - l) + at(i + 1) * l);
    } else {
      const s = (j + 0.5) * scale - 0.5;
      const i = Math.floor(s);
      const t = s - i;
      const A = -0.75;
      const c1 = (x: number) => ((A + 2) * x - (A + 3)) * x * x + 1;
      const c2 = (x: number) => ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
      out.push(
        at(i - 1) * c2(t + 1) + at(i) * c1(t) + at(i + 1) * c1(1 - t) + at(i + 2) * c2(2 - t),
      );
    }
  }
  return out;
}

/** Dense reference: resample every line along each axis in turn. */
function reference(x: NDArray, outShape: number[], order: 0 | 1 | 3): Float64Array {
  let shape = [...x.shape];
  let data = Array.from(x.data as Float64Array);
  for (let ax = 0; ax < shape.length; ax++) {
    if (outShape[ax] === shape[ax]) continue;
    const inner = shape.slice(ax + 1).reduce((a, b) => a * b, 1);
    const outer = shape.slice(0, ax).reduce((a, b) => a * b, 1);
    const next = [...shape];
    next[ax] = outShape[ax]!;
    const out = new Array<number>(outer * next[ax]! * inner);
    for (let a = 0; a < outer; a++) {
      for (let i = 0; i < inner; i++) {
        const line = Array.from(
          { length: shape[ax]! },
          (_, k) => data[(a * shape[ax]! + k) * inner + i]!,
        );
        resample(line, next[ax]!, order).forEach((v, j) => {
          out[(a * next[ax]! + j) * inner + i] = v;
        });
      }
    }
    shape = next;
    data = out;
  }
  return Float64Array.from(data);
}

function volume(shape: number[], seed: number): NDArray {
  const r = rng(seed);
  const n = shape.reduce((a, b) => a * b, 1);
  return new NDArray(
    Float64Array.from({ length: n }, () => r() * 10 - 5),
    shape,
    'float64',
  );
}

describe('against the dense reference', () => {
  test('random shapes, chunkings, factors and orders', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(0, 1, 3),
        fc.integer({ min: 0, max: 1e6 }),
        fc.array(fc.constantFrom(0.5, 0.7, 1, 1.5, 2, 3), { minLength: 3, maxLength: 3 }),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 3, maxLength: 3 }),
        async (shape, order, seed, fs, cs) => {
          const x = volume(shape, seed);
          const factors = shape.map((_, i) => fs[i]!);
          const out = await compute(
            zoom(fromArray(x, { chunks: shape.map((_, i) => cs[i]!) }), factors, {
              order: order as 0 | 1 | 3,
            }),
            SYNC,
          );
          const outShape = shape.map((n, i) => Math.max(1, Math.round(n * factors[i]!)));
          expect(out.shape).toEqual(outShape);
          const want = reference(x, outShape, order as 0 | 1 | 3);
          for (let i = 0; i < want.length; i++) expect(out.data[i]).toBeCloseTo(want[i]!, 10);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a constant volume stays constant (weights sum to one); factor 1 is the identity', async () => {
    for (const order of [0, 1, 3] as const) {
      const out = await compute(
        zoom(ones([6, 5, 4], { chunks: 3 }), [1.5, 2, 0.5], { order }),
        SYNC,
      );
      for (const v of out.data) expect(v).toBeCloseTo(1, 12);
    }
    const x = fromArray(volume([5, 6], 3), { chunks: 2 });
    expect(Array.from((await compute(zoom(x, 1), SYNC)).data as NumberArray)).toEqual(
      Array.from((await compute(x, SYNC)).data as NumberArray),
    );
  });

  test('the same values on threads; every block stays within one pencil of the input', async () => {
    const x = fromArray(volume([16, 16, 16], 9), { chunks: 4 });
    const y = zoom(x, 2, { order: 3 });
    const [a, b] = [await compute(y, SYNC), await compute(y)];
    expect(Array.from(b.data as NumberArray)).toEqual(Array.from(a.data as NumberArray));
    expect(y.chunks.map((c) => Math.max(...c.map(Number)))).toEqual([8, 8, 8]);
  });
});

describe('errors at build time', () => {
  const x = fromArray(volume([4, 4], 1), { chunks: 2 });
  test.each([
    [[2], /one per axis/],
    [[2, -1], /positive finite/],
    [[2, Number.NaN], /positive finite/],
    ['2', /one per axis/],
  ])('factors %j', (f, message) => {
    expect(() => zoom(x, f as never)).toThrow(ValueError);
    expect(() => zoom(x, f as never)).toThrow(message);
  });
  test('order', () => {
    expect(() => zoom(x, 2, { order: 2 as never })).toThrow(/^zoom: order 2 must be 0, 1 or 3/);
  });
});
