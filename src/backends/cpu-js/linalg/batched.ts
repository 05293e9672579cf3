// The 'linalg' kernel: one dense op (dense-ops.ts) per matrix of a block's batch axes;
// core axes are whole in every block, outputs are written in their declared dtypes.

import { allocate, type DType } from '../../../array/dtype.ts';
import { NDArray, shapeSize } from '../../../array/ndarray.ts';
import { ShapeError } from '../../../errors.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { type DenseOpArgs, denseOp } from './dense-ops.ts';
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

function block(c: Chunk | undefined, pick: number | null | undefined): NDArray {
  if (pick !== null && pick !== undefined && Array.isArray(c)) return block(c[pick], null);
  return arrayBlock(c, 'linalg');
}

/** Core shape as a matrix: 2-d as is, 1-d as one row, 0-d as 1×1. */
function asRowsCols(core: readonly number[]): [number, number] {
  if (core.length === 0) return [1, 1];
  if (core.length === 1) return [1, core[0]!];
  return [shapeSize(core.slice(0, -1)), core[core.length - 1]!];
}

function linalgKernel(inputs: Chunk[], p: LinalgParams): Chunk {
  const xs = inputs.map((c, i) => block(c, p.picks?.[i]));
  const batchShape = xs[0]!.shape.slice(0, p.batchDims);
  const count = shapeSize(batchShape);
  const op = denseOp(p.op);
  const cores = xs.map((x) => x.shape.slice(p.batchDims));
  const sizes = cores.map(shapeSize);
  const outSizes = p.outCores.map(shapeSize);
  const outs = p.outCores.map((_, k) => allocate(p.dtypes[k]!, count * outSizes[k]!));
  for (let b = 0; b < count; b++) {
    const mats = xs.map((x, i): Mat => {
      const [rows, cols] = asRowsCols(cores[i]!);
      const data = Float64Array.from(x.data.subarray(b * sizes[i]!, (b + 1) * sizes[i]!));
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
  linalg: linalgKernel as Kernel<never>,
};
