// The 'zoom-axis' kernel on the CPU: one axis of a block, whole along that axis, resampled
// with the taps of zoom-weights.ts (out[…, j, …] = Σ_t w[j, t] · in[…, idx[j, t], …]).

import { allocate, numberData } from '../../../array/dtype.ts';
import { NDArray, shapeSize } from '../../../array/ndarray.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import type { ZoomAxisParams } from './zoom-weights.ts';

/**
 * Resample `x` along `p.axis`.
 * @example
 * zoomAxis(x, { axis: 0, nOut: 8, dtype: 'float64', ...zoomTaps(4, 8, 1) });
 */
export function zoomAxis(x: NDArray, p: ZoomAxisParams): NDArray {
  const shape = [...x.shape];
  const nIn = shape[p.axis]!;
  shape[p.axis] = p.nOut;
  const inner = shapeSize(x.shape.slice(p.axis + 1));
  const outer = shapeSize(x.shape.slice(0, p.axis));
  const out = numberData(allocate(p.dtype, shapeSize(shape)), 'zoom');
  const src = numberData(x.data, 'zoom');
  const { taps, idx, w } = p;
  for (let a = 0; a < outer; a++) {
    const base = a * nIn * inner;
    for (let j = 0; j < p.nOut; j++) {
      const row = (a * p.nOut + j) * inner;
      for (let i = 0; i < inner; i++) {
        let s = 0;
        for (let t = 0; t < taps; t++)
          s += w[j * taps + t]! * src[base + idx[j * taps + t]! * inner + i]!;
        out[row + i] = s;
      }
    }
  }
  return new NDArray(out, shape, p.dtype);
}

/** The stencil kernels by name. */
export const stencilKernels: Record<string, Kernel<never>> = {
  'zoom-axis': ((inputs: Chunk[], p: ZoomAxisParams) =>
    zoomAxis(inputs[0] as NDArray, p)) as Kernel<never>,
};
