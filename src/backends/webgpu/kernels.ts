// The WebGPU kernels by name (the names and params of the cpu-js kernels they mirror).
// A kernel takes device tensors and params and returns new device tensors.

import { KernelError } from '../../errors.ts';
import type { EwParams } from '../cpu-js/elementwise/expr.ts';
import type { NormalParams, UniformParams } from '../cpu-js/source/random.ts';
import { runEw } from './kernel-ew.ts';
import { type TransposeParams, transpose } from './kernel-layout.ts';
import { type GpuMatmulParams, matmul } from './kernel-matmul.ts';
import { randomNormal, randomUniform } from './kernel-random.ts';
import { type GpuReduceParams, reduceAggregate, reducePartial } from './kernel-reduce.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';

export type GpuKernel = (
  rt: GpuRuntime,
  inputs: GpuTensor[],
  params: never,
) => Promise<GpuTensor[]>;

const one = (x: GpuTensor | undefined, kernel: string): GpuTensor => {
  if (x === undefined) throw new KernelError(`${kernel}: expected one input`);
  return x;
};

/** Every WebGPU kernel. */
export const gpuKernels: Record<string, GpuKernel> = {
  ew: ((rt, ins, p: EwParams) => runEw(rt, ins, p)) as GpuKernel,
  'reduce-partial': (async (rt, ins, p: GpuReduceParams) => [
    await reducePartial(rt, one(ins[0], 'reduce-partial'), p),
  ]) as GpuKernel,
  'reduce-aggregate': (async (rt, ins, p: GpuReduceParams) => [
    await reduceAggregate(rt, one(ins[0], 'reduce-aggregate'), p),
  ]) as GpuKernel,
  matmul: (async (rt, ins, p: GpuMatmulParams) => [await matmul(rt, ins, p)]) as GpuKernel,
  transpose: (async (rt, ins, p: TransposeParams) => [
    await transpose(rt, one(ins[0], 'transpose'), p),
  ]) as GpuKernel,
  'random-uniform': (async (rt, _ins, p: UniformParams) => [
    await randomUniform(rt, p),
  ]) as GpuKernel,
  'random-normal': (async (rt, _ins, p: NormalParams) => [await randomNormal(rt, p)]) as GpuKernel,
};
