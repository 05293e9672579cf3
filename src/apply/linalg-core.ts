// Stacks of matrices: a dense op per matrix, core (trailing) axes made whole, one task per
// block of the broadcast batch axes (as lazyApply's core axes); several outputs via tuples.

import { type DType, isFloat } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { LinalgParams } from '../backends/cpu-js/linalg/batched.ts';
import type { DenseOpArgs } from '../backends/cpu-js/linalg/dense-ops.ts';
import { broadcastShapes } from '../chunking/broadcast.ts';
import { formatTuple } from '../chunking/format.ts';
import type { Size } from '../chunking/types.ts';
import { unifyChunks } from '../chunking/unify.ts';
import { ChunkError, DTypeError, ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { broadcastTo } from './axes.ts';
import { dispatchLayer } from './dispatch-layer.ts';
import { rechunk } from './rechunk.ts';

/** One array argument and how many of its trailing axes the op needs whole. */
export interface CoreInput {
  readonly array: LazyArray;
  readonly core: number;
}

/** One output: its core shape (after the batch axes) and dtype. */
export interface CoreOutput {
  readonly core: readonly number[];
  readonly dtype: DType;
}

export interface CoreApplySpec {
  /** The user-facing function (layer op and error messages). */
  readonly fn: string;
  /** The dense op of the 'linalg' kernel. */
  readonly op: string;
  readonly args?: Omit<DenseOpArgs, 'fn'>;
  readonly inputs: readonly CoreInput[];
  readonly outputs: readonly CoreOutput[];
}

/**
 * The floating dtype linalg computes `x` in (float32 stays, the rest is float64), or a
 * DTypeError for float16 (as NumPy's linalg refuses it).
 */
export function linalgInput(fn: string, x: ArrayLike, minNdim: number): LazyArray {
  const a = asLazy(x, fn);
  if (a.dtype === 'float16') {
    throw new DTypeError(`${fn}: dtype 'float16' is not supported; cast to float32 first`);
  }
  if (a.ndim < minNdim) {
    throw new ShapeError(
      `${fn}: needs an array of at least ${minNdim} dimensions, got shape ${formatTuple(a.shape)}`,
    );
  }
  return a;
}

/** The result dtype of linalg on `d`: float32 stays, others (ints, bool) give float64. */
export function floatOf(d: DType): DType {
  return d === 'float32' ? 'float32' : isFloat(d) ? d : 'float64';
}

/** The known sizes of `a`'s last `count` axes, or a ChunkError. */
export function coreShape(fn: string, a: LazyArray, count: number): number[] {
  const core = a.shape.slice(a.ndim - count);
  if (core.some((s) => s === null)) {
    throw new ChunkError(
      `${fn}: the matrix axes of shape ${formatTuple(a.shape)} have unknown sizes; call computeChunkSizes(x) first`,
    );
  }
  return core as number[];
}

/** Inputs broadcast on the batch axes, core axes one chunk, batch chunks unified. */
function prepare(spec: CoreApplySpec): { arrays: LazyArray[]; batch: Size[][] } {
  const batches = spec.inputs.map((i) => i.array.shape.slice(0, i.array.ndim - i.core));
  const batch = broadcastShapes(spec.fn, ...batches);
  const full = spec.inputs.map(({ array, core }, k) => {
    const own = batches[k]!;
    const same = own.length === batch.length && own.every((s, ax) => s === batch[ax]);
    if (same) return array;
    if (batch.includes(null)) {
      throw new ChunkError(
        `${spec.fn}: broadcasting batch axes of unknown size; call computeChunkSizes first`,
      );
    }
    return broadcastTo(array, [...(batch as number[]), ...coreShape(spec.fn, array, core)]);
  });
  const nb = batch.length;
  const unified = unifyChunks(
    spec.fn,
    full.map((a) => ({ shape: a.shape.slice(0, nb), chunks: a.chunks.slice(0, nb) })),
    nb,
  ).chunks;
  const arrays = full.map((a) => {
    const target = a.chunks.map((_, ax) => (ax < nb ? unified[ax]! : [a.shape[ax]!]));
    const whole = a.chunks.every(
      (c, ax) => c.length === target[ax]!.length && c.every((s, i) => s === target[ax]![i]),
    );
    return whole ? a : rechunk(a, target);
  });
  return { arrays, batch: unified };
}

/**
 * One LazyArray per declared output of `spec.op` applied to every matrix of the inputs'
 * broadcast batch axes: chunked like the batch axes, whole along the core axes.
 * @example
 * coreApply({ fn: 'linalg.inv', op: 'inv', inputs: [{ array: a, core: 2 }],
 *   outputs: [{ core: [3, 3], dtype: 'float64' }] }); // [inverse]
 */
export function coreApply(spec: CoreApplySpec): LazyArray[] {
  const { arrays, batch } = prepare(spec);
  const nb = batch.length;
  const multi = spec.outputs.length > 1;
  const params: LinalgParams = {
    op: spec.op,
    args: { ...spec.args, fn: spec.fn },
    batchDims: nb,
    outCores: spec.outputs.map((o) => o.core),
    dtypes: spec.outputs.map((o) => o.dtype),
    multi,
  };
  const inputs = (b: readonly number[]) =>
    arrays.map((a, j): [number, number[]] => [
      j,
      [...b.slice(0, nb), ...a.chunks.slice(nb).map(() => 0)],
    ]);
  const deps = arrays.map((a) => a.layer);
  const chunks = multi ? batch : [...batch, ...spec.outputs[0]!.core.map((s) => [s])];
  const dtype = spec.outputs[0]!.dtype;
  const backend = dispatchLayer({ kernel: 'linalg', params, deps, chunks, dtype, fn: spec.fn });
  const layer = defineLayer({
    op: multi ? `${opName(spec.fn)}-tuple` : opName(spec.fn),
    token: [params],
    deps,
    chunks,
    dtype,
    backend,
    task: (b) => ({ kernel: 'linalg', inputs: inputs(b), params }),
  });
  if (!multi) return [new LazyArray(layer)];
  return spec.outputs.map((o, k) => {
    const pick = defineLayer({
      op: `${opName(spec.fn)}-out${k}`,
      token: [k],
      deps: [layer],
      chunks: [...batch, ...o.core.map((s) => [s])],
      dtype: o.dtype,
      fusable: true,
      task: (b) => ({ kernel: 'pick', inputs: [[0, b.slice(0, nb)]], params: { index: k } }),
    });
    return new LazyArray(pick);
  });
}

/** A layer op for the function `fn` ('linalg.qr' → 'linalg-qr'). */
export function opName(fn: string): string {
  return fn.replace(/\./g, '-');
}

/** A stack of matrices: its batch shape and matrix sizes, the matrix axes known. */
export function matrixOf(fn: string, x: ArrayLike): { a: LazyArray; m: number; n: number } {
  const a = linalgInput(fn, x, 2);
  const [m, n] = coreShape(fn, a, 2) as [number, number];
  return { a, m, n };
}

/** A stack of square matrices and their size. */
export function squareOf(fn: string, x: ArrayLike): { a: LazyArray; n: number } {
  const { a, m, n } = matrixOf(fn, x);
  if (m !== n) {
    throw new ValueError(
      `${fn}: the last two axes must be square, got shape ${formatTuple(a.shape)}`,
    );
  }
  return { a, n };
}
