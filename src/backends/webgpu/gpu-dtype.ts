// How each dtype is stored on the GPU: float32/int32/uint32 as 32-bit words; uint8 and bool
// as their CPU bytes packed four to a u32 word (little-endian), unpacked in the shaders.

import type { DType } from '../../array/dtype.ts';
import { DTypeError } from '../../errors.ts';

/** The WGSL type a value of a dtype is computed in. */
export type WgslType = 'f32' | 'i32' | 'u32';

const WGSL: Partial<Record<DType, WgslType>> = {
  float32: 'f32',
  int32: 'i32',
  uint32: 'u32',
  uint8: 'u32',
  bool: 'u32',
};

/** The dtypes the WebGPU backend computes in. */
export const GPU_DTYPES: readonly DType[] = Object.keys(WGSL) as DType[];

/** True for the dtypes stored one byte per element (packed four to a word). */
export const isByteDtype = (d: DType): boolean => d === 'uint8' || d === 'bool';

/**
 * The WGSL type of `d`, or a DTypeError naming `fn` (float64 has no WGSL type).
 * @example
 * wgslType('ew', 'uint8'); // 'u32'
 */
export function wgslType(fn: string, d: DType): WgslType {
  const t = WGSL[d];
  if (t !== undefined) return t;
  if (d === 'float64') {
    throw new DTypeError(
      `${fn}: dtype 'float64' is not supported on WebGPU (WGSL has no 64-bit floats); ` +
        "convert with astype('float32') first or keep the array on the CPU",
    );
  }
  throw new DTypeError(
    `${fn}: dtype '${d}' is not supported on WebGPU; expected one of ${GPU_DTYPES.join(', ')}`,
  );
}

/** Bytes of a GPU buffer holding `n` elements of `d` (a whole number of 4-byte words). */
export function gpuBytes(d: DType, n: number): number {
  wgslType('gpuBytes', d);
  const raw = isByteDtype(d) ? n : n * 4;
  return Math.max(4, Math.ceil(raw / 4) * 4);
}
