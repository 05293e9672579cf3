// medianFilter and convolve against scipy.ndimage fixtures (ndimage-windows.py), on several
// chunkings each (results must not depend on them); graph shape; errors.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { DType, NumberArray } from '../../src/array/dtype.ts';
import { shapeSize } from '../../src/array/ndarray.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import {
  compute,
  convolve,
  type FilterMode,
  fromArray,
  gaussianFilter,
  medianFilter,
  ndarray,
  shutdown,
  uniformFilter,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray } from '../helpers/reference.ts';

beforeAll(() => {
  vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
});
afterAll(() => {
  vi.restoreAllMocks();
  return shutdown();
});
const SYNC = { scheduler: 'sync' } as const;

interface WindowCase {
  kind: 'median' | 'convolve';
  shape: number[];
  dtype: DType;
  mode: FilterMode;
  cval: number;
  size?: number | number[];
  kernel?: number[] | number[][] | number[][][];
  out: number[];
}

const fixtures = JSON.parse(
  readFileSync(new URL('../fixtures/ndimage-windows.json', import.meta.url), 'utf8'),
) as { cases: WindowCase[] };

/** The fixtures' input: x.flat[i] = (i * 37 % 101) / 7 - 5, cast as NumPy's astype does. */
function input(shape: readonly number[], dtype: DType) {
  const v = Array.from({ length: shapeSize(shape) }, (_, i) => ((i * 37) % 101) / 7 - 5);
  const data =
    dtype === 'float32'
      ? Float32Array.from(v)
      : dtype === 'int32'
        ? Int32Array.from(v, Math.trunc)
        : Float64Array.from(v);
  return fromArray(data, { shape: [...shape] });
}

const label = (c: WindowCase) =>
  `${c.kind} ${JSON.stringify(c.size ?? c.kernel)} ${c.mode} [${c.shape}] ${c.dtype}`;

describe('window filters match scipy', () => {
  test.each(fixtures.cases.map((c) => [label(c), c] as const))('%s', async (_, c) => {
    const rtol = c.dtype === 'float32' ? 1e-5 : 1e-8;
    for (const chunks of [-1, 3, 5]) {
      const x = input(c.shape, c.dtype).rechunk(chunks);
      const opts = { mode: c.mode, cval: c.cval };
      const y = c.kind === 'median' ? medianFilter(x, c.size!, opts) : convolve(x, c.kernel!, opts);
      expect(y.shape).toEqual(c.shape);
      const got = await compute(y, SYNC);
      expectArray(got, { dtype: c.dtype, shape: c.shape, data: c.out }, rtol);
    }
  });
});

describe('window filters', () => {
  test('each task reads at most 3^ndim blocks; one window task per block', () => {
    const x = input([12, 12], 'float64').rechunk(4);
    const table = materializeTasks([medianFilter(x, 3).layer]);
    const deps: Record<string, number[]> = {};
    for (let t = 0; t < table.count; t++) {
      const op = table.layers[table.layerOf[t]!]!.op;
      deps[op] = [...(deps[op] ?? []), table.depCount[t]!];
    }
    expect(deps.overlap!.length).toBe(9);
    expect(Math.max(...deps.overlap!)).toBe(9);
    expect(deps.medianFilter!.length).toBe(9);
    expect(medianFilter(x, [3, 5]).chunks).toEqual(x.chunks);
  });

  test('an NDArray kernel, a size 1 median, and mirror in the separable filters', async () => {
    const x = input([10], 'float64').rechunk(3);
    expect(medianFilter(x, 1)).toBe(x);
    const k = ndarray([1, 2, 3], [3]);
    const a = await compute(convolve(x, k, { mode: 'mirror' }), SYNC);
    const b = await compute(convolve(x, [1, 2, 3], { mode: 'mirror' }), SYNC);
    expect(Array.from(a.data as NumberArray)).toEqual(Array.from(b.data as NumberArray));
    // a mirror-mode uniform filter of size 3 at the edge: (x1 + x0 + x1) / 3
    const d = (await compute(x, SYNC)).data as NumberArray;
    const u = await compute(uniformFilter(x, 3, { mode: 'mirror' }), SYNC);
    expect(u.data[0]).toBeCloseTo((2 * d[1]! + d[0]!) / 3, 12);
    const g = await compute(gaussianFilter(x, 1, { mode: 'mirror', truncate: 1 }), SYNC);
    expect(g.data[9]).toBeCloseTo(
      (d[8]! * 2 * Math.exp(-0.5) + d[9]!) / (1 + 2 * Math.exp(-0.5)),
      12,
    );
  });

  test.each([
    [() => medianFilter(input([5], 'float64'), 0), 'ValueError', ['medianFilter:', 'size 0']],
    [
      () => medianFilter(input([5, 5], 'float64'), [3]),
      'ValueError',
      ['medianFilter:', 'one per axis (2)'],
    ],
    [
      () => medianFilter(input([5], 'float64'), 3, { mode: 'bogus' as FilterMode }),
      'ValueError',
      ['medianFilter:', "mode 'bogus'"],
    ],
    [
      () => medianFilter(fromArray(new Uint8Array([1, 0]), { dtype: 'bool' }), 1),
      'DTypeError',
      ['medianFilter:', "'bool'"],
    ],
    [() => convolve(input([5, 5], 'float64'), [1, 2]), 'ShapeError', ['convolve:', '(2)']],
    [() => convolve(input([5], 'float64'), [1, Number.NaN]), 'ValueError', ['convolve:', 'finite']],
    [() => convolve(input([5], 'float64'), []), 'ValueError', ['convolve:', 'empty']],
    [
      () => convolve(input([3], 'float64'), [1, 1, 1, 1, 1, 1, 1, 1, 1]),
      'ValueError',
      ['convolve:', 'larger than the axis (3)'],
    ],
    [
      () => convolve(input([5], 'float64'), [1], { cval: Number.NaN }),
      'ValueError',
      ['convolve:', 'cval NaN'],
    ],
  ])('error %#', (f, tag, fragments) => expectThrow(f, tag, fragments));
});
