// The reference backend: tessera's JavaScript kernels, which implement every operation.
// Every other backend is checked against it, and it runs whatever the others decline.

import type { Backend } from '../../dispatch/types.ts';
import { VERSION } from '../../version.ts';
import { builtinKernels } from './registry.ts';

/** cpu-js: every built-in kernel, on the CPU, in plain JavaScript. */
export const cpuJs: Backend = {
  name: 'cpu-js',
  device: 'cpu',
  kernels: [...builtinKernels.keys()],
  version: VERSION,
  supports: '*',
};
