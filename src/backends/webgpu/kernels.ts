// The WebGPU kernels by name (the names and params of the cpu-js kernels they mirror).
// A kernel takes device tensors and params and returns new device tensors.

import type { DType } from '../../array/dtype.ts';
import { KernelError } from '../../errors.ts';
import type { EwParams } from '../cpu-js/elementwise/expr.ts';
import type { GetitemParams, MergePiece } from '../cpu-js/layout/gather.ts';
import type { StridedSelection } from '../cpu-js/layout/slice.ts';
import type { NormalParams, UniformParams } from '../cpu-js/source/random.ts';
import type { ZoomAxisParams } from '../cpu-js/stencil/zoom-weights.ts';
import { argAggregate, argPartial, type GpuArgParams } from './kernel-arg-reduce.ts';
import {
  contractSum,
  type GpuTreeParams,
  reduceAggregateTree,
  reduceCombine,
} from './kernel-combine.ts';
import { getitem, rechunkMerge, slice } from './kernel-copy.ts';
import { runEw } from './kernel-ew.ts';
import { type TransposeParams, transpose } from './kernel-layout.ts';
import { type GpuMatmulParams, matmul } from './kernel-matmul.ts';
import { randomNormal, randomUniform } from './kernel-random.ts';
import { type GpuReduceParams, reduceAggregate, reducePartial } from './kernel-reduce.ts';
import { type GpuMomentParams, moments } from './kernel-stats.ts';
import { zoomAxisGpu } from './kernel-zoom.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';

type AnyReduceParams = GpuReduceParams | GpuArgParams | GpuMomentParams;

const isArg = (p: AnyReduceParams): p is GpuArgParams => p.op === 'argmin' || p.op === 'argmax';

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
  'reduce-partial': (async (rt, ins, p: AnyReduceParams) => {
    const x = one(ins[0], 'reduce-partial');
    if (isArg(p)) return argPartial(rt, x, p);
    if (p.op === 'var')
      throw new KernelError("reduce-partial: 'var' has no GPU partial; use reduce-aggregate");
    return [await reducePartial(rt, x, p)];
  }) as GpuKernel,
  'reduce-combine': ((rt, ins, p: GpuTreeParams) => reduceCombine(rt, ins, p)) as GpuKernel,
  'contract-sum': ((rt, ins, p: { dtype: DType; squeeze: boolean }) =>
    contractSum(rt, ins, p)) as GpuKernel,
  'reduce-aggregate': (async (rt, ins, p: AnyReduceParams | GpuTreeParams) => {
    // in a reduction tree (dispatch passes the count): merge the partials of the last level
    if ('count' in p && p.count !== undefined)
      return reduceAggregateTree(rt, ins, p as GpuTreeParams);
    const x = one(ins[0], 'reduce-aggregate');
    const q = p as AnyReduceParams;
    if (isArg(q)) return [await argAggregate(rt, x, q)];
    if (q.op === 'var') return [await moments(rt, x, q)];
    return [await reduceAggregate(rt, x, q)];
  }) as GpuKernel,
  slice: (async (rt, ins, p: StridedSelection) => [
    await slice(rt, one(ins[0], 'slice'), p),
  ]) as GpuKernel,
  getitem: (async (rt, ins, p: GetitemParams) => [
    await getitem(rt, one(ins[0], 'getitem'), p),
  ]) as GpuKernel,
  'rechunk-merge': (async (rt, ins, p: { pieces: MergePiece[] }) => [
    await rechunkMerge(rt, ins, p.pieces),
  ]) as GpuKernel,
  'zoom-axis': (async (rt, ins, p: ZoomAxisParams) => [
    await zoomAxisGpu(rt, one(ins[0], 'zoom-axis'), p),
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
