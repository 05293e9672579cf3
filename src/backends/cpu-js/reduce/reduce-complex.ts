// sum, mean and prod of complex blocks. Sums add the real and imaginary parts separately: a
// complex block is read as a float block with a trailing axis of 2 (re, im) and summed exactly
// as float sums are (float64 accumulators). Products multiply complex128 values in order.

import {
  allocate,
  type DType,
  isComplex,
  realDType,
  type TypedArray,
} from '../../../array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../../../array/ndarray.ts';
import { DTypeError } from '../../../errors.ts';
import type { Chunk } from '../../../kernels/types.ts';
import { convertBlock } from '../layout/layout.ts';
import type { MonoidParams } from './reduce-monoid.ts';

/** `x` (complex) as a float block of shape `[...x.shape, 2]` sharing its data. */
export function partsView(x: NDArray): NDArray {
  return new NDArray(x.data, [...x.shape, 2], realDType(x.dtype));
}

/** A float64 block of shape `[...s, 2]` as the complex128 block of shape `s`. */
function fromParts(v: NDArray): NDArray {
  const data = v.dtype === 'float64' ? v.data : convertBlock(v, 'float64').data;
  return new NDArray(data, v.shape.slice(0, -1), 'complex128');
}

function checkOp(p: MonoidParams): void {
  if (p.op !== 'sum' && p.op !== 'mean' && p.op !== 'prod') {
    throw new DTypeError(`${p.op}: complex data reached a reduction that takes real numbers only`);
  }
}

/**
 * Reduce one complex block over `p.axes`: [values (complex128, keepdims shape), count].
 * `partial` is the float monoid partial (reduce-monoid.ts) that sums the parts view.
 * @example
 * complexPartial(z, { op: 'sum', axes: [0], dtype: 'complex128' }, monoidPartial);
 */
export function complexPartial(
  x: NDArray,
  p: MonoidParams,
  partial: (x: NDArray, p: MonoidParams) => Chunk,
): Chunk {
  checkOp(p);
  if (p.op === 'prod') return prodPartial(x, p.axes);
  const [v, c] = partial(partsView(x), { op: 'sum', axes: p.axes, dtype: 'float64' }) as [
    NDArray,
    NDArray,
  ];
  return [fromParts(v), c];
}

/** Merge complex intermediates (complex128) in the order given. */
export function complexMerge(parts: readonly Chunk[], p: MonoidParams): Chunk {
  checkOp(p);
  const [first] = parts[0] as [NDArray, NDArray];
  const acc = allocate('complex128', first.size);
  acc.set(first.data as Float64Array);
  let count = 0;
  for (let k = 0; k < parts.length; k++) {
    const [v, c] = parts[k] as [NDArray, NDArray];
    count += c.data[0] as number;
    if (k === 0) continue;
    const b = v.data as Float64Array;
    if (p.op === 'prod') {
      for (let i = 0; i < acc.length; i += 2) {
        const re = acc[i]! * b[i]! - acc[i + 1]! * b[i + 1]!;
        acc[i + 1] = acc[i]! * b[i + 1]! + acc[i + 1]! * b[i]!;
        acc[i] = re;
      }
    } else {
      for (let i = 0; i < acc.length; i++) acc[i]! += b[i]!;
    }
  }
  const cnt = allocate('float64', 1);
  cnt[0] = count;
  return [new NDArray(acc, first.shape, 'complex128'), new NDArray(cnt, [], 'float64')];
}

/** The final complex values in the output dtype (mean divides both parts by the count). */
export function complexFinalize(part: Chunk, p: MonoidParams): NDArray {
  const [v, c] = part as [NDArray, NDArray];
  if (p.op !== 'mean') return convertBlock(v, p.dtype);
  const count = c.data[0] as number;
  const out = allocate('complex128', v.size);
  const s = v.data as Float64Array;
  for (let i = 0; i < out.length; i++) out[i] = s[i]! / count;
  return convertBlock(new NDArray(out, v.shape, 'complex128'), p.dtype);
}

/** True when a reduction's intermediates are complex values. */
export function isComplexPartial(part: Chunk): boolean {
  const v = (part as NDArray[])[0];
  return v !== undefined && isComplex(v.dtype);
}

/** The product over `axes` of a complex block, element by element in C order (complex128). */
function prodPartial(x: NDArray, axes: readonly number[]): Chunk {
  const shape = x.shape.map((n, ax) => (axes.includes(ax) ? 1 : n));
  const n = shapeSize(shape);
  const acc = allocate('complex128', n);
  for (let i = 0; i < acc.length; i += 2) acc[i] = 1;
  const outStrides = cStrides(shape).map((s, ax) => (axes.includes(ax) ? 0 : s));
  multiplyInto(acc, x.data, x.shape, outStrides);
  let count = 1;
  for (const ax of axes) count *= x.shape[ax]!;
  const c = allocate('float64', 1);
  c[0] = count;
  return [new NDArray(acc, shape, 'complex128'), new NDArray(c, [], 'float64')];
}

function multiplyInto(
  acc: Float64Array,
  data: TypedArray,
  shape: readonly number[],
  outStrides: readonly number[],
): void {
  const total = shapeSize(shape);
  const nd = shape.length;
  const idx = new Array<number>(nd).fill(0);
  let o = 0;
  for (let i = 0; i < total; i++) {
    const a = acc[2 * o]!;
    const b = acc[2 * o + 1]!;
    const c = data[2 * i] as number;
    const d = data[2 * i + 1] as number;
    acc[2 * o] = a * c - b * d;
    acc[2 * o + 1] = a * d + b * c;
    for (let ax = nd - 1; ax >= 0; ax--) {
      o += outStrides[ax]!;
      if (++idx[ax]! < shape[ax]!) break;
      o -= outStrides[ax]! * shape[ax]!;
      idx[ax] = 0;
    }
  }
}

/** For callers that pick the accumulator: complex blocks accumulate in complex128. */
export const complexAccDtype = (_d: DType): DType => 'complex128';
