// A block that lives on a device (a GPU buffer held by that device's worker): the scheduler
// sees only this small handle, counts its bytes apart from host bytes, and releases it.

import type { DType } from '../array/dtype.ts';
import type { Chunk } from '../kernels/types.ts';

/** A device-resident block (GpuHandle has this shape). */
export interface DeviceChunk {
  readonly device: string;
  readonly id: number;
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly bytes: number;
}

/** True for a device-resident block. */
export function isDeviceChunk(x: unknown): x is DeviceChunk {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const h = x as Partial<DeviceChunk>;
  return typeof h.device === 'string' && typeof h.id === 'number' && typeof h.bytes === 'number';
}

/** Device bytes under a chunk (a handle, or tuples of them). */
export function deviceBytes(c: Chunk | DeviceChunk): number {
  if (isDeviceChunk(c)) return c.bytes;
  if (!Array.isArray(c)) return 0;
  let n = 0;
  for (const e of c) n += deviceBytes(e);
  return n;
}
