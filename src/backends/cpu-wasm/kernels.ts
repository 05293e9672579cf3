// The cpu-wasm backend's kernels by name: the module the dispatch layer imports on each
// worker thread. Same names, params and results as cpu-js; unhandled cases run cpu-js.

import type { Kernel } from '../../kernels/types.ts';
import { builtinKernels } from '../cpu-js/registry.ts';
import { ewKernels } from './ew-kernel.ts';
import { ewReduceKernelsWasm } from './ew-reduce-kernel.ts';
import { matmulKernels } from './matmul-kernel.ts';
import { reduceKernelsWasm } from './reduce-kernel.ts';

/** Kernels of cpu-wasm by name (see support.ts for when each is chosen). */
export const kernels: Record<string, Kernel<never>> = {
  // elementwise chains over strided views (what fusion makes of slices and transposes
  // feeding a chain): cpu-js's loop reads them in place, which copying tiles through
  // scratch does not beat; listing it lets fusion fold views into this backend's
  // 'ew-reduce', which does beat cpu-js on float32
  'ew-view': builtinKernels.get('ew-view') as Kernel<never>,
  ...ewKernels,
  ...ewReduceKernelsWasm,
  ...reduceKernelsWasm,
  ...matmulKernels,
};
