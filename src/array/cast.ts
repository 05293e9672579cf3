// Converting the data of one dtype to another, element by element, on the host.
// float16 data are bits: they are decoded when read and encoded (nearest-even) when written.

import { allocate, type DType, type TypedArray } from './dtype.ts';
import { float16Bits, float16Table } from './float16.ts';

/**
 * Write `src` (values of dtype `from`; numbers for plain arrays) into `out` of dtype `to`:
 * integers wrap and floats truncate as TypedArray stores do, bool is `value !== 0` (plain JS
 * numbers: truthiness, so NaN gives false as it always has for nested input).
 */
export function castInto(
  out: TypedArray,
  to: DType,
  src: ArrayLike<number>,
  from: DType | 'number',
): TypedArray {
  const n = src.length;
  if (from === 'float16' && to === 'float16') {
    out.set(src);
    return out;
  }
  if (from === 'float16') {
    const table = float16Table();
    if (to === 'bool') for (let i = 0; i < n; i++) out[i] = table[src[i]!]! !== 0 ? 1 : 0;
    else for (let i = 0; i < n; i++) out[i] = table[src[i]!]!;
  } else if (to === 'float16') {
    for (let i = 0; i < n; i++) out[i] = float16Bits(src[i]!);
  } else if (to === 'bool' && from === 'number') {
    for (let i = 0; i < n; i++) out[i] = src[i] ? 1 : 0;
  } else if (to === 'bool') {
    for (let i = 0; i < n; i++) out[i] = src[i] !== 0 ? 1 : 0;
  } else if (ArrayBuffer.isView(src)) {
    out.set(src as TypedArray);
  } else {
    for (let i = 0; i < n; i++) out[i] = src[i]!;
  }
  return out;
}

/**
 * A new shared array of dtype `to` holding `src` (of dtype `from`) converted.
 * @example
 * castData(Float64Array.of(1, 0.1), 'float64', 'float16'); // Uint16Array [0x3c00, 0x2e66]
 */
export function castData(src: ArrayLike<number>, from: DType | 'number', to: DType): TypedArray {
  return castInto(allocate(to, src.length), to, src, from);
}
