// matmul, tensordot, einsum and vecdot on complex64 and complex128 arrays (with complex,
// real and mixed-precision operands) against a dense complex einsum reference, over random
// shapes and chunkings (contraction trees included); cpu-blas and cpu-wasm decline complex.

import { describe, expect, it } from 'vitest';
import { type DType, promoteTypes } from '../../src/array/dtype.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { ndarray } from '../../src/array/ndarray.ts';
import { canRun as blasCanRun } from '../../src/backends/cpu-blas/support.ts';
import { canRun as wasmCanRun } from '../../src/backends/cpu-wasm/support.ts';
import type { OpMeta } from '../../src/dispatch/types.ts';
import * as T from '../../src/index.ts';
import {
  CDTYPES,
  type CDType,
  expectComplex,
  lazy,
  type Parts,
  randomParts,
  SYNC,
} from '../helpers/complex-ref.ts';
import { randomAxisChunks, rng } from '../helpers/reference.ts';

const { compute, fromArray } = T;

/** An operand: complex of dtype d, or real (im all 0) of a real dtype. */
interface Operand {
  p: Parts;
  dtype: DType;
}

function operand(shape: number[], dtype: DType, r: () => number): Operand {
  const p = randomParts(shape, r, dtype === 'complex64' ? 'complex64' : 'complex128');
  if (dtype === 'int32') p.re = p.re.map((v) => Math.round(v * 4));
  if (dtype === 'complex64' || dtype === 'complex128') return { p, dtype };
  return { p: { ...p, im: p.im.map(() => 0) }, dtype };
}

function toLazy(o: Operand, r: () => number): LazyArray {
  if (o.dtype === 'complex64' || o.dtype === 'complex128') return lazy(o.p, o.dtype, r);
  return fromArray(ndarray(o.p.re, o.p.shape, o.dtype), {
    chunks: o.p.shape.map((n) => randomAxisChunks(n, r)),
  });
}

/** Dense complex einsum ('ij,jk->ik'; explicit output) of operands' parts, in float64. */
function refEinsum(spec: string, ops: Parts[]): Parts {
  const [lhs, out] = spec.split('->') as [string, string];
  const terms = lhs.split(',');
  const size = new Map<string, number>();
  terms.forEach((t, i) => {
    for (let ax = 0; ax < t.length; ax++) size.set(t[ax]!, ops[i]!.shape[ax]!);
  });
  const letters = [...new Set([...out, ...terms.join('')])];
  const dims = letters.map((l) => size.get(l)!);
  const outShape = [...out].map((l) => size.get(l)!);
  const n = outShape.reduce((a, b) => a * b, 1);
  const re = new Array<number>(n).fill(0);
  const im = new Array<number>(n).fill(0);
  const flat = (term: string, shape: number[], idx: Map<string, number>) =>
    [...term].reduce((o, l, ax) => o * shape[ax]! + idx.get(l)!, 0);
  const total = dims.reduce((a, b) => a * b, 1);
  for (let i = 0; i < total; i++) {
    const idx = new Map<string, number>();
    let rest = i;
    for (let k = letters.length - 1; k >= 0; k--) {
      idx.set(letters[k]!, rest % dims[k]!);
      rest = Math.floor(rest / dims[k]!);
    }
    let a = 1;
    let b = 0;
    terms.forEach((t, j) => {
      const o = flat(t, ops[j]!.shape, idx);
      const c = ops[j]!.re[o]!;
      const d = ops[j]!.im[o]!;
      [a, b] = [a * c - b * d, a * d + b * c];
    });
    const o = flat(out, outShape, idx);
    re[o]! += a;
    im[o]! += b;
  }
  return { shape: outShape, re, im };
}

const conjParts = (p: Parts): Parts => ({ ...p, im: p.im.map((v) => -v) });
const tol = (d: DType) => (d === 'complex64' ? 2e-6 : 1e-12);

/** The operand dtypes of a trial: both complex d, mixed precisions, or one real. */
function dtypesFor(d: CDType, t: number): [DType, DType] {
  const other: CDType = d === 'complex64' ? 'complex128' : 'complex64';
  const real = d === 'complex64' ? 'float32' : 'float64';
  return (
    [
      [d, d],
      [d, real],
      ['int32', d],
      [d, other],
    ] as [DType, DType][]
  )[t % 4]!;
}

const resultOf = (a: DType, b: DType) => promoteTypes(a, b) as CDType;
const dim = (r: () => number, max = 5) => 1 + Math.floor(r() * max);

describe.each(CDTYPES)('%s matrix products', (d) => {
  const seed = d === 'complex64' ? 1 : 2;

  it('matmul: matrices, stacks and vectors; long contractions (partial sums)', async () => {
    const r = rng(seed);
    for (let t = 0; t < 16; t++) {
      const [da, db] = dtypesFor(d, t);
      const [m, k, n] = [dim(r), t % 3 === 0 ? 8 + dim(r, 9) : dim(r), dim(r)];
      const kind = t % 4;
      const [sa, sb, spec] =
        kind === 0
          ? [[m, k], [k, n], 'ik,kj->ij']
          : kind === 1
            ? [[2, m, k], [k, n], 'bik,kj->bij']
            : kind === 2
              ? [[k], [k, n], 'k,kj->j']
              : [[m, k], [k], 'ik,k->i'];
      const a = operand(sa, da, r);
      const b = operand(sb, db, r);
      const got = await compute(T.matmul(toLazy(a, r), toLazy(b, r)), SYNC);
      const want = refEinsum(spec, [a.p, b.p]);
      expectComplex(got, resultOf(da, db), want, tol(resultOf(da, db)));
    }
  });

  it('matmul of transposed and sliced operands (blocks read through windows)', async () => {
    const r = rng(seed + 10);
    for (let t = 0; t < 8; t++) {
      const [da, db] = dtypesFor(d, t);
      const [m, k, n] = [dim(r), 2 + dim(r, 8), dim(r)];
      const a = operand([k, m], da, r);
      const b = operand([k + 2, n], db, r);
      const bs: Parts = {
        shape: [k, n],
        re: b.p.re.slice(n, n + k * n),
        im: b.p.im.slice(n, n + k * n),
      };
      const x = T.matrixTranspose(toLazy(a, r));
      const y = toLazy(b, r).get([{ start: 1, stop: k + 1 }]);
      const got = await compute(T.matmul(x, y), SYNC);
      expectComplex(got, resultOf(da, db), refEinsum('ki,kj->ij', [a.p, bs]), tol(d));
    }
  });

  it('tensordot over one and two axis pairs', async () => {
    const r = rng(seed + 20);
    for (let t = 0; t < 8; t++) {
      const [da, db] = dtypesFor(d, t);
      const [i, j, k, l] = [dim(r), dim(r), dim(r), dim(r)];
      const a = operand([i, j, k], da, r);
      if (t % 2 === 0) {
        const b = operand([j, k, l], db, r);
        const got = await compute(T.tensordot(toLazy(a, r), toLazy(b, r), { axes: 2 }), SYNC);
        expectComplex(got, resultOf(da, db), refEinsum('ijk,jkl->il', [a.p, b.p]), tol(d));
      } else {
        const b = operand([l, i], db, r);
        const got = await compute(
          T.tensordot(toLazy(a, r), toLazy(b, r), { axes: [[0], [1]] }),
          SYNC,
        );
        expectComplex(got, resultOf(da, db), refEinsum('ijk,li->jkl', [a.p, b.p]), tol(d));
      }
    }
  });

  it.each([
    'ij,jk->ik',
    'bij,bjk->bik',
    'ij,ij->i',
    'i,i->',
    'ij,kj->ikj',
    'ii->i',
    'ij->',
    'ij,jk,k->i',
  ])('einsum %s', async (spec) => {
    const r = rng(seed + spec.length * 7);
    for (let t = 0; t < 4; t++) {
      const terms = spec.split('->')[0]!.split(',');
      const size = new Map<string, number>();
      for (const l of terms.join('')) if (!size.has(l)) size.set(l, dim(r, 6));
      const dts =
        terms.length === 2
          ? dtypesFor(d, t)
          : terms.map((_, i) => (i === t % terms.length ? d : 'float64'));
      const ops = terms.map((term, i) =>
        operand(
          [...term].map((l) => size.get(l)!),
          dts[i]!,
          r,
        ),
      );
      const got = await compute(T.einsum(spec, ...ops.map((o) => toLazy(o, r))), SYNC);
      const dt = ops.map((o) => o.dtype).reduce((x, y) => promoteTypes(x, y)) as CDType;
      expectComplex(
        got,
        dt,
        refEinsum(
          spec,
          ops.map((o) => o.p),
        ),
        tol(dt),
      );
    }
  });

  it('vecdot conjugates x1 (the Array API and linalg forms)', async () => {
    const r = rng(seed + 30);
    for (let t = 0; t < 6; t++) {
      const [da, db] = dtypesFor(d, t);
      const [m, k] = [dim(r), dim(r, 7)];
      const a = operand([m, k], da, r);
      const b = operand([k], db, r);
      const want = refEinsum('ik,k->i', [conjParts(a.p), b.p]);
      const [v, lv] = await compute(
        T.vecdot(toLazy(a, r), toLazy(b, r)),
        T.linalg.vecdot(toLazy(a, r), toLazy(b, r)),
        SYNC,
      );
      expectComplex(v!, resultOf(da, db), want, tol(d));
      expectComplex(lv!, resultOf(da, db), want, tol(d));
      // along axis 0, x2 complex: x1 conjugated whatever x2 is
      const c = operand([m, k], db, r);
      const got = await compute(T.vecdot(toLazy(a, r), toLazy(c, r), { axis: 0 }), SYNC);
      expectComplex(got, resultOf(da, db), refEinsum('ik,ik->k', [conjParts(a.p), c.p]), tol(d));
    }
  });

  it('runs on worker threads', async () => {
    const r = rng(seed + 40);
    const a = operand([6, 9], d, r);
    const b = operand([9, 4], d, r);
    const got = await compute(T.matmul(toLazy(a, r), toLazy(b, r)), {
      scheduler: 'threads',
      workers: 2,
    });
    expectComplex(got, d, refEinsum('ik,kj->ij', [a.p, b.p]), tol(d));
  });
});

describe('cpu-blas and cpu-wasm decline complex products', () => {
  it.each(['matmul', 'einsum'])('%s', (op) => {
    const meta = {
      dtype: 'complex128',
      inputs: [
        { dtype: 'complex128', shape: [8, 8], chunks: [[8], [8]] },
        { dtype: 'float64', shape: [8, 8], chunks: [[8], [8]] },
      ],
      params: { terms: ['ij', 'jk'], out: 'ik', dtype: 'complex128', aVec: false, bVec: false },
      blockElements: 64,
    } as unknown as OpMeta;
    expect(typeof blasCanRun(op, meta)).toBe('string');
    expect(typeof wasmCanRun(op, meta)).toBe('string');
  });
});
