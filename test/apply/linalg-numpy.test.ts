// numpy.linalg fixtures (test/fixtures/linalg-numpy.py) against linalg.*, each input on a
// random chunking (batch axes split, matrix axes too: they are made whole), float64 and float32.

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { NDArray, shapeSize } from '../../src/array/ndarray.ts';
import { type DType, fromArray, type LazyArray, linalg, shutdown } from '../../src/index.ts';
import { expectArray, randomAxisChunks, rng } from '../helpers/reference.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

type Input =
  | { kind: 'data' | 'spd'; shape: number[]; seed: number }
  | { kind: 'values'; shape: number[]; values: number[] };

interface LinalgCase {
  fn: string;
  inputs: Input[];
  args: { n?: number; ord?: number | string; axis?: number };
  out: {
    shape: number[];
    values: number[];
    values2?: number[];
    rank?: number;
    s?: number[];
    residuals?: number[];
  };
}

const fixtures = JSON.parse(
  readFileSync(new URL('../fixtures/linalg-numpy.json', import.meta.url), 'utf8'),
) as { cases: LinalgCase[] };

/** The fixture script's data: x.flat[i] = ((7 i² + 37 i + 11 seed) % 101) / 10 - 5. */
function data(shape: readonly number[], seed: number): Float64Array {
  return Float64Array.from(
    { length: shapeSize(shape) },
    (_, i) => ((i * i * 7 + i * 37 + seed * 11) % 101) / 10 - 5,
  );
}

/** a aᵀ + n I for every matrix of data(shape, seed). */
function spd(shape: readonly number[], seed: number): Float64Array {
  const a = data(shape, seed);
  const n = shape[shape.length - 1]!;
  const out = new Float64Array(a.length);
  for (let b = 0; b < a.length / (n * n); b++) {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let s = i === j ? n : 0;
        for (let k = 0; k < n; k++) s += a[b * n * n + i * n + k]! * a[b * n * n + j * n + k]!;
        out[b * n * n + i * n + j] = s;
      }
    }
  }
  return out;
}

function input(x: Input, dtype: DType, seed: number): LazyArray {
  const values =
    x.kind === 'values'
      ? Float64Array.from(x.values)
      : x.kind === 'spd'
        ? spd(x.shape, x.seed)
        : data(x.shape, x.seed);
  const typed = dtype === 'float32' ? Float32Array.from(values) : values;
  const r = rng(seed);
  const chunks = x.shape.map((n) => randomAxisChunks(n, r));
  return fromArray(new NDArray(typed, x.shape, dtype), { chunks });
}

const ord = (o: number | string | undefined): number | 'fro' | 'nuc' | undefined =>
  o === 'inf' ? Infinity : o === '-inf' ? -Infinity : (o as number | 'fro' | 'nuc' | undefined);

/** The outputs the case checks, in the order of `values`, `values2`, … */
function run(c: LinalgCase, xs: LazyArray[]): LazyArray[] {
  const [a, b] = xs as [LazyArray, LazyArray];
  switch (c.fn) {
    case 'slogdet': {
      const { sign, logabsdet } = linalg.slogdet(a);
      return [sign, logabsdet];
    }
    case 'solve':
      return [linalg.solve(a, b)];
    case 'matrixPower':
      return [linalg.matrixPower(a, c.args.n!)];
    case 'matrixNorm':
      return [linalg.matrixNorm(a, { ord: ord(c.args.ord)! })];
    case 'vectorNorm':
      return [
        linalg.vectorNorm(a, {
          ...(c.args.ord !== undefined ? { ord: ord(c.args.ord) as number } : {}),
          ...(c.args.axis !== undefined ? { axis: c.args.axis } : {}),
        }),
      ];
    case 'qrR':
      return [linalg.qr(a).R];
    case 'eigvalsSorted':
      return [linalg.eig(a).eigenvalues];
    case 'cross':
      return [linalg.cross(a, b)];
    case 'lstsq': {
      const r = linalg.lstsq(a, b);
      return [r.x, r.rank, r.s];
    }
    default:
      return [(linalg[c.fn as 'inv'] as (x: LazyArray) => LazyArray)(a)];
  }
}

const expected = (c: LinalgCase): { shape: number[]; values: number[] }[] => {
  const o = c.out;
  if (c.fn === 'slogdet') return [o, { shape: o.shape, values: o.values2! }];
  if (c.fn === 'lstsq')
    return [o, { shape: [], values: [o.rank!] }, { shape: [o.s!.length], values: o.s! }];
  return [o];
};

/**
 * R with each row's sign matched to numpy's: QR fixes R's rows only up to sign (a single
 * block has LAPACK's, as numpy's; a TSQR tree its own).
 */
function rowSigns(r: NDArray, want: readonly number[]): NDArray {
  const [m, n] = r.shape as [number, number];
  const data = Float64Array.from(r.data as NumberArray);
  for (let i = 0; i < m; i++) {
    if (Math.sign(data[i * n + i]!) * Math.sign(want[i * n + i]!) < 0) {
      for (let j = 0; j < n; j++) data[i * n + j] = -data[i * n + j]!;
    }
  }
  return new NDArray(data, r.shape, 'float64');
}

/** Complex pairs [..., n, 2] sorted within each last-but-one axis by (re, im), as np.sort_complex. */
function sortPairs(w: NDArray): NDArray {
  const n = w.shape[w.ndim - 2]!;
  const wd = w.data as NumberArray;
  const out = new Float64Array(w.size);
  for (let b = 0; b < w.size / (2 * n); b++) {
    const pairs = Array.from(
      { length: n },
      (_, k) => [wd[2 * (b * n + k)]!, wd[2 * (b * n + k) + 1]!] as const,
    );
    const r = (v: number) => Math.round(v * 1e10) / 1e10;
    pairs.sort((p, q) => r(p[0]) - r(q[0]) || r(p[1]) - r(q[1]));
    pairs.forEach(([re, im], k) => {
      out[2 * (b * n + k)] = re;
      out[2 * (b * n + k) + 1] = im;
    });
  }
  return new NDArray(out, w.shape, 'float64');
}

describe.each(['float64', 'float32'] as const)('linalg against numpy.linalg (%s)', (dtype) => {
  // float32 inputs are computed in float64 and rounded: numpy's float32 LAPACK is the looser one
  const rtol = dtype === 'float64' ? 1e-8 : 2e-3;
  // float32: every third case (the dtype path is the same for all; keeps the file fast)
  const cases = fixtures.cases.filter(
    (c, i) => dtype === 'float64' || (c.fn !== 'matrixRank' && i % 3 === 0),
  );
  test.each(
    cases.map(
      (c, i) =>
        [
          `${c.fn} ${JSON.stringify(c.args)} ${c.inputs.map((x) => x.shape.join('x')).join(' ')}`,
          c,
          i,
        ] as const,
    ),
  )('%s', async (_, c, i) => {
    const outs = run(
      c,
      c.inputs.map((x, k) => input(x, dtype, 100 * i + k)),
    );
    const want = expected(c);
    for (const [k, y] of outs.entries()) {
      const got = await y.compute(SYNC);
      const w = want[k]!;
      const checked =
        c.fn === 'qrR' ? rowSigns(got, w.values) : c.fn === 'eigvalsSorted' ? sortPairs(got) : got;
      expectArray(checked, { shape: w.shape, data: w.values }, rtol);
      if (k === 0 && !['matrixRank', 'lstsq'].includes(c.fn)) expect(got.dtype).toBe(dtype);
    }
  });
});
