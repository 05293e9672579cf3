// The cpu-wasm backend as dispatch sees it: WebAssembly SIMD kernels on the same worker
// threads and chunk memory as cpu-js, tried before it where they measured faster.

import type { Backend } from '../../dispatch/types.ts';
import { VERSION } from '../../version.ts';
import { canRun, IMPLEMENTED, shouldRun, wasmAvailable } from './support.ts';

const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/** cpu-wasm: fused elementwise chains, reductions and GEMM in WebAssembly SIMD. */
export const cpuWasm: Backend = {
  name: 'cpu-wasm',
  device: 'cpu',
  kernels: IMPLEMENTED,
  module: new URL(`./kernels${ext}`, import.meta.url).href,
  version: VERSION,
  supports: '*',
  available: wasmAvailable,
  canRun,
  shouldRun,
  higherPriorityThan: ['cpu-js'],
};
