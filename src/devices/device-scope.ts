// The device scope of withDevice (AsyncLocalStorage) and the layer that moves an array's
// blocks to another device; creation functions place what they make through placeCreated.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { DType } from '../array/dtype.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { GPU_DTYPES } from '../backends/webgpu/gpu-dtype.ts';
import { DTypeError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BackendRef } from '../graph/layer.ts';
import type { Device } from './device.ts';

/** The scoped device of withDevice. */
export const scoped = new AsyncLocalStorage<Device>();

/** The device creation functions place arrays on here. */
export function creationDevice(): Device {
  return scoped.getStore() ?? 'cpu';
}

/** `x` moved to the scoped device, if there is one (creation function `fn` ends with this). */
export function placeCreated<K extends boolean>(x: LazyArray<K>, fn = 'withDevice'): LazyArray<K> {
  const d = scoped.getStore();
  if (d === undefined || d === x.device) return x;
  checkDeviceDType(fn, x.dtype, d);
  return moveLayer(x, d) as LazyArray<K>; // a move keeps the chunks
}

/** A DTypeError (starting with `fn`) for a dtype the GPU has no type for. */
export function checkDeviceDType(fn: string, dtype: DType, device: string): void {
  if (device === 'cpu' || GPU_DTYPES.includes(dtype)) return;
  const hint =
    dtype === 'float64'
      ? "WGSL has no 64-bit floats: pass dtype: 'float32' or astype('float32') first"
      : `the GPU computes in ${GPU_DTYPES.join(', ')}`;
  throw new DTypeError(`${fn}: dtype '${dtype}' cannot live on '${device}': ${hint}`);
}

/**
 * The webgpu backend as 'to-device' layers carry it, with the sources it makes itself:
 * uniforms (bit-identical to the CPU's); normals are made on the host and uploaded, since
 * the GPU's log and cos differ from JavaScript's by a few ulps.
 */
const WEBGPU_REF: BackendRef = Object.freeze({
  name: 'webgpu',
  device: 'gpu',
  fuses: ['random-uniform'],
});

/** The 'to-device' layer: `x`'s blocks on `device`. */
export function moveLayer(x: LazyArray, device: Device): LazyArray {
  const gpu = device !== 'cpu';
  const layer = defineLayer({
    op: 'to-device',
    token: [device],
    deps: [x.layer],
    chunks: x.chunks,
    dtype: x.dtype,
    device,
    // to a GPU: a source its backend can make fuses in (its blocks are made there)
    fusable: gpu,
    ...(gpu ? { backend: WEBGPU_REF } : {}),
    task: (b) => ({ kernel: 'to-device', inputs: [[0, b]], params: { device } }),
    meta: { from: x.device, to: device },
  });
  return new LazyArray(layer);
}
