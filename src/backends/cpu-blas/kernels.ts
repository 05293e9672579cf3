// The cpu-blas backend's kernels by name: the module dispatch imports on each thread that
// runs one of its tasks. cpu-js's 'matmul' and 'einsum' kernels, same params and results,
// with every block product a BLAS dgemm instead of the JavaScript GEMM.

import type { Chunk, Kernel } from '../../kernels/types.ts';
import type { LinalgParams } from '../cpu-js/linalg/batched.ts';
import { type EinsumParams, einsumBlocks } from '../cpu-js/linalg/einsum.ts';
import { type Gemm, type GemmT, type MatmulParams, matmulBlocks } from '../cpu-js/linalg/matmul.ts';
import { type BlasLibrary, blasLibrary } from './library.ts';
import { blasLinalg } from './linalg.ts';

function library(kernel: string): BlasLibrary {
  const lib = blasLibrary();
  if (typeof lib === 'string') throw new Error(`${kernel}: ${lib}`);
  return lib;
}

const dgemm = (kernel: string): GemmT => library(kernel).dgemm;

/** The untransposed form of `g`. */
const plain =
  (g: GemmT): Gemm =>
  (a, aOff, b, bOff, c, cOff, m, k, n) =>
    g(a, aOff, false, b, bOff, false, c, cOff, m, k, n);

/** Kernels of cpu-blas by name (see support.ts for when each is chosen). */
export const kernels: Record<string, Kernel<never>> = {
  matmul: ((inputs: Chunk[], p: MatmulParams) => {
    const g = dgemm('matmul');
    return matmulBlocks(inputs, p, plain(g), g, true);
  }) as Kernel<never>,
  einsum: ((inputs: Chunk[], p: EinsumParams) =>
    einsumBlocks(inputs, p, plain(dgemm('einsum')))) as Kernel<never>,
  linalg: ((inputs: Chunk[], p: LinalgParams) =>
    blasLinalg(library('linalg'), inputs, p)) as Kernel<never>,
};
