// Dense references for elementwise tests: NumPy semantics per element, written independently
// of the kernel (integers through BigInt, half-even rounding by floor), plus n-d broadcasting.

import { type DType, kindOf, type TypedArray } from '../../src/array/dtype.ts';
import { cStrides, shapeSize } from '../../src/array/ndarray.ts';

const BITS: Partial<Record<DType, number>> = {
  int8: 8,
  int16: 16,
  int32: 32,
  uint8: 8,
  uint16: 16,
  uint32: 32,
};

/** `x` wrapped to the width of integer dtype `d`. */
export function wrapBig(x: bigint, d: DType): number {
  const bits = BITS[d]!;
  return Number(d.startsWith('u') ? BigInt.asUintN(bits, x) : BigInt.asIntN(bits, x));
}

/** How a value converts to dtype `d` (C casts: truncate toward zero, then wrap). */
export function castRef(v: number, d: DType): number {
  if (d === 'bool') return v !== 0 ? 1 : 0;
  if (d === 'float64') return v;
  if (d === 'float32') return Math.fround(v);
  if (!Number.isFinite(v)) return 0;
  return wrapBig(BigInt(Math.trunc(v)), d);
}

function floorDivBig(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function modBig(a: bigint, b: bigint): bigint {
  const r = a % b;
  return r !== 0n && r < 0n !== b < 0n ? r + b : r;
}

const INT_BINARY: Record<string, (a: bigint, b: bigint) => bigint> = {
  add: (a, b) => a + b,
  subtract: (a, b) => a - b,
  multiply: (a, b) => a * b,
  floorDivide: (a, b) => (b === 0n ? 0n : floorDivBig(a, b)),
  remainder: (a, b) => (b === 0n ? 0n : modBig(a, b)),
  pow: (a, b) => (b < 0n ? (a === 1n ? 1n : a === -1n ? (b % 2n === 0n ? 1n : -1n) : 0n) : a ** b),
  // biome-ignore lint/complexity/useMathMinMax: BigInt operands
  maximum: (a, b) => (a > b ? a : b),
  // biome-ignore lint/complexity/useMathMinMax: BigInt operands
  minimum: (a, b) => (a < b ? a : b),
};

const INT_UNARY: Record<string, (a: bigint) => bigint> = {
  negative: (a) => -a,
  abs: (a) => (a < 0n ? -a : a),
  sign: (a) => (a > 0n ? 1n : a < 0n ? -1n : 0n),
  floor: (a) => a,
  ceil: (a) => a,
  round: (a) => a,
};

/** Round half to even, by a different route than the kernel's. */
export function roundHalfEvenRef(x: number): number {
  if (!Number.isFinite(x)) return x;
  const f = Math.floor(x);
  const diff = x - f;
  if (diff < 0.5) return f === 0 && x < 0 ? -0 : f;
  if (diff > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

const FLOAT_OPS: Record<string, (a: number, b: number) => number> = {
  add: (a, b) => a + b,
  subtract: (a, b) => a - b,
  multiply: (a, b) => a * b,
  divide: (a, b) => a / b,
  floorDivide: (a, b) => (b === 0 ? a / b : Math.floor(a / b)),
  remainder: (a, b) => {
    if (b === 0) return Number.NaN;
    const r = a % b;
    return r !== 0 && r < 0 !== b < 0 ? r + b : r;
  },
  pow: (a, b) => a ** b,
  maximum: (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? Number.NaN : Math.max(a, b)),
  minimum: (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? Number.NaN : Math.min(a, b)),
  negative: (a) => -a,
  abs: (a) => Math.abs(a),
  sign: (a) => (Number.isNaN(a) ? a : a > 0 ? 1 : a < 0 ? -1 : 0),
  sqrt: Math.sqrt,
  exp: Math.exp,
  expm1: Math.expm1,
  log: Math.log,
  log1p: Math.log1p,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  tanh: Math.tanh,
  floor: Math.floor,
  ceil: Math.ceil,
  round: roundHalfEvenRef,
};

const BOOL_OPS: Record<string, (...v: number[]) => boolean> = {
  equal: (a, b) => a === b,
  notEqual: (a, b) => a !== b,
  less: (a, b) => a < b,
  lessEqual: (a, b) => a <= b,
  greater: (a, b) => a > b,
  greaterEqual: (a, b) => a >= b,
  logicalAnd: (a, b) => a !== 0 && b !== 0,
  logicalOr: (a, b) => a !== 0 || b !== 0,
  logicalNot: (a) => a === 0,
  isnan: (a) => Number.isNaN(a),
  isfinite: (a) => Number.isFinite(a),
};

/**
 * One element of `op` with result dtype `d` on argument values already cast to `d`
 * (NumPy casts operands to the loop dtype first).
 */
export function refElement(op: string, d: DType, args: readonly number[]): number {
  if (op in BOOL_OPS) return BOOL_OPS[op]!(...args) ? 1 : 0;
  const k = kindOf(d);
  if (k === 'int' || k === 'uint') {
    const big = args.map((v) => BigInt(v));
    const r = args.length === 1 ? INT_UNARY[op]!(big[0]!) : INT_BINARY[op]!(big[0]!, big[1]!);
    return wrapBig(r, d);
  }
  const f = FLOAT_OPS[op]!;
  return castRef(f(args[0]!, args[1]!), d);
}

/** Dense n-d broadcasting of `f` over arrays (shape + data), right-aligned. */
export function broadcastRef(
  arrays: readonly { shape: readonly number[]; data: ArrayLike<number> | TypedArray }[],
  f: (...v: number[]) => number,
): { shape: number[]; data: number[] } {
  let nd = 0;
  for (const a of arrays) nd = Math.max(nd, a.shape.length);
  const shape = new Array<number>(nd).fill(1);
  for (const a of arrays) {
    a.shape.forEach((n, i) => {
      const ax = nd - a.shape.length + i;
      if (n !== 1) shape[ax] = n;
    });
  }
  const total = shapeSize(shape);
  const outStrides = cStrides(shape);
  const data: number[] = [];
  for (let flat = 0; flat < total; flat++) {
    const idx = outStrides.map((s, ax) => Math.floor(flat / s) % shape[ax]!);
    const vals = arrays.map((a) => {
      const st = cStrides(a.shape);
      let off = 0;
      a.shape.forEach((n, i) => {
        const ax = nd - a.shape.length + i;
        off += (n === 1 ? 0 : idx[ax]!) * st[i]!;
      });
      return a.data[off] as number;
    });
    data.push(f(...vals));
  }
  return { shape, data };
}
