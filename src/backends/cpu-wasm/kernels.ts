// The cpu-wasm backend's kernels by name: the module the dispatch layer imports on each
// worker thread. Same names, params and results as cpu-js; unhandled cases run cpu-js.

import type { Kernel } from '../../kernels/types.ts';
import { ewKernels } from './ew-kernel.ts';
import { ewReduceKernelsWasm } from './ew-reduce-kernel.ts';
import { matmulKernels } from './matmul-kernel.ts';
import { reduceKernelsWasm } from './reduce-kernel.ts';

/** Kernels of cpu-wasm by name (see support.ts for when each is chosen). */
export const kernels: Record<string, Kernel<never>> = {
  ...ewKernels,
  ...ewReduceKernelsWasm,
  ...reduceKernelsWasm,
  ...matmulKernels,
};
