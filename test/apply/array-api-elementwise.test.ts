// The Array API elementwise functions added in issue 12 against NumPy (fixtures), on random
// chunkings; against JS references on random shapes and dtypes with broadcasting; the fused
// path, cpu-wasm's agreement with cpu-js, webgpu declining untranslated ops, and bad input.

import { describe, expect, it } from 'vitest';
import { type NumberArray, typedArrayCtor } from '../../src/array/dtype.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { webgpuCanRun } from '../../src/backends/webgpu/backend.ts';
import * as tessera from '../../src/index.ts';
import {
  bitwiseAnd,
  bitwiseLeftShift,
  compute,
  conj,
  DTypeError,
  elementwise,
  fromArray,
  imag,
  logicalXor,
  mask,
  positive,
  real,
  ValueError,
} from '../../src/index.ts';
import { expectArray, randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';
import { decode, FIXTURES, type FixtureArray } from './array-api-fixtures.ts';
import { broadcastRef } from './elementwise-reference.ts';

const SYNC = { scheduler: 'sync' } as const;
const fns = tessera as unknown as Record<string, (...a: unknown[]) => LazyArray>;

function lazy(a: FixtureArray, r: () => number): LazyArray {
  const data = new (typedArrayCtor(a.dtype))(a.data.length);
  (data as NumberArray).set(a.data);
  return fromArray(new NDArray(data, a.shape, a.dtype), {
    chunks: a.shape.map((n) => randomAxisChunks(n, r)),
  });
}

const EXACT = new Set([
  'trunc',
  'square',
  'signbit',
  'isinf',
  'copysign',
  'nextafter',
  'reciprocal',
]);

describe('against NumPy', () => {
  const cases = FIXTURES.ew as { op: string; args: never[]; out: never }[];
  it.each(cases.map((c, i) => [`${c.op} ${decode(c.args[0]!).dtype}`, i] as const))(
    '%s',
    async (_label, i) => {
      const c = cases[i]!;
      const r = rng(i + 1);
      const args = c.args.map((a) => lazy(decode(a), r));
      const out = decode(c.out);
      const got = await compute(fns[c.op]!(...args), SYNC);
      const f32 = out.dtype === 'float32';
      const tol = EXACT.has(c.op) || !out.dtype.startsWith('float') ? 0 : f32 ? 3e-7 : 1e-14;
      expectArray(got, out, tol);
      if (EXACT.has(c.op)) {
        // -0 and +0 apart where NumPy keeps them apart
        for (let k = 0; k < got.data.length; k++) {
          expect(Object.is(got.data[k], out.data[k]), `element ${k}`).toBe(true);
        }
      }
    },
  );
});

describe('random shapes, dtypes and broadcasting (JS references)', () => {
  const UNARY: Record<string, (v: number) => number> = {
    acos: Math.acos,
    asinh: Math.asinh,
    cosh: Math.cosh,
    log10: Math.log10,
    trunc: Math.trunc,
    reciprocal: (v) => 1 / v,
  };
  it.each(['float64', 'float32', 'int16', 'uint8'] as const)('unary ops on %s', async (d) => {
    const r = rng(d.length);
    for (const [op, f] of Object.entries(UNARY)) {
      const shape = [1 + Math.floor(r() * 9), 1 + Math.floor(r() * 7)];
      const x = randomDense(shape, d, Math.floor(r() * 1000));
      const a = fromArray(x, { chunks: shape.map((n) => randomAxisChunks(n, r)) });
      const got = await compute(fns[op]!(a), SYNC);
      const outD = op === 'trunc' ? d : d === 'float32' ? 'float32' : 'float64';
      const want = Array.from(x.data as NumberArray, (v) =>
        outD === 'float32' ? Math.fround(f(v)) : f(v),
      );
      expectArray(got, {
        dtype: outD,
        shape,
        data: outD === d && op === 'trunc' ? Array.from(x.data as NumberArray, f) : want,
      });
    }
  });

  it('binary ops broadcast [n, 1] with [m] and take weak scalars', async () => {
    const r = rng(5);
    const x = randomDense([5, 1], 'float32', 3);
    const y = randomDense([4], 'float32', 4);
    const ax = fromArray(x, { chunks: [randomAxisChunks(5, r), [1]] });
    const ay = fromArray(y, { chunks: [randomAxisChunks(4, r)] });
    const got = await compute(tessera.hypot(ax, ay), SYNC);
    const want = broadcastRef([x, y], (a, b) => Math.fround(Math.hypot(a, b)));
    expectArray(got, { dtype: 'float32', ...want }, 0);
    const withScalar = await compute(tessera.atan2(ax, 0.5), SYNC);
    expectArray(withScalar, {
      dtype: 'float32',
      shape: [5, 1],
      data: Array.from(x.data as NumberArray, (v) => Math.fround(Math.atan2(v, Math.fround(0.5)))),
    });
  });

  it('bitwise ops on bool and mixed integer dtypes', async () => {
    const b = fromArray(new Uint8Array([1, 0, 1, 0]), { dtype: 'bool', chunks: 3 });
    const c = fromArray(new Uint8Array([1, 1, 0, 0]), { dtype: 'bool' });
    expectArray(await compute(tessera.bitwiseXor(b, c), SYNC), {
      dtype: 'bool',
      shape: [4],
      data: [0, 1, 1, 0],
    });
    expectArray(await compute(tessera.bitwiseInvert(b), SYNC), {
      dtype: 'bool',
      shape: [4],
      data: [0, 1, 0, 1],
    });
    const i8 = fromArray(new Int8Array([-1, 5, 127]));
    const u16 = fromArray(new Uint16Array([1, 3, 65535]));
    expectArray(await compute(tessera.bitwiseOr(i8, u16), SYNC), {
      dtype: 'int32',
      shape: [3],
      data: [-1, 7, 65535],
    });
    expectArray(await compute(logicalXor(i8, 0), SYNC), {
      dtype: 'bool',
      shape: [3],
      data: [1, 1, 1],
    });
  });

  it('conj and real are x itself, imag zeros, also for unknown sizes', async () => {
    const x = fromArray([1.5, -2, 3], { chunks: 2 });
    expect(real(x)).toBe(x);
    expect(conj(x)).toBe(x);
    expectArray(await compute(imag(x), SYNC), { dtype: 'float64', shape: [3], data: [0, 0, 0] });
    const m = mask(x, tessera.greater(x, 0));
    const im = imag(m);
    expect(im.shape).toEqual([null]);
    expectArray(await compute(im, SYNC), { shape: [2], data: [0, 0] });
  });
});

describe('fusion and backends', () => {
  it('a chain of new ops fuses into one task per block', async () => {
    const x = fromArray(
      new Float64Array(100).map((_v, i) => i / 50 - 1),
      { chunks: 25 },
    );
    const y = tessera.logaddexp(tessera.asin(x), tessera.square(x));
    const got = await compute(y, SYNC);
    const want = Array.from({ length: 100 }, (_v, i) => {
      const v = i / 50 - 1;
      const a = Math.asin(v);
      const b = v * v;
      return Math.max(a, b) + Math.log1p(Math.exp(-Math.abs(a - b)));
    });
    expectArray(got, { dtype: 'float64', shape: [100], data: want }, 1e-14);
  });

  it('the expression language has the new functions and bitwise operators', async () => {
    const i = fromArray(new Int32Array([12, -8, 7]));
    const x = fromArray([3, 0.5, -2]);
    const y = elementwise('(i & 3 | ~i) + hypot(x, 4) + trunc(x) + (i >> 1)', { inputs: { i, x } });
    const want = [12, -8, 7].map((v, k) => {
      const xv = [3, 0.5, -2][k]!;
      return ((v & 3) | ~v) + Math.hypot(xv, 4) + Math.trunc(xv) + (v >> 1);
    });
    expectArray(await compute(y, SYNC), { shape: [3], data: want });
  });

  it('cpu-wasm runs the float math it compiles and declines nextafter, saying why', async () => {
    const x = fromArray(
      new Float32Array(4096).map((_v, i) => Math.sin(i)),
      { chunks: 2048 },
    );
    const js = await compute(tessera.acosh(tessera.add(tessera.cosh(x), 1)), SYNC);
    const wasm = await compute(
      tessera.acosh(
        tessera.add(tessera.cosh(x, { backend: 'cpu-wasm' }), 1, { backend: 'cpu-wasm' }),
        { backend: 'cpu-wasm' },
      ),
      SYNC,
    );
    expect(Array.from(wasm.data as NumberArray)).toEqual(Array.from(js.data as NumberArray));
    expect(() => tessera.nextafter(x, 2, { backend: 'cpu-wasm' })).toThrow(/nextafter/);
  });

  it('webgpu declines an expression with an op WGSL lacks, and accepts its builtins', () => {
    const meta = (op: string) => ({
      op: 'ew',
      params: { expr: { op, args: [{ in: 0 }], dtype: 'float32' }, dtype: 'float32' },
      dtype: 'float32' as const,
      chunks: [[4]],
      inputs: [
        { dtype: 'float32' as const, chunks: [[4]], device: 'gpu' as const, backend: 'webgpu' },
      ],
      blockElements: 4,
    });
    expect(webgpuCanRun('ew', meta('signbit'))).toMatch(/'signbit' has no WGSL translation/);
    expect(webgpuCanRun('ew', meta('acos'))).toMatch(/'acos' has no WGSL translation accurate/);
    expect(webgpuCanRun('ew', meta('log2'))).toBe(true);
    expect(webgpuCanRun('ew', meta('trunc'))).toBe(true);
  });
});

describe('bad input fails when the graph is built', () => {
  const f = fromArray([1.5, 2]);
  it.each([
    [
      'bitwiseAnd',
      () => bitwiseAnd(f, 1),
      DTypeError,
      /^bitwiseAnd: needs integer or bool arrays, got dtype 'float64'/,
    ],
    ['bitwiseInvert', () => tessera.bitwiseInvert(f), DTypeError, /^bitwiseInvert: /],
    [
      'shift of bool',
      () => bitwiseLeftShift(fromArray([true]), fromArray([false])),
      DTypeError,
      /^bitwiseLeftShift: needs integer arrays/,
    ],
    [
      'negative shift',
      () => bitwiseLeftShift(fromArray(new Int32Array([1])), -1),
      ValueError,
      /^bitwiseLeftShift: the shift must be a non-negative integer, got -1/,
    ],
    ['positive of bool', () => positive(fromArray([true])), DTypeError, /^positive: /],
    ['real of bool', () => real(fromArray([true])), DTypeError, /^real: needs a numeric array/],
    [
      'scalar out of range',
      () => bitwiseAnd(fromArray(new Uint8Array([1])), 300),
      ValueError,
      /^bitwiseAnd: scalar 300 is out of bounds/,
    ],
  ])('%s', (_label, build, tag, message) => {
    expect(build).toThrow(tag);
    expect(build).toThrow(message);
  });
});
