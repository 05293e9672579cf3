// Reductions with an identity (sum, prod, min, max, any, all, mean): partial, merge, finalize.
// Intermediates are [values (keepdims shape, accumulator dtype), count (0-d float64)].

import {
  allocate,
  type DType,
  isBigDType,
  isComplex,
  isFloat,
  numberData,
} from '../../../array/dtype.ts';
import { NDArray } from '../../../array/ndarray.ts';
import { DTypeError, ValueError } from '../../../errors.ts';
import type { Chunk } from '../../../kernels/types.ts';
import { convertBlock } from '../layout/layout.ts';
import { bigMonoidMerge, bigMonoidPartial, isBigPartial } from './reduce-big.ts';
import {
  complexFinalize,
  complexMerge,
  complexPartial,
  isComplexPartial,
} from './reduce-complex.ts';
import { allRuns, anyRuns, imulRuns, maxRuns, minRuns, prodRuns, sumRuns } from './reduce-loops.ts';
import { type RunOp, reduceRuns, runLayout } from './reduce-runs.ts';

export type MonoidOp = 'sum' | 'prod' | 'min' | 'max' | 'any' | 'all' | 'mean';

/** Params shared by the partial, combine and aggregate steps of a monoid reduction. */
export interface MonoidParams {
  readonly op: MonoidOp;
  /** Reduced axes of the input block. */
  readonly axes: readonly number[];
  /** Cast each input element to this dtype first (the `dtype` option of sum/prod/mean). */
  readonly castTo?: DType;
  /** Output dtype (aggregate). */
  readonly dtype: DType;
}

/** The dtypes stored as one JS number each: every dtype min and max are given. */
type NumberDType = Exclude<DType, 'int64' | 'uint64' | 'complex64' | 'complex128'>;

/** `d` as a number dtype; int64 and uint64 (kept from these kernels) are a DTypeError. */
function numberDType(d: DType, op: MonoidOp): NumberDType {
  if (isBigDType(d) || isComplex(d)) {
    throw new DTypeError(`${op}: ${d} data reached a kernel that takes real numbers only`);
  }
  return d;
}

const MAX: Record<NumberDType, number> = {
  float64: Infinity,
  float32: Infinity,
  float16: Infinity,
  int32: 2147483647,
  int16: 32767,
  int8: 127,
  uint32: 4294967295,
  uint16: 65535,
  uint8: 255,
  bool: 1,
};

const MIN: Record<NumberDType, number> = {
  float64: -Infinity,
  float32: -Infinity,
  float16: -Infinity,
  int32: -2147483648,
  int16: -32768,
  int8: -128,
  uint32: 0,
  uint16: 0,
  uint8: 0,
  bool: 0,
};

interface Monoid {
  /** The loops; prod wraps like int32 when the output dtype is an integer. */
  runs(outDtype: DType): RunOp;
  accDtype(inDtype: DType): DType;
  identity(accDtype: DType): number;
}

const intProduct = (d: DType): boolean => !isFloat(d);

const monoids: Record<MonoidOp, Monoid> = {
  sum: { runs: () => sumRuns, accDtype: () => 'float64', identity: () => 0 },
  mean: { runs: () => sumRuns, accDtype: () => 'float64', identity: () => 0 },
  prod: {
    runs: (d) => (intProduct(d) ? imulRuns : prodRuns),
    accDtype: () => 'float64',
    identity: () => 1,
  },
  min: { runs: () => minRuns, accDtype: (d) => d, identity: (d) => MAX[numberDType(d, 'min')] },
  max: { runs: () => maxRuns, accDtype: (d) => d, identity: (d) => MIN[numberDType(d, 'max')] },
  any: { runs: () => anyRuns, accDtype: () => 'bool', identity: () => 0 },
  all: { runs: () => allRuns, accDtype: () => 'bool', identity: () => 1 },
};

/**
 * The loops, accumulator dtype and identity of a monoid reduction of `blockDtype` blocks
 * (for kernels that reduce values as they produce them, such as 'ew-reduce').
 * @example
 * monoidSetup('sum', 'int32', 'int32').accDtype; // 'float64'
 */
export function monoidSetup(
  op: MonoidOp,
  blockDtype: DType,
  outDtype: DType,
): { runs: RunOp; accDtype: DType; identity: number } {
  const m = monoids[op];
  const accDtype = m.accDtype(blockDtype);
  return { runs: m.runs(outDtype), accDtype, identity: m.identity(accDtype) };
}

/** A 0-d float64 block holding `v`. */
export function scalarBlock(v: number): NDArray {
  const d = allocate('float64', 1);
  d[0] = v;
  return new NDArray(d, [], 'float64');
}

/** The keepdims shape of a block reduced over `axes`, and the count reduced per output. */
export function reducedShape(
  shape: readonly number[],
  axes: readonly number[],
): { shape: number[]; count: number } {
  let count = 1;
  const out = shape.map((n, ax) => {
    if (!axes.includes(ax)) return n;
    count *= n;
    return 1;
  });
  return { shape: out, count };
}

/** Operations whose value over one element is that element. */
const UNIT_EXACT: ReadonlySet<MonoidOp> = new Set(['sum', 'mean', 'prod', 'min', 'max']);

/** Reduce one input block: [values, count]. */
export function monoidPartial(x: NDArray, p: MonoidParams): Chunk {
  const m = monoids[p.op];
  const block = p.castTo === undefined ? x : convertBlock(x, p.castTo);
  if (isBigDType(block.dtype)) return bigMonoidPartial(block, p);
  if (isComplex(block.dtype)) return complexPartial(block, p, monoidPartial);
  const accDtype = m.accDtype(block.dtype);
  const { shape, count } = reducedShape(block.shape, p.axes);
  // reduced axes of extent 1 (a stacked block): the partial is the block itself, not a copy
  if (count === 1 && accDtype === block.dtype && UNIT_EXACT.has(p.op)) {
    return [new NDArray(block.data, shape, accDtype), scalarBlock(1)];
  }
  const layout = runLayout(block.shape, p.axes);
  const acc = numberData(allocate(accDtype, layout.outSize), p.op).fill(m.identity(accDtype));
  reduceRuns(m.runs(p.dtype), layout, numberData(block.data, p.op), acc);
  return [new NDArray(acc, shape, accDtype), scalarBlock(count)];
}

/** Merge intermediates element-wise, in the order given. */
export function monoidMerge(parts: readonly Chunk[], p: MonoidParams): Chunk {
  const [first, firstCount] = parts[0] as [NDArray, NDArray];
  if (parts.length === 1) return parts[0]!;
  if (isBigPartial(parts[0]!)) return bigMonoidMerge(parts, p);
  if (isComplexPartial(parts[0]!)) return complexMerge(parts, p);
  const acc = numberData(allocate(first.dtype, first.size), p.op);
  acc.set(numberData(first.data, p.op));
  let count = numberData(firstCount.data, p.op)[0]!;
  const runs = monoids[p.op].runs(p.dtype);
  for (let k = 1; k < parts.length; k++) {
    const [v, c] = parts[k] as [NDArray, NDArray];
    runs.accumulateRows(numberData(v.data, p.op), 0, 0, 1, v.size, acc, 0, 0);
    count += numberData(c.data, p.op)[0]!;
  }
  return [new NDArray(acc, first.shape, first.dtype), scalarBlock(count)];
}

/** The final values of a merged intermediate, in keepdims shape and the output dtype. */
export function monoidFinalize(part: Chunk, p: MonoidParams): NDArray {
  if (isComplexPartial(part)) return complexFinalize(part, p);
  const [v, c] = part as [NDArray, NDArray];
  const count = numberData(c.data, p.op)[0]!;
  if ((p.op === 'min' || p.op === 'max') && count === 0 && v.size > 0) {
    throw new ValueError(
      `${p.op}: zero-size reduction over axes ${JSON.stringify(p.axes)} has no identity`,
    );
  }
  if (p.op === 'mean') {
    const out = numberData(allocate(p.dtype, v.size), p.op);
    const sum = numberData(v.data, p.op);
    for (let i = 0; i < v.size; i++) out[i] = sum[i]! / count;
    return new NDArray(out, v.shape, p.dtype);
  }
  return convertBlock(v, p.dtype);
}
