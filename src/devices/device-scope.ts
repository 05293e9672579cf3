// The device scope of withDevice (AsyncLocalStorage) and the layer that moves an array's
// blocks to another device; creation functions place what they make through placeCreated.

import { AsyncLocalStorage } from 'node:async_hooks';
import { LazyArray } from '../array/lazy-array.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { Device } from './device.ts';

/** The scoped device of withDevice. */
export const scoped = new AsyncLocalStorage<Device>();

/** The device creation functions place arrays on here. */
export function creationDevice(): Device {
  return scoped.getStore() ?? 'cpu';
}

/** `x` moved to the scoped device, if there is one (creation functions end with this). */
export function placeCreated(x: LazyArray): LazyArray {
  const d = scoped.getStore();
  return d === undefined || d === x.device ? x : moveLayer(x, d);
}

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
    ...(gpu ? { backend: { name: 'webgpu', device: 'gpu' } } : {}),
    task: (b) => ({ kernel: 'to-device', inputs: [[0, b]], params: { device } }),
    meta: { from: x.device, to: device },
  });
  return new LazyArray(layer);
}
