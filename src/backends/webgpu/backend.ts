// The webgpu backend as dispatch sees it: the kernels the GPU worker implements, and when it
// can run them (data on a GPU, a dtype WGSL has). Loading it touches no GPU: the device is
// opened by the first compute that runs a GPU task.

import type { DType } from '../../array/dtype.ts';
import { knownNoGpu } from '../../devices/probe.ts';
import type { Backend, OpMeta, Verdict } from '../../dispatch/types.ts';
import { VERSION } from '../../version.ts';
import type { EwParams } from '../cpu-js/elementwise/expr.ts';
import { GPU_DTYPES } from './gpu-dtype.ts';
import { unsupportedWgslOp } from './wgsl-ew.ts';

/** Kernels the GPU worker runs (the router runs 'to-device', 'passthrough', 'pick', 'fused'). */
export const WEBGPU_KERNELS = [
  'ew',
  'reduce-partial',
  'reduce-combine',
  'reduce-aggregate',
  'matmul',
  'contract-sum',
  'transpose',
  'slice',
  'getitem',
  'rechunk-merge',
  'zoom-axis',
  'random-uniform',
  'random-normal',
  'to-device',
  'passthrough',
  'pick',
  'fused',
] as const;

const REDUCE_OPS = new Set(['sum', 'prod', 'mean', 'min', 'max']);
/** The kernels that decode float16 bits (elementwise shaders) or move packed words whole. */
const FLOAT16_OPS = new Set([
  'ew',
  'transpose',
  'slice',
  'getitem',
  'rechunk-merge',
  'to-device',
  'passthrough',
  'pick',
  'fused',
]);

function dtypeVerdict(d: DType, what: string): Verdict {
  if (GPU_DTYPES.includes(d)) return true;
  if (d === 'float64')
    return `${what} is float64, which WGSL has no type for (astype('float32') first)`;
  return `${what} is ${d}; WebGPU kernels cover ${GPU_DTYPES.join(', ')}`;
}

/** Whether the GPU worker can run `op` for these inputs. */
export function webgpuCanRun(op: string, meta: OpMeta): Verdict {
  if (!meta.inputs.some((i) => i.device !== 'cpu')) {
    return "its inputs are on the host (move them with toDevice(x, 'gpu'))";
  }
  const out = dtypeVerdict(meta.dtype, 'the result');
  if (out !== true) return out;
  for (const i of meta.inputs) {
    const v = dtypeVerdict(i.dtype, 'an input');
    if (v !== true) return v;
  }
  if (op === 'reduce-partial') {
    const p = meta.params as { op?: string; castTo?: DType } | undefined;
    if (p?.op === undefined || !REDUCE_OPS.has(p.op)) {
      return `the reduction ${p?.op ?? '?'} has no GPU kernel (sum, prod, mean, min, max do)`;
    }
    if (p.castTo !== undefined) return 'a reduction with a dtype cast has no GPU kernel';
    if (p.op !== 'min' && p.op !== 'max' && meta.dtype !== 'float32') {
      return `a GPU ${p.op} accumulates in float32; its ${meta.dtype} result would differ`;
    }
  }
  if (op === 'matmul' && meta.dtype !== 'float32') return 'GPU matmul is float32 only';
  if (op === 'matmul') {
    const p = meta.params as { aT?: boolean; bT?: boolean } | undefined;
    if (p?.aT || p?.bT) return 'GPU matmul reads untransposed operands only';
  }
  const expr = (meta.params as Partial<EwParams> | undefined)?.expr;
  if (op === 'ew' && expr !== undefined) {
    const bad = unsupportedWgslOp(expr);
    if (bad !== undefined) {
      return `the elementwise op '${bad}' has no WGSL translation accurate to float32`;
    }
  }
  const half = meta.dtype === 'float16' || meta.inputs.some((i) => i.dtype === 'float16');
  if (half && !FLOAT16_OPS.has(op)) {
    // Graphs widen float16 to float32 before these kernels (apply/float16-widen.ts).
    return `the GPU '${op}' kernel reads whole 32-bit words; float16 blocks are packed bits`;
  }
  return true;
}

/** webgpu: kernels in WGSL, run by one worker thread per GPU device (Dawn's dawn.node). */
export const webgpu: Backend = {
  name: 'webgpu',
  device: 'gpu',
  kernels: WEBGPU_KERNELS,
  version: VERSION,
  supports: '*',
  available: () => knownNoGpu() ?? true,
  canRun: webgpuCanRun,
};
