// complex64 and complex128 arrays against a dense JS reference: elementwise ops, promotion,
// casts, sum/prod/mean, every movement kernel the complex gate admits (each compared with the
// same operation on the real and imaginary parts as float64 arrays), .npy, and the build-time
// refusal of functions without a complex form.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DType } from '../../src/array/dtype.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { type Complex, NDArray, ndarray } from '../../src/array/ndarray.ts';
import * as T from '../../src/index.ts';
import { randomAxisChunks, rng } from '../helpers/reference.ts';

const { compute, fromArray } = T;
const SYNC = { scheduler: 'sync' } as const;
type CDType = 'complex64' | 'complex128';
const CDTYPES: CDType[] = ['complex64', 'complex128'];

/** Flat parts of a complex array: re[i], im[i]. */
interface Parts {
  shape: number[];
  re: number[];
  im: number[];
}

const f32 = (d: DType) => d === 'complex64' || d === 'float32';
const round = (d: DType, v: number) => (f32(d) ? Math.fround(v) : v);

function randomShape(r: () => number): number[] {
  const nd = 1 + Math.floor(r() * 3);
  return Array.from({ length: nd }, () => 1 + Math.floor(r() * 5));
}

function randomParts(shape: number[], r: () => number, d: DType = 'complex128'): Parts {
  const n = shape.reduce((a, b) => a * b, 1);
  const v = () => round(d, Math.round((r() * 6 - 3) * 64) / 64);
  return { shape, re: Array.from({ length: n }, v), im: Array.from({ length: n }, v) };
}

function toNDArray(p: Parts, d: CDType): NDArray {
  const data =
    d === 'complex64' ? new Float32Array(2 * p.re.length) : new Float64Array(2 * p.re.length);
  p.re.forEach((v, i) => {
    data[2 * i] = v;
    data[2 * i + 1] = p.im[i]!;
  });
  return new NDArray(data, p.shape, d);
}

function lazy(p: Parts, d: CDType, r: () => number): LazyArray {
  return fromArray(toNDArray(p, d), { chunks: p.shape.map((n) => randomAxisChunks(n, r)) });
}

function expectClose(got: number, want: number, tol: number, what: string): void {
  if (Number.isNaN(want)) {
    expect(got, what).toBeNaN();
    return;
  }
  if (!Number.isFinite(want)) {
    expect(got, what).toBe(want);
    return;
  }
  expect(Math.abs(got - want), `${what}: ${got} vs ${want}`).toBeLessThanOrEqual(
    tol * Math.max(1, Math.abs(want)),
  );
}

/** `got` (complex NDArray) against parts. */
function expectComplex(
  got: NDArray,
  d: CDType,
  want: Parts,
  tol = d === 'complex64' ? 2e-6 : 1e-12,
) {
  expect(got.dtype).toBe(d);
  expect(got.shape).toEqual(want.shape);
  expect(got.data.length).toBe(2 * want.re.length);
  for (let i = 0; i < want.re.length; i++) {
    expectClose(got.data[2 * i] as number, want.re[i]!, tol, `re[${i}]`);
    expectClose(got.data[2 * i + 1] as number, want.im[i]!, tol, `im[${i}]`);
  }
}

type C = [number, number];
const cmul = ([a, b]: C, [c, d]: C): C => [a * c - b * d, a * d + b * c];
const cdiv = ([a, b]: C, [c, d]: C): C => {
  const den = c * c + d * d;
  return [(a * c + b * d) / den, (b * c - a * d) / den];
};
const cexp = ([a, b]: C): C => [Math.exp(a) * Math.cos(b), Math.exp(a) * Math.sin(b)];
const cabs = ([a, b]: C) => Math.sqrt(a * a + b * b);

/** Reference complex functions (textbook formulas, apart from the engine's helpers). */
const UNARY: Record<string, (z: C) => C> = {
  negative: ([a, b]) => [-a, -b],
  positive: (z) => z,
  square: (z) => cmul(z, z),
  reciprocal: (z) => cdiv([1, 0], z),
  conj: ([a, b]) => [a, -b],
  exp: cexp,
  log: ([a, b]) => [Math.log(cabs([a, b])), Math.atan2(b, a)],
  sqrt: ([a, b]) => {
    const r = Math.sqrt(cabs([a, b]));
    const t = Math.atan2(b, a) / 2;
    return [r * Math.cos(t), r * Math.sin(t)];
  },
  sin: ([a, b]) => [Math.sin(a) * Math.cosh(b), Math.cos(a) * Math.sinh(b)],
  cos: ([a, b]) => [Math.cos(a) * Math.cosh(b), -Math.sin(a) * Math.sinh(b)],
  tanh: ([a, b]) => {
    const e = cexp([2 * a, 2 * b]);
    return cdiv([e[0] - 1, e[1]], [e[0] + 1, e[1]]);
  },
  sign: (z) => {
    const r = cabs(z);
    return r === 0 ? [0, 0] : [z[0] / r, z[1] / r];
  },
};

const BINARY: Record<string, (x: C, y: C) => C> = {
  add: (x, y) => [x[0] + y[0], x[1] + y[1]],
  subtract: (x, y) => [x[0] - y[0], x[1] - y[1]],
  multiply: cmul,
  divide: cdiv,
};

function mapParts(p: Parts, f: (z: C, i: number) => C, d: DType): Parts {
  const re: number[] = [];
  const im: number[] = [];
  p.re.forEach((a, i) => {
    const [x, y] = f([a, p.im[i]!], i);
    re.push(round(d, x));
    im.push(round(d, y));
  });
  return { shape: p.shape, re, im };
}

const fn = (name: string) =>
  (T as unknown as Record<string, (...a: unknown[]) => LazyArray>)[name]!;

describe('complex dtypes: metadata and promotion', () => {
  it('itemsize, nbytes and storage', () => {
    const z = fromArray(new NDArray(new Float32Array(12), [2, 3], 'complex64'));
    expect(z.dtype).toBe('complex64');
    expect(z.nbytes).toBe(48);
    expect(fromArray([{ re: 1, im: 0 }]).dtype).toBe('complex128');
  });

  it.each([
    ['float32', 'complex64', 'complex64'],
    ['float64', 'complex64', 'complex128'],
    ['complex64', 'complex128', 'complex128'],
    ['int8', 'complex64', 'complex64'],
    ['int32', 'complex64', 'complex128'],
    ['int64', 'complex64', 'complex128'],
    ['uint8', 'complex128', 'complex128'],
    ['bool', 'complex64', 'complex64'],
    ['float16', 'complex64', 'complex64'],
  ] as const)('promoteTypes(%s, %s) = %s (both orders)', (a, b, want) => {
    expect(T.promoteTypes(a, b)).toBe(want);
    expect(T.promoteTypes(b, a)).toBe(want);
  });

  it('zeros, ones and full take complex dtypes (a real fill value: im 0)', async () => {
    const o = T.full([3, 4], 2, { dtype: 'complex64', chunks: 2 });
    const [z, f, p, m] = await compute(
      T.zeros([2], { dtype: 'complex128' }),
      o,
      T.prod(o, { axis: 1 }),
      T.mean(T.add(T.ones([5], { dtype: 'complex64', chunks: 2 }), 1)),
      SYNC,
    );
    expect(z!.toNested()).toEqual([
      { re: 0, im: 0 },
      { re: 0, im: 0 },
    ]);
    expect(f!.dtype).toBe('complex64');
    expect(f!.get(2, 3)).toEqual({ re: 2, im: 0 });
    expect(p!.toNested()).toEqual([16, 16, 16].map((re) => ({ re, im: 0 })));
    expect(m!.item()).toEqual({ re: 2, im: 0 });
  });

  it('isdtype, finfo and canCast know complex dtypes', () => {
    expect(T.isdtype('complex64', 'complex floating')).toBe(true);
    expect(T.isdtype('complex128', 'numeric')).toBe(true);
    expect(T.isdtype('float64', 'complex floating')).toBe(false);
    expect(T.finfo('complex64').dtype).toBe('float32');
    expect(T.finfo('complex128').eps).toBe(2 ** -52);
    expect(T.canCast('float32', 'complex64')).toBe(true);
    expect(T.canCast('complex64', 'float64')).toBe(false);
  });

  it('JS numbers are weak', () => {
    expect(T.resultType('complex64', 2.5)).toBe('complex64');
    expect(T.resultType('complex64', 3)).toBe('complex64');
  });

  it('NDArray reads elements as { re, im }', () => {
    const a = ndarray([
      [
        { re: 1, im: 2 },
        { re: 3, im: -4 },
      ],
    ]);
    expect(a.dtype).toBe('complex128');
    expect(a.shape).toEqual([1, 2]);
    expect(a.size).toBe(2);
    expect(a.data.length).toBe(4);
    expect(a.get(0, 1)).toEqual({ re: 3, im: -4 });
    expect(a.get(0, -2)).toEqual({ re: 1, im: 2 });
    expect(a.toNested()).toEqual([
      [
        { re: 1, im: 2 },
        { re: 3, im: -4 },
      ],
    ]);
    expect(ndarray([{ re: 5, im: 6 }]).toArray()).toEqual([5, 6]);
    const one = ndarray(Float32Array.of(1.5, -2), [], 'complex64');
    expect(one.item()).toEqual({ re: 1.5, im: -2 });
    // numbers among complex values are (x, 0); a dtype casts the nested data
    expect(ndarray([1, { re: 0, im: 1 }]).toNested()).toEqual([
      { re: 1, im: 0 },
      { re: 0, im: 1 },
    ]);
    expect(ndarray([2, 3], undefined, 'complex64').toNested()).toEqual([
      { re: 2, im: 0 },
      { re: 3, im: 0 },
    ]);
    expect(() => new NDArray(new Float64Array(3), [2], 'complex128')).toThrow(T.ShapeError);
  });
});

describe.each(CDTYPES)('%s elementwise against a dense reference', (d) => {
  it.each(Object.keys(UNARY))('%s', async (op) => {
    const r = rng(op.length * 97 + (d === 'complex64' ? 1 : 2));
    for (let t = 0; t < 4; t++) {
      const p = randomParts(randomShape(r), r, d);
      if (op === 'reciprocal' || op === 'log') p.re[0] = p.re[0] === 0 ? 0.5 : p.re[0]!;
      const got = await compute(fn(op)(lazy(p, d, r)), SYNC);
      const tol = d === 'complex64' ? 1e-5 : 1e-12;
      expectComplex(got, d, mapParts(p, UNARY[op]!, 'complex128'), tol);
    }
  });

  it.each(Object.keys(BINARY))('%s with complex, real-array and scalar operands', async (op) => {
    const r = rng(op.length * 31 + (d === 'complex64' ? 3 : 4));
    const tol = d === 'complex64' ? 1e-5 : 1e-12;
    for (let t = 0; t < 3; t++) {
      const shape = randomShape(r);
      const x = randomParts(shape, r, d);
      const y = randomParts(shape, r, d);
      if (op === 'divide') y.re = y.re.map((v) => (v === 0 ? 0.25 : v));
      const f = BINARY[op]!;
      const zz = await compute(fn(op)(lazy(x, d, r), lazy(y, d, r)), SYNC);
      expectComplex(
        zz,
        d,
        mapParts(x, (z, i) => f(z, [y.re[i]!, y.im[i]!]), 'complex128'),
        tol,
      );
      // a float32 array with complex64 stays complex64; float64 widens it to complex128
      const realD = d === 'complex64' ? 'float32' : 'float64';
      const ys = fromArray(ndarray(y.re, shape, realD), { chunks: 2 });
      const zr = await compute(fn(op)(lazy(x, d, r), ys), SYNC);
      expectComplex(
        zr,
        d,
        mapParts(x, (z, i) => f(z, [y.re[i]!, 0]), 'complex128'),
        tol,
      );
      const zs = await compute(fn(op)(2.5, lazy(x, d, r)), SYNC);
      if (op !== 'divide' || x.re.every((v, i) => v !== 0 || x.im[i] !== 0)) {
        expectComplex(
          zs,
          d,
          mapParts(x, (z) => f([2.5, 0], z), 'complex128'),
          tol,
        );
      }
    }
  });

  it('broadcasts complex against real arrays of another shape', async () => {
    const r = rng(7);
    const x = randomParts([3, 4], r, d);
    const row = [1, -2, 0.5, 4];
    const got = await compute(T.multiply(lazy(x, d, r), fromArray(row, { chunks: 3 })), SYNC);
    const want = mapParts(x, (z, i) => cmul(z, [row[i % 4]!, 0]), 'complex128');
    expectComplex(got, T.promoteTypes(d, 'float64') as CDType, want);
  });

  it('abs, real and imag give the float dtype of the parts', async () => {
    const r = rng(11);
    const p = randomParts([4, 5], r, d);
    const fd = d === 'complex64' ? 'float32' : 'float64';
    const z = lazy(p, d, r);
    const [a, re, im] = await compute(T.abs(z), T.real(z), T.imag(z), SYNC);
    expect([a!.dtype, re!.dtype, im!.dtype]).toEqual([fd, fd, fd]);
    p.re.forEach((v, i) => {
      expect(a!.data[i]).toBeCloseTo(round(fd, Math.hypot(v, p.im[i]!)), 5);
      expect(re!.data[i]).toBe(v);
      expect(im!.data[i]).toBe(p.im[i]);
    });
  });

  it('equal, notEqual, isnan, isfinite, isinf and where', async () => {
    const r = rng(13);
    const p = randomParts([6], r, d);
    const q = { ...p, im: p.im.map((v, i) => (i % 2 === 0 ? v : v + 1)) };
    p.re[1] = Number.NaN;
    p.im[2] = Number.POSITIVE_INFINITY;
    const x = lazy(p, d, r);
    const y = lazy(q, d, r);
    const [eq, ne, nan, fin, inf, w] = await compute(
      T.equal(x, y),
      T.notEqual(x, y),
      T.isnan(x),
      T.isfinite(x),
      T.isinf(x),
      T.where(T.isfinite(x), x, 0),
      SYNC,
    );
    for (let i = 0; i < 6; i++) {
      const same = p.re[i] === q.re[i] && p.im[i] === q.im[i];
      expect(eq!.data[i]).toBe(same ? 1 : 0);
      expect(ne!.data[i]).toBe(same ? 0 : 1);
      expect(nan!.data[i]).toBe(i === 1 ? 1 : 0);
      expect(inf!.data[i]).toBe(i === 2 ? 1 : 0);
      expect(fin!.data[i]).toBe(i === 1 || i === 2 ? 0 : 1);
      const keep = i !== 1 && i !== 2;
      expect(w!.get(i)).toEqual(keep ? { re: p.re[i], im: p.im[i] } : { re: 0, im: 0 });
    }
    expect(eq!.dtype).toBe('bool');
  });

  it('a fused chain (complex and real nodes) matches the reference', async () => {
    const r = rng(17);
    const p = randomParts([5, 4], r, d);
    const z = lazy(p, d, r);
    const chain = T.add(T.abs(T.multiply(T.add(z, 1), T.conj(z))), 0.5);
    const got = await compute(chain, SYNC);
    p.re.forEach((a, i) => {
      const v = cabs(cmul([a + 1, p.im[i]!], [a, -p.im[i]!])) + 0.5;
      expect(got.data[i]).toBeCloseTo(v, d === 'complex64' ? 4 : 10);
    });
  });

  it('astype: real to complex (im 0), complex to complex, complex to real refused', async () => {
    const r = rng(19);
    const p = randomParts([3, 3], r, d);
    const reals = fromArray(ndarray(p.re, [3, 3], 'float64'), { chunks: 2 });
    const got = await compute(T.astype(reals, d), SYNC);
    expectComplex(got, d, { shape: [3, 3], re: p.re, im: p.re.map(() => 0) });
    const ints = await compute(T.astype(fromArray(ndarray([1, -2], [2], 'int32')), d), SYNC);
    expect(ints.toNested()).toEqual([
      { re: 1, im: 0 },
      { re: -2, im: 0 },
    ]);
    const other: CDType = d === 'complex64' ? 'complex128' : 'complex64';
    const c = await compute(T.astype(lazy(p, d, r), other), SYNC);
    expectComplex(
      c,
      other,
      mapParts(p, (z) => z, other),
      1e-6,
    );
    expect(() => T.astype(lazy(p, d, r), 'float64')).toThrow(/^astype: casting/);
  });
});

describe.each(CDTYPES)('%s reductions', (d) => {
  it.each(['sum', 'prod', 'mean'])('%s over random axes and chunkings', async (op) => {
    const r = rng(op.length * 5 + (d === 'complex64' ? 1 : 0));
    for (let t = 0; t < 5; t++) {
      const shape = randomShape(r);
      const p = randomParts(shape, r, d);
      if (op === 'prod') {
        p.re = p.re.map((v) => v / 3);
        p.im = p.im.map((v) => v / 3);
      }
      const nd = shape.length;
      const axis = t === 0 ? undefined : Math.floor(r() * nd);
      const got = await compute(fn(op)(lazy(p, d, r), { axis, splitEvery: 2 }), SYNC);
      // reference: fold over the reduced axis in C order
      const outShape = axis === undefined ? [] : shape.filter((_, ax) => ax !== axis);
      const n = outShape.reduce((a, b) => a * b, 1);
      const acc: C[] = Array.from({ length: n }, () => (op === 'prod' ? [1, 0] : [0, 0]));
      const strides = shape.map((_, ax) => shape.slice(ax + 1).reduce((a, b) => a * b, 1));
      for (let i = 0; i < p.re.length; i++) {
        const idx = shape.map((s, ax) => Math.floor(i / strides[ax]!) % s);
        const keep = idx.filter((_, ax) => axis !== undefined && ax !== axis);
        let o = 0;
        for (let k = 0; k < keep.length; k++) o = o * outShape[k]! + keep[k]!;
        const z: C = [p.re[i]!, p.im[i]!];
        acc[o] = op === 'prod' ? cmul(acc[o]!, z) : [acc[o]![0] + z[0], acc[o]![1] + z[1]];
      }
      const count = axis === undefined ? p.re.length : shape[axis]!;
      const want = {
        shape: outShape,
        re: acc.map((c) => (op === 'mean' ? c[0] / count : c[0])),
        im: acc.map((c) => (op === 'mean' ? c[1] / count : c[1])),
      };
      expectComplex(got, d, want, d === 'complex64' ? 1e-5 : 1e-11);
    }
  });
});

/** `f` on complex `p` against `f` on its parts as float64 arrays of the same chunks. */
async function checkMovement(
  d: CDType,
  seed: number,
  f: (x: LazyArray, shape: number[], r: () => number) => LazyArray,
  minNd = 1,
): Promise<void> {
  const r = rng(seed);
  for (let t = 0; t < 6; t++) {
    const shape = randomShape(r);
    while (shape.length < minNd) shape.push(1 + Math.floor(r() * 4));
    const p = randomParts(shape, r, d);
    const chunks = shape.map((n) => randomAxisChunks(n, r));
    const z = fromArray(toNDArray(p, d), { chunks });
    const re = fromArray(ndarray(p.re, shape, 'float64'), { chunks });
    const im = fromArray(ndarray(p.im, shape, 'float64'), { chunks });
    const s1 = r();
    const pick = () => {
      let u = s1;
      return () => {
        u = (u * 9301 + 49297) % 233280;
        return u / 233280;
      };
    };
    const [got, wr, wi] = await compute(
      f(z, shape, pick()),
      f(re, shape, pick()),
      f(im, shape, pick()),
      SYNC,
    );
    expectComplex(got!, d, { shape: wr!.shape, re: wr!.toArray(), im: wi!.toArray() }, 0);
  }
}

describe.each(CDTYPES)('%s movement against the same movement of the parts', (d) => {
  const seed = d === 'complex64' ? 100 : 200;
  it('slicing with steps (slice, getitem)', () =>
    checkMovement(d, seed + 1, (x, shape) =>
      x.get(shape.map((n) => ({ start: n > 2 ? 1 : 0, step: 2 }))),
    ));
  it('reversed slices and integer indices', () =>
    checkMovement(d, seed + 2, (x, shape) =>
      x.get([0, ...shape.slice(1).map(() => ({ step: -1 }))]),
    ));
  it('rechunk (merge and split)', () =>
    checkMovement(d, seed + 3, (x, shape, r) =>
      T.rechunk(
        x,
        shape.map((n) => randomAxisChunks(n, r)),
      ),
    ));
  it('transpose', () =>
    checkMovement(d, seed + 4, (x) => T.permuteDims(x, [...x.shape.keys()].reverse() as number[])));
  it('moveaxis', () => checkMovement(d, seed + 5, (x) => T.moveaxis(x, 0, -1), 2));
  it('reshape', () =>
    checkMovement(d, seed + 6, (x, shape) => T.reshape(x, [shape.reduce((a, b) => a * b, 1)])));
  it('expandDims and squeeze', () =>
    checkMovement(d, seed + 7, (x) => T.squeeze(T.expandDims(x, { axis: 0 }), { axis: 0 })));
  it('expandDims', () => checkMovement(d, seed + 8, (x) => T.expandDims(x, { axis: 1 })));
  it('flip', () => checkMovement(d, seed + 9, (x) => T.flip(x, { axis: 0 })));
  it('broadcastTo', () =>
    checkMovement(d, seed + 10, (x, shape) => T.broadcastTo(x, [2, ...shape])));
  it('concat and stack', () =>
    checkMovement(d, seed + 11, (x) => T.concat([x, T.flip(x, { axis: 0 }), x], { axis: 0 })));
  it('stack', () => checkMovement(d, seed + 12, (x) => T.stack([x, x], { axis: 1 })));
  it('take (fixed indices)', () =>
    checkMovement(d, seed + 13, (x, shape, r) =>
      T.take(
        x,
        Array.from({ length: 5 }, () => Math.floor(r() * shape[0]!)),
        { axis: 0 },
      ),
    ));
  it('take (lazy indices)', () =>
    checkMovement(d, seed + 14, (x, shape, r) => {
      const idx = Array.from({ length: 4 }, () => Math.floor(r() * shape[0]!));
      return T.take(x, fromArray(ndarray(idx, [4], 'int32'), { chunks: 2 }), { axis: 0 });
    }));
  it('a fused view: slice then elementwise (ew-view)', () =>
    checkMovement(d, seed + 15, (x) =>
      T.multiply(T.permuteDims(x, [...x.shape.keys()].reverse() as number[]), 2),
    ));
});

describe.each(CDTYPES)('%s fft', (d) => {
  it('fft of a complex array matches the direct DFT; ifft inverts it', async () => {
    const r = rng(d === 'complex64' ? 41 : 42);
    for (let t = 0; t < 3; t++) {
      const shape = [1 + Math.floor(r() * 3), 2 + Math.floor(r() * 9)];
      const p = randomParts(shape, r, d);
      const z = lazy(p, d, r);
      const [y, back] = await compute(T.fft.fft(z), T.fft.ifft(T.fft.fft(z)), SYNC);
      const n = shape[1]!;
      const want = mapParts(
        p,
        (_, i) => {
          const row = Math.floor(i / n);
          const k = i % n;
          const s: C = [0, 0];
          for (let j = 0; j < n; j++) {
            const w = cexp([0, (-2 * Math.PI * j * k) / n]);
            const q = cmul([p.re[row * n + j]!, p.im[row * n + j]!], w);
            s[0] += q[0];
            s[1] += q[1];
          }
          return s;
        },
        'complex128',
      );
      expectComplex(y!, d, want, d === 'complex64' ? 1e-5 : 1e-10);
      expectComplex(back!, d, p, d === 'complex64' ? 1e-5 : 1e-12);
    }
  });
});

describe('complex across threads and files', () => {
  it('computes on worker threads', async () => {
    const r = rng(3);
    const p = randomParts([40, 30], r);
    const z = lazy(p, 'complex128', r);
    const got = await compute(T.sum(T.multiply(z, z), { axis: 0 }), {
      scheduler: 'threads',
      workers: 2,
    });
    expect(got.dtype).toBe('complex128');
    const s: C = [0, 0];
    for (let i = 0; i < 40; i++) {
      const q = cmul([p.re[i * 30]!, p.im[i * 30]!], [p.re[i * 30]!, p.im[i * 30]!]);
      s[0] += q[0];
      s[1] += q[1];
    }
    expectClose(got.data[0] as number, s[0], 1e-12, 're');
    expectClose(got.data[1] as number, s[1], 1e-12, 'im');
  });

  it.each(CDTYPES)('%s round-trips through .npy', async (d) => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-complex-'));
    try {
      const r = rng(5);
      const p = randomParts([7, 5], r, d);
      await T.toNpy(lazy(p, d, r), join(dir, 'z.npy'));
      const back = T.fromNpy(join(dir, 'z.npy'), { chunks: [3, 2] });
      expect(back.dtype).toBe(d);
      expectComplex(await compute(back, SYNC), d, p, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('functions without a complex form refuse it at build time', () => {
  const z = fromArray([{ re: 1, im: 2 } as Complex, { re: 3, im: 4 }], { chunks: 1 });
  it.each([
    ['floor', () => T.floor(z)],
    ['less', () => T.less(z, z)],
    ['maximum', () => T.maximum(z, 1)],
    ['pow', () => T.pow(z, 2)],
    ['max', () => T.max(z)],
    ['argmax', () => T.argmax(z)],
    ['cumsum', () => T.cumsum(z)],
    ['sort', () => T.sort(z)],
    ['clip', () => T.clip(z, 0, 1)],
    ['astype', () => T.astype(z, 'float32')],
  ])('%s', (name, build) => {
    let err: unknown;
    try {
      build();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(T.DTypeError);
    expect((err as Error).message.startsWith(`${name}:`)).toBe(true);
  });
});
