// The 'zoom-axis' kernel on the GPU: the same taps as the CPU's (zoom-weights.ts), applied
// by one shader: out[a, j, i] = Σ_t w[j, t] · in[a, idx[j, t], i] over (outer, nOut, inner).

import { shapeSize } from '../../array/ndarray.ts';
import { DTypeError } from '../../errors.ts';
import type { ZoomAxisParams } from '../cpu-js/stencil/zoom-weights.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';

const SHADER = /* wgsl */ `
@group(0) @binding(0) var<storage, read> info: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<storage, read> src: array<f32>;
@group(0) @binding(3) var<storage, read> idx: array<u32>;
@group(0) @binding(4) var<storage, read> wt: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let o = gid.x + gid.y * nwg.x * 256u;
  let n = info[0];
  if (o >= n) { return; }
  let nIn = info[1];
  let nOut = info[2];
  let inner = info[3];
  let taps = info[4];
  let i = o % inner;
  let j = (o / inner) % nOut;
  let a = o / (inner * nOut);
  let base = a * nIn * inner + i;
  var s = 0.0;
  for (var t = 0u; t < taps; t = t + 1u) {
    s = s + wt[j * taps + t] * src[base + idx[j * taps + t] * inner];
  }
  dst[o] = s;
}`;

/**
 * Resample `x` along `p.axis` on the GPU (float32).
 * @example
 * const y = await zoomAxisGpu(rt, x, { axis: 0, nOut: 8, dtype: 'float32', ...zoomTaps(4, 8, 1) });
 */
export async function zoomAxisGpu(
  rt: GpuRuntime,
  x: GpuTensor,
  p: ZoomAxisParams,
): Promise<GpuTensor> {
  if (x.dtype !== 'float32' || p.dtype !== 'float32') {
    throw new DTypeError(
      `zoom: the GPU resamples float32 only, not ${x.dtype}; astype('float32') first`,
    );
  }
  const shape = [...x.shape];
  const nIn = shape[p.axis]!;
  shape[p.axis] = p.nOut;
  const inner = shapeSize(x.shape.slice(p.axis + 1));
  const out = rt.alloc('float32', shape);
  const n = shapeSize(shape);
  if (n === 0) return out;
  const idx = rt.upload(Uint32Array.from(p.idx), 'uint32', [p.idx.length]);
  const w = rt.upload(Float32Array.from(p.w), 'float32', [p.w.length]);
  const info = rt.meta([n, nIn, p.nOut, inner, p.taps]);
  const pipe = await rt.pipeline('zoom-axis|f32', () => SHADER);
  rt.dispatch(pipe, [info.buffer, out.buffer, x.buffer, idx.buffer, w.buffer], n);
  for (const t of [info, idx, w]) rt.free(t);
  return out;
}
