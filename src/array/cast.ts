// Converting the data of one dtype to another, element by element, on the host.
// float16 data are bits: they are decoded when read and encoded (nearest-even) when written.
// int64 and uint64 convert through their 32-bit halves (int64.ts), never a BigInt each.
// complex data are interleaved parts: real → complex sets im = 0; complex → real keeps re.

import {
  allocate,
  type DType,
  isBigIntArray,
  isComplex,
  isInteger,
  type NumberArray,
  type TypedArray,
} from './dtype.ts';
import { float16Bits, float16Table } from './float16.ts';
import { bigIntoLowWords, bigIntoNumbers, numbersIntoBig } from './int64.ts';

/** Elements to cast: a TypedArray of dtype `from`, or plain JS numbers. */
type CastSource = ArrayLike<number> | TypedArray;

function castFromBig(out: TypedArray, to: DType, src: BigInt64Array | BigUint64Array): void {
  if (isBigIntArray(out)) {
    out.set(src);
  } else if (to === 'bool') {
    for (let i = 0; i < src.length; i++) out[i] = src[i] !== 0n ? 1 : 0;
  } else if (to === 'float16') {
    const tmp = new Float64Array(src.length);
    bigIntoNumbers(src, tmp);
    for (let i = 0; i < tmp.length; i++) out[i] = float16Bits(tmp[i]!);
  } else if (isInteger(to)) {
    bigIntoLowWords(src, out);
  } else {
    bigIntoNumbers(src, out);
  }
}

/**
 * Write `src` (values of dtype `from`; numbers for plain arrays) into `out` of dtype `to`:
 * integers wrap and floats truncate as TypedArray stores do, bool is `value !== 0` (plain JS
 * numbers: truthiness, so NaN gives false as it always has for nested input).
 */
export function castInto(
  out: TypedArray,
  to: DType,
  source: CastSource,
  from: DType | 'number',
): TypedArray {
  if ((from !== 'number' && isComplex(from)) || isComplex(to)) {
    return castComplex(out, to, source, from);
  }
  if (ArrayBuffer.isView(source) && isBigIntArray(source as TypedArray)) {
    castFromBig(out, to, source as BigInt64Array | BigUint64Array);
    return out;
  }
  const src = source as ArrayLike<number>;
  const n = src.length;
  if (isBigIntArray(out)) {
    if (from === 'float16') {
      const table = float16Table();
      numbersIntoBig(
        Array.from(src, (b) => table[b]!),
        out,
      );
    } else {
      numbersIntoBig(src, out);
    }
    return out;
  }
  const o: NumberArray = out;
  if (from === 'float16' && to === 'float16') {
    o.set(src);
    return out;
  }
  if (from === 'float16') {
    const table = float16Table();
    if (to === 'bool') for (let i = 0; i < n; i++) o[i] = table[src[i]!]! !== 0 ? 1 : 0;
    else for (let i = 0; i < n; i++) o[i] = table[src[i]!]!;
  } else if (to === 'float16') {
    for (let i = 0; i < n; i++) o[i] = float16Bits(src[i]!);
  } else if (to === 'bool' && from === 'number') {
    for (let i = 0; i < n; i++) o[i] = src[i] ? 1 : 0;
  } else if (to === 'bool') {
    for (let i = 0; i < n; i++) o[i] = src[i] !== 0 ? 1 : 0;
  } else if (ArrayBuffer.isView(src)) {
    o.set(src as NumberArray);
  } else {
    for (let i = 0; i < n; i++) o[i] = src[i]!;
  }
  return out;
}

/**
 * Casts where either side is complex. complex → complex copies the parts (complex64 rounds
 * them to float32); real → complex casts each value to float64 then stores (x, 0);
 * complex → real casts the real parts, as NumPy's astype does (with its ComplexWarning).
 * The lazy `astype` refuses complex → real instead (the Array API leaves it undefined).
 */
function castComplex(
  out: TypedArray,
  to: DType,
  source: CastSource,
  from: DType | 'number',
): TypedArray {
  const src = source as ArrayLike<number>;
  const fromComplex = from !== 'number' && isComplex(from);
  if (fromComplex && isComplex(to)) {
    (out as Float64Array).set(src);
    return out;
  }
  if (fromComplex) {
    const re = new Float64Array(src.length / 2);
    for (let i = 0; i < re.length; i++) re[i] = src[2 * i]!;
    return castInto(out, to, re, 'float64');
  }
  const n = src.length;
  const re = castInto(new Float64Array(n), 'float64', source, from) as Float64Array;
  const o = out as Float64Array;
  for (let i = 0; i < n; i++) {
    o[2 * i] = re[i]!;
    o[2 * i + 1] = 0;
  }
  return out;
}

/**
 * A new shared array of dtype `to` holding `src` (of dtype `from`) converted.
 * @example
 * castData(Float64Array.of(1, 0.1), 'float64', 'float16'); // Uint16Array [0x3c00, 0x2e66]
 * castData(Int32Array.of(-1), 'int32', 'int64'); // BigInt64Array [-1n]
 */
export function castData(src: CastSource, from: DType | 'number', to: DType): TypedArray {
  const n = from !== 'number' && isComplex(from) ? src.length / 2 : src.length;
  return castInto(allocate(to, n), to, src, from);
}
