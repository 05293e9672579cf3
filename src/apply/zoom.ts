// zoom(x, factors, { order }): resampling of images and volumes (MONAI's resize), one axis
// at a time: the axis is made whole (every other axis keeps its chunks, so memory stays
// bounded by one pencil of blocks), then each block is resampled by the 'zoom-axis' kernel,
// whose taps (zoom-weights.ts) are the one definition both the CPU and the GPU apply.

import { isFloat } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import {
  type ZoomAxisParams,
  type ZoomOrder,
  zoomTaps,
} from '../backends/cpu-js/stencil/zoom-weights.ts';
import { formatValue } from '../chunking/format.ts';
import type { Size } from '../chunking/types.ts';
import { withCallBackend } from '../dispatch/with-backend.ts';
import { ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { dispatchLayer } from './dispatch-layer.ts';
import { viaFloat32 } from './float16-widen.ts';
import { rechunk } from './rechunk.ts';

/** Options of zoom(). */
export interface ZoomOptions {
  /** 0 nearest, 1 linear (default), 3 cubic. */
  readonly order?: ZoomOrder;
  /** Run on this backend or fail. */
  readonly backend?: string;
}

const FN = 'zoom';

function checkFactors(factors: unknown, ndim: number): number[] {
  const list = typeof factors === 'number' ? new Array<number>(ndim).fill(factors) : factors;
  if (!Array.isArray(list) || list.length !== ndim) {
    throw new ValueError(
      `${FN}: factors ${formatValue(factors)} must be a number or one per axis (${ndim})`,
    );
  }
  for (const f of list) {
    if (typeof f !== 'number' || !Number.isFinite(f) || f <= 0) {
      throw new ValueError(`${FN}: factor ${formatValue(f)} is not a positive finite number`);
    }
  }
  return list as number[];
}

/** One axis resampled: `x` whole along `axis`, each block's pencil resampled to `nOut`. */
function zoomAxisLayer(x: LazyArray, axis: number, nOut: number, order: ZoomOrder): LazyArray {
  const nIn = x.shape[axis]!;
  const dtype = order === 0 || isFloat(x.dtype) ? x.dtype : 'float64';
  const params: ZoomAxisParams = { axis, nOut, dtype, ...zoomTaps(nIn, nOut, order) };
  const chunks = x.chunks.map((c, ax) => (ax === axis ? [nOut] : [...c])) as Size[][];
  const deps = [x.layer];
  const backend = dispatchLayer({ kernel: 'zoom-axis', params, deps, chunks, dtype, fn: FN });
  const layer = defineLayer({
    op: 'zoom',
    token: [axis, nOut, order],
    deps,
    chunks,
    dtype,
    backend,
    task: (b) => ({ kernel: 'zoom-axis', inputs: [[0, b]], params }),
  });
  return new LazyArray(layer);
}

/**
 * `x` resampled by `factors` (one per axis, or one for all): output size round(n · factor)
 * per axis; order 0 nearest, 1 linear, 3 cubic, with torch/MONAI's align_corners=False
 * coordinates. Runs on the CPU or, for float32 arrays on a GPU, there.
 * @example
 * const up = zoom(volume, [2, 2, 2], { order: 1 }); // 64³ → 128³
 */
export function zoom<X extends ArrayLike>(
  x: X,
  factors: number | readonly number[],
  opts: ZoomOptions = {},
): LazyArray<KnownIn<[X]>> {
  const a = asLazy(x, 'zoom');
  if (a.dtype === 'float16')
    return viaFloat32([a], ([w]) => zoom(w!, factors, opts)) as LazyArray<KnownIn<[X]>>;
  const f = checkFactors(factors, a.ndim);
  const order = opts.order ?? 1;
  if (order !== 0 && order !== 1 && order !== 3) {
    throw new ValueError(`${FN}: order ${formatValue(order)} must be 0, 1 or 3`);
  }
  if (a.shape.some((n) => n === null)) {
    throw new ShapeError(`${FN}: sizes must be known; call computeChunkSizes(x) first`);
  }
  return withCallBackend(FN, opts.backend, () => {
    let y: LazyArray = a;
    let prev: { axis: number; chunk: number } | undefined;
    a.shape.forEach((n, axis) => {
      const nOut = Math.max(1, Math.round(n! * f[axis]!));
      if (n === 0 || nOut === n) return;
      const spec: Record<number, number> = { [axis]: -1 };
      if (prev) spec[prev.axis] = prev.chunk;
      y = zoomAxisLayer(rechunk(y, spec), axis, nOut, order);
      prev = { axis, chunk: Math.max(1, Math.round(a.chunks[axis]![0]! * f[axis]!)) };
    });
    return prev ? rechunk(y, { [prev.axis]: prev.chunk }) : y;
  }) as LazyArray<KnownIn<[X]>>;
}
