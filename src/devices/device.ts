// Device names: 'cpu' (the host), 'gpu' (the one WebGPU adapter, or the first of several)
// and 'gpu:N'. One parser is the only door from user input to a Device.

import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';

/** Where an array's blocks live. */
export type Device = 'cpu' | 'gpu' | `gpu:${number}`;

const GPU_N = /^gpu:(0|[1-9][0-9]*)$/;

/**
 * `v` as a Device, or a ValueError starting with `fn`.
 * @example
 * parseDevice('toDevice', 'gpu:1'); // 'gpu:1'
 */
export function parseDevice(fn: string, v: unknown): Device {
  if (v === 'cpu' || v === 'gpu') return v;
  if (typeof v === 'string' && GPU_N.test(v)) return v as Device;
  throw new ValueError(`${fn}: device must be 'cpu', 'gpu' or 'gpu:N', got ${formatValue(v)}`);
}

/** True for GPU devices. */
export const isGpu = (d: string | undefined): boolean => d !== undefined && d !== 'cpu';

/** The device kind ('cpu' or 'gpu') of a device name. */
export const deviceKind = (d: string | undefined): 'cpu' | 'gpu' => (isGpu(d) ? 'gpu' : 'cpu');
