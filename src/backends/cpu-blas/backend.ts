// The cpu-blas backend as dispatch sees it: matrix products through the system's BLAS (dgemm)
// on the same worker threads and chunk memory as cpu-js; available where the optional
// package koffi is installed and an optimized BLAS library opens.

import type { Backend } from '../../dispatch/types.ts';
import { VERSION } from '../../version.ts';
import { blasLibrary } from './library.ts';
import { blasAvailable, canRun, IMPLEMENTED, shouldRun } from './support.ts';

const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/** cpu-blas: 'matmul' and two-operand 'einsum' block products as BLAS dgemm calls. */
export const cpuBlas: Backend = {
  name: 'cpu-blas',
  device: 'cpu',
  kernels: IMPLEMENTED,
  module: new URL(`./kernels${ext}`, import.meta.url).href,
  /** tessera's version and the library's own description, once `tessera info` opens it. */
  get version(): string {
    const lib = blasLibrary();
    return typeof lib === 'string' ? VERSION : `${VERSION} on ${lib.vendor}`;
  },
  supports: '*',
  available: blasAvailable,
  canRun,
  shouldRun,
  higherPriorityThan: ['cpu-wasm', 'cpu-js'],
};
