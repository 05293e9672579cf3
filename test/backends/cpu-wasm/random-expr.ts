// Random elementwise expressions over all ops, with dtypes as tessera's ops would type them,
// and random blocks (edge values included) that broadcast together: for cpu-wasm vs cpu-js.

import { allocate, type DType, resultType } from '../../../src/array/dtype.ts';
import { type NDArray, shapeSize } from '../../../src/array/ndarray.ts';
import type { Expr } from '../../../src/backends/cpu-js/elementwise/expr.ts';

/** A small deterministic PRNG (mulberry32): the tests' one. */
export { rng as prng } from '../../helpers/reference.ts';

export const BINARY = [
  'add',
  'subtract',
  'multiply',
  'divide',
  'floorDivide',
  'remainder',
  'pow',
  'maximum',
  'minimum',
  'atan2',
  'hypot',
  'copysign',
  'logaddexp',
];
export const UNARY = [
  'negative',
  'abs',
  'sign',
  'floor',
  'ceil',
  'round',
  'sqrt',
  'exp',
  'expm1',
  'log',
  'log1p',
  'sin',
  'cos',
  'tan',
  'tanh',
  'trunc',
  'sinh',
  'cosh',
  'acos',
  'asin',
  'atan',
  'acosh',
  'asinh',
  'atanh',
  'log2',
  'log10',
];
export const COMPARISONS = ['equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual'];
export const BOOLEAN = ['logicalAnd', 'logicalOr', 'logicalNot', 'isnan', 'isfinite'];
/** The elementwise ops cpu-wasm compiles (plus astype). */
export const ALL_OPS = [...BINARY, ...UNARY, ...COMPARISONS, ...BOOLEAN, 'where', 'astype'];

const EDGE = [
  Number.NaN,
  0,
  -0,
  Infinity,
  -Infinity,
  1,
  -1,
  0.5,
  -0.5,
  2.5,
  -2.5,
  1e-310,
  3.4e38,
  1e300,
  2,
];
const CONSTS = [0, -0, 1, -1, 2, 0.5, 0.1, -2.5, 3, Number.NaN, Infinity, -Infinity, 1e-40, 1e39];

interface Typed {
  readonly expr: Expr;
  readonly dtype: DType | 'weak';
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** A random expression over `inputDtypes`, its root float32 or float64. */
export function randomExpr(r: () => number, inputDtypes: readonly DType[], depth: number): Expr {
  const floatArg = (t: Typed): Typed =>
    t.dtype === 'bool'
      ? { expr: { op: 'astype', args: [t.expr], dtype: 'float32' }, dtype: 'float32' }
      : t;
  const leaf = (): Typed => {
    if (r() < 0.25) return { expr: { const: pick(r, CONSTS) }, dtype: 'weak' };
    const k = Math.floor(r() * inputDtypes.length);
    return { expr: { in: k }, dtype: inputDtypes[k]! };
  };
  const nonWeak = (d: number): Typed => {
    const t = gen(d);
    return t.dtype === 'weak' ? { expr: { in: 0 }, dtype: inputDtypes[0]! } : t;
  };
  const node = (op: string, args: Typed[], dtype: DType): Typed => ({
    expr: { op, args: args.map((a) => a.expr), dtype },
    dtype,
  });
  const promoted = (args: Typed[]): DType =>
    resultType(...args.map((a) => (a.dtype === 'weak' ? 0.5 : a.dtype)));
  const gen = (d: number): Typed => {
    if (d <= 0 || r() < 0.2) return leaf();
    const kind = r();
    if (kind < 0.3) {
      const a = floatArg(nonWeak(d - 1));
      const b = floatArg(gen(d - 1));
      const args = r() < 0.5 ? [a, b] : [b, a];
      const op = pick(r, BINARY);
      // cpu-wasm takes copysign of an input's or a constant's sign only (support.ts: a NaN
      // computed in WebAssembly and one computed in JavaScript carry different sign bits)
      if (op === 'copysign' && !('in' in args[1]!.expr || 'const' in args[1]!.expr)) {
        args[1] = floatArg(leaf());
      }
      return node(op, args, promoted(args));
    }
    if (kind < 0.55) {
      const a = floatArg(nonWeak(d - 1));
      return node(pick(r, UNARY), [a], promoted([a]));
    }
    if (kind < 0.7) return node(pick(r, COMPARISONS), [nonWeak(d - 1), gen(d - 1)], 'bool');
    if (kind < 0.8) {
      const op = pick(r, BOOLEAN);
      const args =
        op === 'logicalAnd' || op === 'logicalOr' ? [nonWeak(d - 1), gen(d - 1)] : [nonWeak(d - 1)];
      return node(op, args, 'bool');
    }
    if (kind < 0.9) {
      const y = floatArg(nonWeak(d - 1));
      const z = floatArg(gen(d - 1));
      return node('where', [gen(d - 1), y, z], promoted([y, z]));
    }
    return node('astype', [nonWeak(d - 1)], pick(r, ['float32', 'float64', 'bool'] as DType[]));
  };
  const root = floatArg(nonWeak(depth));
  return root.expr;
}

/** Values: edge cases, integers, halves and wide-ranging floats. */
export function fillRandom(r: () => number, dtype: DType, n: number): NDArray['data'] {
  const data = allocate(dtype, n);
  for (let i = 0; i < n; i++) {
    const u = r();
    data[i] =
      u < 0.15
        ? pick(r, EDGE)
        : u < 0.4
          ? Math.round((r() - 0.5) * 20) / 2
          : (r() - 0.5) * 10 ** (r() * 8 - 3);
  }
  return data;
}

/** An output shape and input shapes that broadcast to it (unit axes, dropped axes, scalars). */
export function randomShapes(r: () => number, count: number): { out: number[]; ins: number[][] } {
  const nd = 1 + Math.floor(r() * 3);
  const big = r() < 0.3;
  const out = Array.from({ length: nd }, (_, ax) =>
    ax === nd - 1 && (big || r() < 0.3)
      ? 250 + Math.floor(r() * (big ? 5000 : 300))
      : 1 + Math.floor(r() * 6),
  );
  const ins = Array.from({ length: count }, (_, k) => {
    if (k === 0 || r() < 0.4) return [...out];
    if (r() < 0.2) return [];
    const lead = Math.floor(r() * nd);
    return out.slice(lead).map((s) => (r() < 0.4 ? 1 : s));
  });
  if (shapeSize(out) === 0) return { out, ins };
  return { out, ins };
}
