// numpy.fft fixtures (test/fixtures/fft-numpy.py) against fft.*, each input on a random
// chunking (transformed axes are made whole); complex input and output are complex128 arrays
// (the fixtures hold their values as (re, im) pairs on a last axis of size 2).

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { NDArray, shapeSize } from '../../src/array/ndarray.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { fft, fromArray, type LazyArray, shutdown, zeros } from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray, randomAxisChunks, rng } from '../helpers/reference.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

interface FftCase {
  fn: string;
  shape?: number[];
  seed?: number;
  complex?: boolean;
  n?: number;
  d?: number;
  args?: Record<string, unknown>;
  outShape: number[];
  out: number[];
}

const fixtures = JSON.parse(
  readFileSync(new URL('../fixtures/fft-numpy.json', import.meta.url), 'utf8'),
) as { cases: FftCase[] };

/** The fixture script's data (complex: re from seed, im from seed + 1, complex128). */
function data(shape: readonly number[], seed: number, complex: boolean): NDArray {
  const v = (i: number, s: number) => ((i * i * 7 + i * 37 + s * 11) % 101) / 10 - 5;
  const size = shapeSize(shape);
  if (!complex)
    return new NDArray(
      Float64Array.from({ length: size }, (_, i) => v(i, seed)),
      shape,
      'float64',
    );
  const d = new Float64Array(2 * size);
  for (let i = 0; i < size; i++) {
    d[2 * i] = v(i, seed);
    d[2 * i + 1] = v(i, seed + 1);
  }
  return new NDArray(d, shape, 'complex128');
}

/** A complex result as the fixtures hold it: (re, im) pairs on a last axis of size 2. */
const asPairs = (z: NDArray): NDArray =>
  z.dtype === 'complex128' ? new NDArray(z.data, [...z.shape, 2], 'float64') : z;

function run(c: FftCase, k: number): LazyArray {
  if (c.fn === 'fftfreq') return fft.fftfreq(c.n!, { d: c.d! });
  if (c.fn === 'rfftfreq') return fft.rfftfreq(c.n!, { d: c.d! });
  const d = data(c.shape!, c.seed!, c.complex!);
  const r = rng(k + 1);
  const x = fromArray(d, { chunks: d.shape.map((n) => randomAxisChunks(n, r)) });
  const args = c.args ?? {};
  if (c.fn === 'fftComplex') return fft.fft(x, args);
  return (fft[c.fn as 'fft'] as (x: LazyArray, o: object) => LazyArray)(x, args);
}

describe('fft against numpy.fft', () => {
  test.each(
    fixtures.cases.map(
      (c, k) =>
        [
          `${c.fn} ${JSON.stringify(c.shape ?? c.n)} ${JSON.stringify(c.args ?? { d: c.d })}`,
          c,
          k,
        ] as const,
    ),
  )('%s', async (_, c, k) => {
    const got = await run(c, k).compute(SYNC);
    const shift = c.fn === 'fftshift' || c.fn === 'ifftshift';
    const complexOut = shift
      ? c.complex === true
      : !['irfft', 'irfftn', 'hfft', 'fftfreq', 'rfftfreq'].includes(c.fn);
    expect(got.dtype).toBe(complexOut ? 'complex128' : 'float64');
    expectArray(asPairs(got), { shape: c.outShape, data: c.out }, 1e-9);
  });
});

describe('fft dtypes and round trips on random chunkings', () => {
  test('float16 input is widened to float32 first (complex64 out)', async () => {
    const x = fromArray([1, 2, 3, 4], { dtype: 'float16' });
    const y = await fft.rfft(x).compute(SYNC);
    expect(y.dtype).toBe('complex64');
    expect(y.toNested()).toEqual([
      { re: 10, im: 0 },
      { re: -2, im: 2 },
      { re: -2, im: 0 },
    ]);
  });

  test('float32 input gives complex64 within float32 precision', async () => {
    const d = data([3, 20], 5, false);
    const x = fromArray(new NDArray(Float32Array.from(d.data as NumberArray), [3, 20], 'float32'), {
      chunks: [1, 7],
    });
    const [y, ref] = [await fft.rfft(x).compute(SYNC), await fft.rfft(fromArray(d)).compute(SYNC)];
    expect(y.dtype).toBe('complex64');
    expect(ref.dtype).toBe('complex128');
    expectArray(
      new NDArray(y.data, [...y.shape, 2], 'float32'),
      { shape: [...ref.shape, 2], data: ref.data },
      1e-5,
    );
  });

  test.each([
    [[16], 0],
    [[5, 33], 1],
    [[4, 6, 9], 0],
    [[3, 128], -1],
  ] as const)('ifft(fft(x)) = x and irfft(rfft(x), n) = x for %j along %i', async (shape, axis) => {
    const d = data([...shape], 7, false);
    const r = rng(shape.length);
    const x = fromArray(d, { chunks: d.shape.map((n) => randomAxisChunks(n, r)) });
    const back = await fft.ifft(fft.fft(x, { axis }), { axis }).compute(SYNC);
    const re = (back.data as NumberArray).filter((_, i) => i % 2 === 0);
    const im = (back.data as NumberArray).filter((_, i) => i % 2 === 1);
    expectArray(new NDArray(Float64Array.from(re), d.shape, 'float64'), d, 1e-12);
    expect(Math.max(...im.map(Math.abs))).toBeLessThan(1e-12);
    const n = d.shape.at(axis)!;
    const real = await fft.irfft(fft.rfft(x, { axis }), { axis, n }).compute(SYNC);
    expectArray(real, d, 1e-12);
  });
});

describe('fft of long axes (four-step, mixed radix, Bluestein) against closed forms', () => {
  test.each([32768, 40000, 32771])(
    'n = %i: a cosine of frequency 5 has two peaks of n/2',
    async (n) => {
      const x = fromArray(
        Float64Array.from({ length: n }, (_, j) => Math.cos((2 * Math.PI * 5 * j) / n)),
        {
          chunks: 10000,
        },
      );
      const y = await fft.fft(x).compute(SYNC);
      const want = new Float64Array(2 * n);
      want[10] = n / 2;
      want[2 * (n - 5)] = n / 2;
      let worst = 0;
      for (let i = 0; i < 2 * n; i++)
        worst = Math.max(worst, Math.abs((y.data as NumberArray)[i]! - want[i]!));
      expect(worst).toBeLessThan(1e-8);
    },
  );
});

describe('fftshift of complex arrays', () => {
  test('every axis rolls; (re, im) stay together', async () => {
    const z = fft.fft(
      fromArray(
        [
          [1, 2, 3, 4],
          [0, 1, 0, 1],
        ],
        { chunks: 1 },
      ),
      { axis: 1 },
    );
    const [whole, shifted] = [await z.compute(SYNC), await fft.fftshift(z).compute(SYNC)];
    // rows and frequencies rolled by 1 and 2; (re, im) pairs untouched
    const at = (d: NDArray, i: number, k: number, c: number) => d.data[(i * 4 + k) * 2 + c]!;
    for (let i = 0; i < 2; i++) {
      for (let k = 0; k < 4; k++) {
        for (let c = 0; c < 2; c++)
          expect(at(shifted, i, k, c)).toBe(at(whole, (i + 1) % 2, (k + 2) % 4, c));
      }
    }
    const back = await fft.ifftshift(fft.fftshift(z)).compute(SYNC);
    expect(Array.from(back.data as NumberArray)).toEqual(Array.from(whole.data as NumberArray));
  });
});

describe('fft graphs and errors', () => {
  test('one task per block of the other axes; the transformed axis becomes one chunk', () => {
    const x = zeros([8, 1000], { chunks: [2, 250] });
    const y = fft.rfft(x, { axis: 1 });
    expect(y.chunks).toEqual([[2, 2, 2, 2], [501]]);
    expect(y.dtype).toBe('complex128');
    const table = materializeTasks([y.layer]);
    let ffts = 0;
    for (let t = 0; t < table.count; t++)
      if (table.layers[table.layerOf[t]!]!.op === 'fft-rfft') ffts++;
    expect(ffts).toBe(4);
  });

  test.each([
    ['empty axis', () => fft.fft(zeros([3, 0])), 'ValueError', ['fft.fft', 'empty']],
    ['bad n', () => fft.rfft(zeros([4]), { n: 0 }), 'ValueError', ['fft.rfft', 'n 0']],
    ['bad norm', () => fft.fft(zeros([4]), { norm: 'none' as 'ortho' }), 'ValueError', ["'none'"]],
    ['bad axis', () => fft.fft(zeros([4]), { axis: 1 }), 'ValueError', ['fft.fft', 'axis 1']],
    [
      'ifft of non-pairs',
      () => fft.ifft(zeros([4, 3]), { complexInput: true }),
      'ShapeError',
      ['fft.ifft', 'size 2', '(4, 3)'],
    ],
    [
      'rfft of a complex array',
      () => fft.rfft(fromArray([{ re: 1, im: 0 }])),
      'DTypeError',
      ['fft.rfft', 'real input', "'complex128'"],
    ],
    [
      'rfft of complex',
      () => fft.rfft(zeros([4, 2]), { complexInput: true }),
      'ValueError',
      ['real input'],
    ],
    ['bool', () => fft.fft(zeros([4], { dtype: 'bool' })), 'DTypeError', ["'bool'"]],
    [
      'irfft of one term',
      () => fft.irfft(fromArray([{ re: 1, im: 0 }])),
      'ValueError',
      ['fft.irfft', 'n 0'],
    ],
    [
      'fftn s and axes',
      () => fft.fftn(zeros([4, 4]), { s: [4], axes: [0, 1] }),
      'ValueError',
      ['differ'],
    ],
    ['fftfreq n', () => fft.fftfreq(0), 'ValueError', ['fft.fftfreq', 'n 0']],
    ['fftfreq d', () => fft.rfftfreq(4, { d: 0 }), 'ValueError', ['d 0']],
  ] as const)('%s', (_, f, tag, fragments) => expectThrow(f, tag, fragments));
});
