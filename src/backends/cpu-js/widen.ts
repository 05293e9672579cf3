// Kernels that compute in float64 whatever integer they are given (linear algebra, FFTs,
// quantiles, histograms, filters): int64 and uint64 blocks reach them widened to float64,
// as NumPy converts them (exact up to 2^53, rounded beyond), instead of being refused.

import { castData } from '../../array/cast.ts';
import { isBigDType } from '../../array/dtype.ts';
import { NDArray } from '../../array/ndarray.ts';
import type { Chunk, Kernel, KernelRegistry } from '../../kernels/types.ts';

/**
 * The kernels whose int64/uint64 inputs are widened to float64. They take them only when
 * their output holds no int64 (the dtype gate checks): a float result, counts or indices.
 */
export const WIDENED_KERNELS: ReadonlySet<string> = new Set([
  'linalg',
  'fft-axis',
  'quantile-block',
  'quantile-sketch',
  'histogram-block',
  'histogram2d-block',
  'histogram-edges',
  'bincount-block',
  'correlate-axes',
  'correlate-nd',
  'zoom-axis',
]);

/** A block (or a tuple of blocks) with every int64/uint64 array widened to float64. */
export function widenChunk(c: Chunk): Chunk {
  if (Array.isArray(c)) return c.map(widenChunk);
  if (c instanceof NDArray && isBigDType(c.dtype)) {
    return new NDArray(castData(c.data, c.dtype, 'float64'), c.shape, 'float64');
  }
  return c;
}

/**
 * Replace each widened kernel of `registry` by one that widens its input blocks first.
 * @example
 * widenKernels(builtinKernels); // linalg of an int64 matrix now computes in float64
 */
export function widenKernels(registry: KernelRegistry): void {
  for (const name of WIDENED_KERNELS) {
    const k = registry.get(name) as Kernel<unknown> | undefined;
    if (k === undefined) continue;
    const widened = ((inputs: Chunk[], params: unknown, ctx: unknown) =>
      k(inputs.map(widenChunk), params, ctx as never)) as Kernel<never>;
    registry.set(name, widened);
  }
}
