// Data types, their storage, and type promotion.
// Promotion follows the Array API standard's table (NumPy's for mixed kinds); JS numbers are weak.
// float16 is stored as IEEE binary16 bits in a Uint16Array (float16.ts converts them).
// complex64/complex128 store each element as two floats, re then im (interleaved).

import { DTypeError } from '../errors.ts';
import { POOL_MIN_BYTES, pooledBuffer, slabBuffer, takeFreshBytes } from './buffer-pool.ts';

/** The element types an array can hold (NumPy names). */
export type DType =
  | 'float64'
  | 'float32'
  | 'float16'
  | 'int64'
  | 'int32'
  | 'int16'
  | 'int8'
  | 'uint64'
  | 'uint32'
  | 'uint16'
  | 'uint8'
  | 'bool'
  | 'complex64'
  | 'complex128';

/** The storage of every dtype whose elements are JS numbers (all but int64 and uint64). */
export type NumberArray =
  | Float64Array
  | Float32Array
  | Int32Array
  | Int16Array
  | Int8Array
  | Uint32Array
  | Uint16Array
  | Uint8Array;

/** The storage of int64 and uint64: elements are BigInts. */
export type BigIntArray = BigInt64Array | BigUint64Array;

/** The JavaScript storage of a block: the TypedArray class each dtype uses. */
export type TypedArray = NumberArray | BigIntArray;

/** The storage class of each dtype, by name. */
export interface StorageMap {
  float64: Float64Array;
  float32: Float32Array;
  float16: Uint16Array;
  int64: BigInt64Array;
  int32: Int32Array;
  int16: Int16Array;
  int8: Int8Array;
  uint64: BigUint64Array;
  uint32: Uint32Array;
  uint16: Uint16Array;
  uint8: Uint8Array;
  bool: Uint8Array;
  complex64: Float32Array;
  complex128: Float64Array;
}

/** The storage of dtype `D` (the whole union for a dtype known only at run time). */
export type StorageOf<D extends DType> = StorageMap[D];

type TypedArrayCtor = {
  new (length: number): TypedArray;
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): TypedArray;
  readonly BYTES_PER_ELEMENT: number;
};

const ctors: Record<DType, TypedArrayCtor> = {
  float64: Float64Array,
  float32: Float32Array,
  float16: Uint16Array,
  int64: BigInt64Array,
  int32: Int32Array,
  int16: Int16Array,
  int8: Int8Array,
  uint64: BigUint64Array,
  uint32: Uint32Array,
  uint16: Uint16Array,
  uint8: Uint8Array,
  bool: Uint8Array,
  complex64: Float32Array,
  complex128: Float64Array,
};

export const DTYPES: readonly DType[] = Object.keys(ctors) as DType[];

/** True when `x` names a dtype. */
export function isDType(x: unknown): x is DType {
  return typeof x === 'string' && x in ctors;
}

/** Validate a dtype argument; `fn` names the caller for the message. */
export function checkDType(fn: string, x: unknown): DType {
  if (!isDType(x)) {
    throw new DTypeError(
      `${fn}: unknown dtype ${JSON.stringify(x)}; expected one of ${DTYPES.join(', ')}`,
    );
  }
  return x;
}

/** The TypedArray constructor that stores `dtype`. */
export function typedArrayCtor(dtype: DType): TypedArrayCtor {
  return ctors[dtype];
}

/** The complex dtypes: each element is two floats (re, im) of their storage. */
export const isComplex = (d: DType): d is 'complex64' | 'complex128' =>
  d === 'complex64' || d === 'complex128';

/**
 * Storage slots per element: 2 for complex dtypes (re, im interleaved), 1 otherwise. A
 * block of `n` elements of a complex dtype has `data.length === 2 * n`.
 * @example
 * elementWidth('complex64'); // 2
 */
export function elementWidth(dtype: DType): number {
  return isComplex(dtype) ? 2 : 1;
}

/**
 * The real dtype of a complex dtype's parts (float32 for complex64, float64 for complex128);
 * any other dtype is its own.
 * @example
 * realDType('complex64'); // 'float32'
 */
export function realDType(dtype: DType): DType {
  if (dtype === 'complex64') return 'float32';
  return dtype === 'complex128' ? 'float64' : dtype;
}

/**
 * The complex dtype whose parts are `dtype` (complex64 for float32 and float16, complex128
 * for every other real dtype, as NumPy); a complex dtype is its own.
 * @example
 * complexDType('float32'); // 'complex64'
 * complexDType('int16'); // 'complex128'
 */
export function complexDType(dtype: DType): 'complex64' | 'complex128' {
  if (isComplex(dtype)) return dtype;
  return dtype === 'float32' || dtype === 'float16' ? 'complex64' : 'complex128';
}

/** Bytes per element (16 for complex128: two float64 parts). */
export function itemsize(dtype: DType): number {
  return ctors[dtype].BYTES_PER_ELEMENT * elementWidth(dtype);
}

// Creating a SharedArrayBuffer costs microseconds, as much as a whole small task: small
// arrays are carved from shared slabs instead (a slab lives while any view of it does).
// Larger ones take a buffer this thread's pool has free, or a fresh one (buffer-pool.ts).
const SLAB_BYTES = 256 * 1024;
const SMALL_BYTES = POOL_MIN_BYTES;
let slab = slabBuffer(SLAB_BYTES);
let slabUsed = 0;
// Bytes of SharedArrayBuffers created on this thread since takeAllocatedBytes() last ran:
// V8 does not count shared memory toward its GC heuristics, so threads that drop many
// blocks collect garbage on this count (workers/collect.ts).
let allocatedBytes = 0;

/**
 * Shared bytes allocated on this thread since the last call (and reset the count).
 * @example
 * allocate('float64', 2 ** 20);
 * takeAllocatedBytes(); // 8388608
 */
export function takeAllocatedBytes(): number {
  const n = allocatedBytes + takeFreshBytes();
  allocatedBytes = 0;
  return n;
}

/**
 * A zeroed TypedArray of `length` elements on a SharedArrayBuffer, so worker threads
 * can read and write it without copies (complex: `2 * length` floats, re and im).
 * @example
 * const a = allocate('float32', 1024); // Float32Array on shared memory
 */
export function allocate<D extends DType>(dtype: D, length: number): StorageOf<D> {
  return allocateAny(dtype, length) as StorageOf<D>;
}

function allocateAny(dtype: DType, elements: number): TypedArray {
  const C = ctors[dtype];
  const length = elements * elementWidth(dtype);
  const bytes = length * C.BYTES_PER_ELEMENT;
  if (bytes > SMALL_BYTES) {
    return new C(pooledBuffer(bytes), 0, length);
  }
  if (slabUsed + bytes > SLAB_BYTES) {
    allocatedBytes += SLAB_BYTES;
    slab = slabBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const out = new C(slab, slabUsed, length);
  slabUsed += (bytes + 7) & ~7;
  return out;
}

/**
 * {@link allocate} for a kernel that writes every element before it reads any: a reused
 * buffer is not zeroed first (a new one is zero anyway). Small blocks come from the slab.
 * @example
 * const c = allocateUnzeroed('float64', m * n) as Float64Array; // dgemm with beta 0 fills it
 */
export function allocateUnzeroed<D extends DType>(dtype: D, length: number): StorageOf<D> {
  const C = ctors[dtype];
  const slots = length * elementWidth(dtype);
  const bytes = slots * C.BYTES_PER_ELEMENT;
  return (
    bytes > SMALL_BYTES ? new C(pooledBuffer(bytes, false), 0, slots) : allocateAny(dtype, length)
  ) as StorageOf<D>;
}

/** The dtype a TypedArray stores (Uint8Array reads as uint8, Uint16Array as uint16). */
export function dtypeOfTypedArray(data: TypedArray): DType {
  if (data instanceof Float64Array) return 'float64';
  if (data instanceof Float32Array) return 'float32';
  if (data instanceof Int32Array) return 'int32';
  if (data instanceof Int16Array) return 'int16';
  if (data instanceof Int8Array) return 'int8';
  if (data instanceof Uint32Array) return 'uint32';
  if (data instanceof BigInt64Array) return 'int64';
  if (data instanceof BigUint64Array) return 'uint64';
  if (data instanceof Uint16Array) return 'uint16';
  return 'uint8';
}

export type DTypeKind = 'bool' | 'int' | 'uint' | 'float' | 'complex';

export function kindOf(dtype: DType): DTypeKind {
  if (dtype === 'bool') return 'bool';
  if (dtype.startsWith('complex')) return 'complex';
  if (dtype.startsWith('float')) return 'float';
  return dtype.startsWith('uint') ? 'uint' : 'int';
}

export const isFloat = (d: DType): boolean => kindOf(d) === 'float';
/** int64 and uint64: their elements are BigInts. */
export const isBigDType = (d: DType): d is 'int64' | 'uint64' => d === 'int64' || d === 'uint64';
/** True when `data` holds BigInts (int64 or uint64 storage). */
export const isBigIntArray = (data: TypedArray): data is BigIntArray =>
  data instanceof BigInt64Array || data instanceof BigUint64Array;
/**
 * `data` as number storage, for kernels that take no int64 or uint64 (the build-time dtype
 * gate in apply/dispatch-layer.ts keeps those dtypes from them): BigInt storage reaching one
 * is an engine bug, reported as a DTypeError rather than computed wrongly.
 * @example
 * const d = numberData(block.data, 'histogram'); // Float64Array | Int32Array | …
 */
export function numberData(data: TypedArray, kernel = 'kernel'): NumberArray {
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    throw new DTypeError(`${kernel}: int64/uint64 data reached a kernel that takes numbers only`);
  }
  return data;
}
export const isInteger = (d: DType): boolean => kindOf(d) === 'int' || kindOf(d) === 'uint';

/**
 * The dtype integer sums and products accumulate in (the Array API's default integer):
 * int64 for signed integers and bool, uint64 for unsigned ones; floats keep their dtype.
 * @example
 * sumDType('int8'); // 'int64'
 * sumDType('uint16'); // 'uint64'
 * sumDType('float32'); // 'float32'
 */
export function sumDType(d: DType): DType {
  const k = kindOf(d);
  if (k === 'float' || k === 'complex') return d;
  return k === 'uint' ? 'uint64' : 'int64';
}

const bits = (d: DType): number => itemsize(d) * 8;

function promoteInts(a: DType, b: DType): DType {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka === kb) return bits(a) >= bits(b) ? a : b;
  const [s, u] = ka === 'int' ? [a, b] : [b, a];
  // A signed type holding every value of the unsigned one; none holds uint64, so
  // uint64 + intN goes to float64 (NumPy's choice).
  const need = bits(u) * 2;
  if (bits(s) >= need) return s;
  if (need === 16) return 'int16';
  if (need === 32) return 'int32';
  if (need === 64) return 'int64';
  return 'float64';
}

/**
 * The dtype of a binary operation on arrays of dtypes `a` and `b`.
 * @example
 * promoteTypes('int16', 'int32'); // 'int32'
 * promoteTypes('uint8', 'int8'); // 'int16'
 * promoteTypes('float16', 'int16'); // 'float32'
 * promoteTypes('float64', 'complex64'); // 'complex128'
 */
export function promoteTypes(a: DType, b: DType): DType {
  if (a === b) return a;
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka === 'bool') return b;
  if (kb === 'bool') return a;
  if (ka === 'complex' || kb === 'complex') {
    // the complex dtype whose parts hold both: float32 (or float16) parts only from complex64
    // with float32/float16/complex64; every integer widens to complex128 (NumPy)
    const parts = promoteTypes(realDType(a), realDType(b));
    return parts === 'float32' || parts === 'float16' ? 'complex64' : 'complex128';
  }
  if (ka === 'float' && kb === 'float') return bits(a) >= bits(b) ? a : b;
  if (ka === 'float' || kb === 'float') {
    // The narrowest float holding every value of the integer type (NumPy's table).
    const [f, i] = ka === 'float' ? [a, b] : [b, a];
    if (f === 'float64' || bits(i) > 16) return 'float64';
    return f === 'float16' && bits(i) === 8 ? 'float16' : 'float32';
  }
  return promoteInts(a, b);
}

/** A JS scalar taking part in an operation: weak, it never widens an array's dtype. */
export type Scalar = number | boolean;

/**
 * The result dtype of an operation over arrays (dtypes) and weak JS scalars.
 * @example
 * resultType('float32', 2.5); // 'float32'
 * resultType('int32', 0.5); // 'float64'
 */
export function resultType(...args: (DType | Scalar)[]): DType {
  let out: DType | undefined;
  for (const a of args)
    if (typeof a === 'string') out = out === undefined ? a : promoteTypes(out, a);
  const scalars = args.filter((a): a is Scalar => typeof a !== 'string');
  if (out === undefined) {
    if (scalars.length === 0) throw new DTypeError('resultType: no arguments');
    if (scalars.every((s) => typeof s === 'boolean')) return 'bool';
    return 'float64';
  }
  for (const s of scalars) {
    if (typeof s === 'boolean') continue;
    const k = kindOf(out);
    if (k === 'float' || k === 'complex') continue;
    if (!Number.isInteger(s)) out = 'float64';
    else if (k === 'bool') out = 'int32';
  }
  return out;
}

const INT_RANGE: Partial<Record<DType, readonly [number, number]>> = {
  int8: [-(2 ** 7), 2 ** 7 - 1],
  int16: [-(2 ** 15), 2 ** 15 - 1],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint8: [0, 2 ** 8 - 1],
  uint16: [0, 2 ** 16 - 1],
  uint32: [0, 2 ** 32 - 1],
  int64: [-(2 ** 63), 2 ** 63 - 1],
  uint64: [0, 2 ** 64 - 1],
};

const BIG_RANGE: Record<'int64' | 'uint64', readonly [bigint, bigint]> = {
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/**
 * The exact [min, max] of int64 or uint64 as BigInts.
 * @example
 * bigIntRange('int64'); // [-9223372036854775808n, 9223372036854775807n]
 */
export function bigIntRange(d: 'int64' | 'uint64'): readonly [bigint, bigint] {
  return BIG_RANGE[d];
}

/**
 * The [min, max] of an integer dtype (undefined for floats and bool).
 * @example
 * integerRange('int8'); // [-128, 127]
 */
export function integerRange(d: DType): readonly [number, number] | undefined {
  return INT_RANGE[d];
}
