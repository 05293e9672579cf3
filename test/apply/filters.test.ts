// uniformFilter and gaussianFilter against scipy.ndimage fixtures (ndimage-filters.py), on
// several chunkings each (results must not depend on them); graph shape; errors.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { DType, NumberArray } from '../../src/array/dtype.ts';
import { shapeSize } from '../../src/array/ndarray.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import {
  compute,
  type FilterMode,
  fromArray,
  gaussianFilter,
  type LazyArray,
  shutdown,
  uniformFilter,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray } from '../helpers/reference.ts';

// chunks smaller than a kernel's radius are merged (a PerformanceWarning each time)
beforeAll(() => {
  vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
});
afterAll(() => {
  vi.restoreAllMocks();
  return shutdown();
});
const SYNC = { scheduler: 'sync' } as const;

interface FilterCase {
  kind: 'uniform' | 'gaussian';
  shape: number[];
  dtype: DType;
  mode: FilterMode;
  cval: number;
  size?: number | number[];
  sigma?: number | number[];
  truncate?: number;
  out: number[];
}

const fixtures = JSON.parse(
  readFileSync(new URL('../fixtures/ndimage-filters.json', import.meta.url), 'utf8'),
) as { cases: FilterCase[] };

/** The fixtures' input: x.flat[i] = (i * 37 % 101) / 7 - 5, cast as NumPy's astype does. */
function input(shape: readonly number[], dtype: DType) {
  const n = shapeSize(shape);
  const v = Array.from({ length: n }, (_, i) => ((i * 37) % 101) / 7 - 5);
  const data =
    dtype === 'float32'
      ? Float32Array.from(v)
      : dtype === 'int32'
        ? Int32Array.from(v, Math.trunc)
        : Float64Array.from(v);
  return fromArray(data, { shape: [...shape] });
}

const label = (c: FilterCase) =>
  `${c.kind} ${JSON.stringify(c.size ?? c.sigma)} ${c.mode} [${c.shape}] ${c.dtype}`;

describe('ndimage filters match scipy', () => {
  test.each(fixtures.cases.map((c) => [label(c), c] as const))('%s', async (_, c) => {
    const rtol = c.dtype === 'float32' ? 1e-5 : 1e-8;
    for (const chunks of [-1, 3, 5]) {
      const x = input(c.shape, c.dtype).rechunk(chunks);
      const opts = { mode: c.mode, cval: c.cval };
      const y =
        c.kind === 'uniform'
          ? uniformFilter(x, c.size!, opts)
          : gaussianFilter(x, c.sigma!, { ...opts, truncate: c.truncate! });
      expect(y.shape).toEqual(c.shape);
      const got = await compute(y, SYNC);
      if (c.dtype === 'int32') {
        // integers truncate like scipy's C casts: uniform sums agree exactly; Gaussian
        // weights come from Math.exp, which can differ from NumPy's exp by one ulp, so a
        // sum that is a whole number there may truncate one lower here
        const slack = c.kind === 'uniform' ? 0 : 1;
        const worst = Math.max(
          ...Array.from(got.data as NumberArray, (v, i) => Math.abs(v - c.out[i]!)),
        );
        expect(worst).toBeLessThanOrEqual(slack);
      } else expectArray(got, { dtype: c.dtype, shape: c.shape, data: c.out }, rtol);
    }
  });
});

describe('filters', () => {
  test('one halo for all axes and one task per block; each task reads at most 3^ndim blocks', () => {
    const x = input([20, 20], 'float64').rechunk(5);
    const deps = (y: LazyArray) => {
      const table = materializeTasks([y.layer]);
      const byOp = new Map<string, number[]>();
      for (let t = 0; t < table.count; t++) {
        const op = table.layers[table.layerOf[t]!]!.op;
        byOp.set(op, [...(byOp.get(op) ?? []), table.depCount[t]!]);
      }
      return byOp;
    };
    const reflect = deps(gaussianFilter(x, 1));
    expect(reflect.get('overlap')!.length).toBe(16);
    expect(Math.max(...reflect.get('overlap')!)).toBe(9);
    expect(reflect.get('gaussianFilter')!.length).toBe(16);
    // a constant boundary pads each pass's input, as scipy does: one overlap per axis
    const constant = deps(gaussianFilter(x, 1, { mode: 'constant', cval: 2 }));
    expect(constant.get('overlap')!.length).toBe(32);
    expect(Math.max(...constant.get('overlap')!)).toBe(3);
    expect(constant.get('gaussianFilter')!.length).toBe(32);
  });

  test('size 1 and sigma 0 leave the array alone', () => {
    const x = input([4, 4], 'float64');
    expect(uniformFilter(x, 1)).toBe(x);
    expect(gaussianFilter(x, 0)).toBe(x);
  });

  test.each([
    [() => uniformFilter(input([5], 'float64'), 0), 'ValueError', ['uniformFilter:', 'size 0']],
    [
      () => uniformFilter(input([5, 5], 'float64'), [2]),
      'ValueError',
      ['uniformFilter:', 'one per axis (2)'],
    ],
    [
      () => uniformFilter(input([5], 'float64'), 3, { mode: 'bogus' as FilterMode }),
      'ValueError',
      ['uniformFilter:', "mode 'bogus'"],
    ],
    [
      () => gaussianFilter(input([5], 'float64'), -1),
      'ValueError',
      ['gaussianFilter:', 'sigma -1'],
    ],
    [
      () => gaussianFilter(input([5], 'float64'), 3),
      'ValueError',
      ['gaussianFilter:', 'depth (12, 12)', 'larger than the axis (5)'],
    ],
    [
      () => gaussianFilter(fromArray(new Uint8Array([1, 0]), { dtype: 'bool' }), 1),
      'DTypeError',
      ['gaussianFilter:', "'bool'"],
    ],
  ])('error %#', (f, tag, fragments) => expectThrow(f, tag, fragments));
});
