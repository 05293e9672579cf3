// The 'ew' kernel: evaluates a (possibly fused) elementwise expression over input blocks.
// Each specialisation compiles once to a JS loop (ew-codegen.ts); blocks may broadcast.

import { allocate, type TypedArray } from '../../../array/dtype.ts';
import { float16Bits, float16Value, roundToFloat16 } from '../../../array/float16.ts';
import { cStrides, NDArray, shapeSize } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { bigHelpers } from './ew-big.ts';
import { exprKey, type InputMode, type LoopSpec, loopSource } from './ew-codegen.ts';
import { complexHelpers } from './ew-complex.ts';
import type { EwParams, Expr } from './expr.ts';

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** nextafter where bits are not needed: NaN, x = y, and ±0 (the smallest subnormal, signed as y). */
function nextBits(x: number, y: number, smallest: number): number | undefined {
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.NaN;
  if (x === y) return y;
  if (x === 0) return y > 0 ? smallest : -smallest;
  return undefined;
}

/** A compiled loop: fills `out` from input data laid out by `shape` and `strides`. */
type Loop = (
  out: TypedArray,
  ins: readonly TypedArray[],
  shape: readonly number[],
  strides: readonly (readonly number[])[],
) => void;

/** Scalar semantics the generated loops call (NumPy's, where JS differs from C). */
export const ewHelpers = {
  ...bigHelpers,
  ...complexHelpers,
  /** float16: bits → number, number → bits (nearest-even), number → nearest float16 value. */
  f16Value: float16Value,
  f16Bits: float16Bits,
  f16Round: roundToFloat16,
  /** Python/NumPy floor division of floats (npy_floor_divide). */
  floorDivide(a: number, b: number): number {
    if (b === 0) return a / b;
    const mod = a % b;
    let div = (a - mod) / b;
    if (mod !== 0 && b < 0 !== mod < 0) div -= 1;
    if (div === 0) {
      const q = a / b;
      return q < 0 || Object.is(q, -0) ? -0 : 0;
    }
    const fl = Math.floor(div);
    return div - fl > 0.5 ? fl + 1 : fl;
  },
  /** Remainder with the sign of the divisor (npy_remainder); NaN for b = 0. */
  remainder(a: number, b: number): number {
    if (b === 0) return Number.NaN;
    let mod = a % b;
    if (mod !== 0) {
      if (b < 0 !== mod < 0) mod += b;
    } else mod = b < 0 ? -0 : 0;
    return mod;
  },
  /** Integer remainder with the sign of the divisor; 0 for b = 0 (as NumPy). */
  remainderInt(a: number, b: number): number {
    if (b === 0) return 0;
    const r = a % b;
    return r !== 0 && r < 0 !== b < 0 ? r + b : r;
  },
  /**
   * Integer power modulo 2^32 by squaring (the caller wraps to the width). A negative
   * exponent, an error in NumPy, gives the truncated true value (0 unless |a| = 1).
   */
  powInt(a: number, b: number): number {
    if (b < 0) return a === 1 ? 1 : a === -1 ? (b % 2 === 0 ? 1 : -1) : 0;
    let r = 1;
    let base = a | 0;
    let e = b;
    while (e > 0) {
      if (e % 2 === 1) r = Math.imul(r, base);
      base = Math.imul(base, base);
      e = Math.floor(e / 2);
    }
    return r;
  },
  /** C's pow: 1 ** y = 1 and (-1) ** ±Infinity = 1, where Math.pow gives NaN. */
  pow(a: number, b: number): number {
    if (a === 1) return 1;
    if (a === -1 && (b === Infinity || b === -Infinity)) return 1;
    return a ** b;
  },
  /** True (1) when the sign bit of x is set: -0 and negative NaNs included. */
  signbit(x: number): number {
    if (x !== 0 && !Number.isNaN(x)) return x < 0 ? 1 : 0;
    F64[0] = x;
    return Number(U64[0]! >> 63n);
  },
  /** |x| with the sign bit of y (C's copysign). */
  copysign(x: number, y: number): number {
    const neg = ewHelpers.signbit(y) === 1;
    const a = Math.abs(x);
    return neg ? -a : a;
  },
  /** log(exp(x) + exp(y)) without overflow (npy_logaddexp). */
  logaddexp(x: number, y: number): number {
    if (x === y) return x + Math.LN2; // infinities of one sign
    const d = x - y;
    if (d > 0) return x + Math.log1p(Math.exp(-d));
    if (d <= 0) return y + Math.log1p(Math.exp(d));
    return d; // NaN
  },
  /** The next float64 after x toward y (C's nextafter). */
  nextafter64(x: number, y: number): number {
    const edge = nextBits(x, y, 5e-324);
    if (edge !== undefined) return edge;
    F64[0] = x;
    U64[0] = x < y === x > 0 ? U64[0]! + 1n : U64[0]! - 1n;
    return F64[0];
  },
  /** The next float32 after x toward y (x, y float32 values). */
  nextafter32(x: number, y: number): number {
    const edge = nextBits(x, y, 2 ** -149);
    if (edge !== undefined) return edge;
    F32[0] = x;
    U32[0] = x < y === x > 0 ? U32[0]! + 1 : U32[0]! - 1;
    return F32[0];
  },
  /** The next float16 after x toward y (x, y float16 values). */
  nextafter16(x: number, y: number): number {
    const edge = nextBits(x, y, 2 ** -24);
    if (edge !== undefined) return edge;
    const b = float16Bits(x);
    return float16Value(x < y === x > 0 ? b + 1 : b - 1);
  },
  /** Round half to even (NumPy's round); Math.round rounds half up. */
  roundHalfEven(x: number): number {
    const r = Math.round(x);
    return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
  },
};

const loops = new Map<string, Loop>();
const MAX_LOOPS = 2000;
const exprKeys = new WeakMap<Expr, string>();

/** The compiled loop for a specialisation, compiling it on first use. */
export function compileLoop(spec: LoopSpec): Loop {
  let ek = exprKeys.get(spec.expr);
  if (ek === undefined) {
    ek = exprKey(spec.expr);
    exprKeys.set(spec.expr, ek);
  }
  const key = `${ek}|${spec.inputDtypes.join(',')}|${spec.modes.join('')}|${spec.outDtype}`;
  let loop = loops.get(key);
  if (loop === undefined) {
    const src = loopSource(spec);
    const factory = new Function('H', `return function ew(out, ins, shape, strides) {\n${src}\n};`);
    loop = factory(ewHelpers) as Loop;
    if (loops.size >= MAX_LOOPS) loops.clear();
    loops.set(key, loop);
  }
  return loop;
}

/** Broadcast of block shapes (right-aligned; size 1 stretches). */
export function broadcastBlockShapes(shapes: readonly (readonly number[])[]): number[] {
  let nd = 0;
  for (const s of shapes) nd = Math.max(nd, s.length);
  const out = new Array<number>(nd).fill(1);
  for (const s of shapes) {
    const lead = nd - s.length;
    for (let i = 0; i < s.length; i++) {
      const d = s[i]!;
      const o = out[lead + i]!;
      if (d === 1 || d === o) continue;
      if (o !== 1) {
        throw new Error(
          `ew: block shapes ${shapes.map((x) => `[${x.join(', ')}]`).join(', ')} do not broadcast`,
        );
      }
      out[lead + i] = d;
    }
  }
  return out;
}

interface Layout {
  shape: number[];
  strides: number[][];
  modes: InputMode[];
}

/**
 * Input strides over the output shape (0 where an input broadcasts), with size-1 axes
 * dropped and axes merged wherever every input is contiguous across them.
 */
export function simplifyLayout(
  outShape: readonly number[],
  shapes: readonly (readonly number[])[],
): Layout {
  const nd = outShape.length;
  const full = shapes.map((s) => {
    const st = cStrides(s);
    const lead = nd - s.length;
    return outShape.map((_, ax) => (ax < lead || s[ax - lead] === 1 ? 0 : st[ax - lead]!));
  });
  return simplifyStrides(outShape, full);
}

/** Unit axes dropped and adjacent axes merged where every operand steps evenly across them. */
export function simplifyStrides(
  outShape: readonly number[],
  full: readonly (readonly number[])[],
): { shape: number[]; strides: number[][]; modes: InputMode[] } {
  const keep: number[] = [];
  for (let ax = 0; ax < outShape.length; ax++) if (outShape[ax] !== 1) keep.push(ax);
  let shape = keep.map((ax) => outShape[ax]!);
  let strides = full.map((st) => keep.map((ax) => st[ax]!));
  for (let ax = shape.length - 2; ax >= 0; ax--) {
    const next = shape[ax + 1]!;
    if (!strides.every((st) => st[ax] === st[ax + 1]! * next)) continue;
    shape = [...shape.slice(0, ax), shape[ax]! * next, ...shape.slice(ax + 2)];
    strides = strides.map((st) => [...st.slice(0, ax), st[ax + 1]!, ...st.slice(ax + 2)]);
  }
  if (shape.length === 0) {
    shape = [1];
    strides = strides.map(() => [0]);
  }
  const outSt = cStrides(shape);
  const modes = strides.map((st): InputMode => {
    if (st.every((v) => v === 0)) return 's';
    return st.every((v, i) => v === outSt[i] || shape[i] === 1) ? 'c' : 'g';
  });
  return { shape, strides, modes };
}

/**
 * Evaluate `params.expr` over `inputs` (blocks that broadcast together) into a new block
 * of dtype `params.dtype` and the broadcast shape of the inputs.
 * @example
 * const x = ndarray([1, 2, 3], [3], 'float64');
 * evaluateExpr([x], { expr: { op: 'multiply', args: [{ in: 0 }, { const: 2 }], dtype: 'float64' }, dtype: 'float64' });
 * // [2, 4, 6]
 */
export function evaluateExpr(inputs: readonly Chunk[], params: EwParams): NDArray {
  const blocks = inputs.map((c) => arrayBlock(c, 'ew'));
  const outShape = broadcastBlockShapes(blocks.map((b) => b.shape));
  const out = allocate(params.dtype, shapeSize(outShape));
  if (out.length === 0) return new NDArray(out, outShape, params.dtype);
  const layout = simplifyLayout(
    outShape,
    blocks.map((b) => b.shape),
  );
  const loop = compileLoop({
    expr: params.expr,
    inputDtypes: blocks.map((b) => b.dtype),
    modes: layout.modes,
    outDtype: params.dtype,
  });
  loop(
    out,
    blocks.map((b) => b.data),
    layout.shape,
    layout.strides,
  );
  return new NDArray(out, outShape, params.dtype);
}

/** The elementwise kernels, registered in backends/cpu-js/registry. */
export const elementwiseKernels: Record<string, Kernel<never>> = {
  ew: ((inputs: Chunk[], params: EwParams) => evaluateExpr(inputs, params)) as Kernel<never>,
};
