// The 'linalg' kernel: one dense op (dense-ops.ts) per matrix of a block's batch axes;
// core axes are whole in every block, outputs are written in their declared dtypes.

import { allocate, type DType, numberData } from '../../../array/dtype.ts';
import { NDArray, shapeSize } from '../../../array/ndarray.ts';
import { ShapeError } from '../../../errors.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { type DenseOp, type DenseOpArgs, denseOp } from './dense-ops.ts';
import type { Mat } from './dense-qr.ts';

/** Params of the 'linalg' kernel. */
export interface LinalgParams {
  readonly op: string;
  readonly args: DenseOpArgs;
  /** Leading axes of every input (and output) that are looped over. */
  readonly batchDims: number;
  /** Core shape of each output (after the batch axes). */
  readonly outCores: readonly (readonly number[])[];
  readonly dtypes: readonly DType[];
  /** Several outputs: the block is a tuple of them. */
  readonly multi: boolean;
  /** Per input, the element to take when the input block is a tuple (TSQR tree nodes). */
  readonly picks?: readonly (number | null)[];
}

/**
 * Input `c` of a 'linalg' task as a block: element `pick` of a tuple (a TSQR tree node).
 * @example
 * linalgInput([q, r], 1); // r
 */
export function linalgInput(c: Chunk | undefined, pick: number | null | undefined): NDArray {
  if (pick !== null && pick !== undefined && Array.isArray(c)) return linalgInput(c[pick], null);
  return arrayBlock(c, 'linalg');
}

/** Core shape as a matrix: 2-d as is, 1-d as one row, 0-d as 1×1. */
function asRowsCols(core: readonly number[]): [number, number] {
  if (core.length === 0) return [1, 1];
  if (core.length === 1) return [1, core[0]!];
  return [shapeSize(core.slice(0, -1)), core[core.length - 1]!];
}

/**
 * The 'linalg' kernel: `p.op` on every matrix of the blocks' batch axes, the op looked up by
 * `ops` (cpu-js's dense ops by default; cpu-blas passes LAPACK versions of some).
 * @example
 * linalgBlocks([x], { op: 'inv', args: { fn: 'linalg.inv' }, batchDims: 0,
 *   outCores: [[3, 3]], dtypes: ['float64'], multi: false });
 */
export function linalgBlocks(
  inputs: readonly Chunk[],
  p: LinalgParams,
  ops: (name: string) => DenseOp = denseOp,
): Chunk {
  const xs = inputs.map((c, i) => linalgInput(c, p.picks?.[i]));
  const batchShape = xs[0]!.shape.slice(0, p.batchDims);
  const count = shapeSize(batchShape);
  const op = ops(p.op);
  const cores = xs.map((x) => x.shape.slice(p.batchDims));
  const sizes = cores.map(shapeSize);
  const outSizes = p.outCores.map(shapeSize);
  const fn = p.args.fn;
  const srcs = xs.map((x) => numberData(x.data, fn));
  const outs = p.outCores.map((_, k) =>
    numberData(allocate(p.dtypes[k]!, count * outSizes[k]!), fn),
  );
  for (let b = 0; b < count; b++) {
    const mats = srcs.map((src, i): Mat => {
      const [rows, cols] = asRowsCols(cores[i]!);
      // a float64 copy each op may overwrite (slice and the typed-array constructor copy
      // natively; Float64Array.from would iterate)
      const [from, to] = [b * sizes[i]!, (b + 1) * sizes[i]!];
      const data =
        src instanceof Float64Array
          ? src.slice(from, to)
          : new Float64Array(src.subarray(from, to));
      return { data, rows, cols };
    });
    const res = op(mats, p.args);
    res.forEach((m, k) => {
      if (m.data.length !== outSizes[k]) {
        throw new ShapeError(
          `${p.args.fn}: op '${p.op}' gave ${m.data.length} values for output ${k}, expected ${outSizes[k]}`,
        );
      }
      outs[k]!.set(m.data, b * outSizes[k]!);
    });
  }
  const arrays = outs.map(
    (d, k) => new NDArray(d, [...batchShape, ...p.outCores[k]!], p.dtypes[k]!),
  );
  return p.multi ? arrays : arrays[0]!;
}

export const linalgKernels = {
  linalg: ((inputs: Chunk[], p: LinalgParams) => linalgBlocks(inputs, p)) as Kernel<never>,
};
