// How each dtype is stored on the GPU: float32/int32/uint32 as 32-bit words; uint8 and bool
// as their CPU bytes packed four to a u32 word, float16 as its binary16 bits two to a word
// (little-endian, the host's Uint16Array bytes), unpacked in the shaders.

import type { DType } from '../../array/dtype.ts';
import { DTypeError } from '../../errors.ts';

/** The WGSL type a value of a dtype is computed in. */
export type WgslType = 'f32' | 'i32' | 'u32';

const WGSL: Partial<Record<DType, WgslType>> = {
  float32: 'f32',
  // Computed in f32 and decoded/encoded with integer bit operations in the shaders, so it
  // needs no 'shader-f16' feature and works on every adapter.
  float16: 'f32',
  int32: 'i32',
  uint32: 'u32',
  uint8: 'u32',
  bool: 'u32',
};

/** The dtypes the WebGPU backend computes in. */
export const GPU_DTYPES: readonly DType[] = Object.keys(WGSL) as DType[];

/** True for the dtypes stored one byte per element (packed four to a word). */
export const isByteDtype = (d: DType): boolean => d === 'uint8' || d === 'bool';

/** Elements per 32-bit word: 4 for bytes, 2 for float16, 1 otherwise. */
export const elementsPerWord = (d: DType): number => (isByteDtype(d) ? 4 : d === 'float16' ? 2 : 1);

/** True for dtypes packed several to a word (copies write whole words: kernel-copy-packed). */
export const isPackedDtype = (d: DType): boolean => elementsPerWord(d) > 1;

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
  const raw = (n * 4) / elementsPerWord(d);
  return Math.max(4, Math.ceil(raw / 4) * 4);
}

/**
 * As {@link wgslType}, for kernels that read each element as one 32-bit word (reductions,
 * matmul): float16, packed two to a word, is refused (graphs widen it to float32 first).
 * @example
 * wordType('reduce', 'float16'); // throws DTypeError
 */
export function wordType(fn: string, d: DType): WgslType {
  if (d === 'float16') {
    throw new DTypeError(
      `${fn}: dtype 'float16' is packed two to a word; this GPU kernel reads 32-bit words ` +
        "(astype(x, 'float32') first)",
    );
  }
  return wgslType(fn, d);
}
