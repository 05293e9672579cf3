// The default kernel registry: every built-in kernel by name, importable by worker threads.
// Kernel modules register here; nothing in this file may import array/ or apply/ code.

import { NDArray } from '../array/ndarray.ts';
import { type StridedSelection, sliceND } from './cpu/slice.ts';
import type { Chunk, Kernel, KernelRegistry } from './types.ts';

/** The default registry of built-in kernels. */
export const builtinKernels: KernelRegistry = new Map();

/** Add kernels to a registry (the default one unless given). */
export function registerKernels(
  kernels: Record<string, Kernel<never>>,
  registry: KernelRegistry = builtinKernels,
): void {
  for (const [name, k] of Object.entries(kernels)) registry.set(name, k);
}

function asArray(c: Chunk): NDArray {
  if (!(c instanceof NDArray)) throw new TypeError('expected an array block, got a tuple');
  return c;
}

registerKernels({
  /** Strided selection of the one input block. */
  slice: ((inputs: Chunk[], p: StridedSelection) =>
    sliceND(asArray(inputs[0]!), p)) as Kernel<never>,
  /** Element `index` of a tuple block. */
  pick: ((inputs: Chunk[], p: { index: number }) =>
    (inputs[0] as Chunk[])[p.index]!) as Kernel<never>,
});
