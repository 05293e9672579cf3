// 'take-indexed': gather along one axis by indices that are themselves a lazy array's block.
// The task gets the index block and every input block along the axis (their offsets in params).

import { allocate, elementWidth } from '../../../array/dtype.ts';
import { NDArray, shapeSize } from '../../../array/ndarray.ts';
import { blockAt } from '../../../chunking/blocks.ts';
import { IndexError } from '../../../errors.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { setSame } from './storage.ts';

/** Params of 'take-indexed': the axis, the input blocks' offsets along it (n + 1 of them). */
export interface TakeIndexedParams {
  readonly axis: number;
  readonly offsets: readonly number[];
  /** The function the user called (error messages start with it). */
  readonly fn: string;
}

function takeIndexed(inputs: Chunk[], p: TakeIndexedParams): NDArray {
  const idx = arrayBlock(inputs[0], 'take-indexed');
  const blocks = inputs.slice(1).map((c) => arrayBlock(c, 'take-indexed'));
  const first = blocks[0]!;
  const size = p.offsets[p.offsets.length - 1]!;
  const n = idx.size;
  const shape = [...first.shape];
  shape[p.axis] = n;
  const out = allocate(first.dtype, shapeSize(shape));
  // complex elements are two floats: runs count storage slots
  const inner = shapeSize(shape.slice(p.axis + 1)) * elementWidth(first.dtype);
  const outer = shapeSize(shape.slice(0, p.axis));
  for (let k = 0; k < n; k++) {
    let i = Number(idx.data[k]!);
    if (i < -size || i >= size) {
      throw new IndexError(
        `${p.fn}: index ${idx.data[k]} is out of bounds for axis ${p.axis} with size ${size}`,
      );
    }
    if (i < 0) i += size;
    const j = blockAt(p.offsets, i);
    const src = blocks[j]!;
    const m = src.shape[p.axis]!;
    const li = i - p.offsets[j]!;
    for (let o = 0; o < outer; o++) {
      const s = (o * m + li) * inner;
      const d = (o * n + k) * inner;
      if (inner === 1) out[d] = src.data[s]!;
      else setSame(out, src.data.subarray(s, s + inner), d);
    }
  }
  return new NDArray(out, shape, first.dtype);
}

/** The lazily-indexed gather kernel of cpu-js. */
export const takeIndexedKernels: Record<string, Kernel<never>> = {
  'take-indexed': takeIndexed as Kernel<never>,
};
