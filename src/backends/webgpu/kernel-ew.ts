// The 'ew' kernel on the GPU: inputs broadcast as on the CPU (simplifyLayout), one fused
// shader per (expression, input dtypes, input modes, output dtype, ndim).

import { shapeSize } from '../../array/ndarray.ts';
import { KernelError } from '../../errors.ts';
import { broadcastBlockShapes, simplifyLayout } from '../cpu-js/elementwise/elementwise.ts';
import type { InputMode } from '../cpu-js/elementwise/ew-codegen.ts';
import type { EwParams } from '../cpu-js/elementwise/expr.ts';
import { elementsPerWord, wgslType } from './gpu-dtype.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';
import { type EwShaderSpec, ewShaderKey, ewShaderSource } from './wgsl-ew.ts';

// The inputs each cached shader binds (the expression may ignore some).
const usedInputs = new Map<string, number[]>();

/**
 * Evaluate `p.expr` over device tensors into a new tensor of `p.dtype`.
 * @example
 * const [y] = await runEw(rt, [x], { expr: { op: 'exp', args: [{ in: 0 }], dtype: 'float32' }, dtype: 'float32' });
 */
export async function runEw(
  rt: GpuRuntime,
  inputs: readonly GpuTensor[],
  p: EwParams,
): Promise<GpuTensor[]> {
  for (const x of inputs) wgslType('ew', x.dtype);
  const outShape = broadcastBlockShapes(inputs.map((x) => x.shape));
  const layout = simplifyLayout(
    outShape,
    inputs.map((x) => x.shape),
  );
  return [await runEwLayout(rt, inputs, p, outShape, layout)];
}

/**
 * Evaluate `p.expr` with inputs read through `layout` (element strides per input over the
 * layout's shape): broadcasting, or any strided view such as a transpose.
 */
export async function runEwLayout(
  rt: GpuRuntime,
  inputs: readonly GpuTensor[],
  p: EwParams,
  outShape: readonly number[],
  layout: { shape: number[]; strides: number[][]; modes: InputMode[] },
): Promise<GpuTensor> {
  wgslType('ew', p.dtype);
  const out = rt.alloc(p.dtype, outShape);
  const n = shapeSize(outShape);
  if (n === 0) return out;
  const spec: EwShaderSpec = {
    expr: p.expr,
    inputDtypes: inputs.map((x) => x.dtype),
    modes: layout.modes,
    outDtype: p.dtype,
    ndim: layout.shape.length,
  };
  const key = ewShaderKey(spec);
  const pipe = await rt.pipeline(key, () => {
    const s = ewShaderSource(spec);
    usedInputs.set(key, s.inputs);
    return s.code;
  });
  const used = usedInputs.get(key) ?? ewShaderSource(spec).inputs;
  const limit = rt.device.limits.maxStorageBuffersPerShaderStage;
  if (used.length + 2 > limit) {
    throw new KernelError(
      `ew: the expression reads ${used.length} inputs; this device binds at most ${limit - 2} per shader`,
    );
  }
  const gStrides = used.filter((k) => layout.modes[k] === 'g').flatMap((k) => layout.strides[k]!);
  const meta = rt.meta([n, layout.shape.length, ...layout.shape, ...gStrides]);
  const threads = Math.ceil(n / elementsPerWord(p.dtype));
  rt.dispatch(pipe, [meta.buffer, out.buffer, ...used.map((k) => inputs[k]!.buffer)], threads);
  rt.free(meta);
  return out;
}
