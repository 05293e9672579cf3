// NDArray: an eager, host-resident, C-contiguous n-d array; the value of every block.
// Its data normally sits on a SharedArrayBuffer so worker threads share it without copies.

import { formatValue } from '../chunking/format.ts';
import { IndexError, ShapeError, ValueError } from '../errors.ts';
import { castData, castInto } from './cast.ts';
import { describe } from './check-options.ts';
import {
  allocate,
  bigIntRange,
  checkDType,
  type DType,
  dtypeOfTypedArray,
  elementWidth,
  integerRange,
  isBigDType,
  isBigIntArray,
  isComplex,
  type TypedArray,
} from './dtype.ts';
import { float16Value } from './float16.ts';
import { numberToBig } from './int64.ts';

/**
 * One element of a complex64 or complex128 array as JS reads and writes it: `get`, `item`
 * and `toNested` give these objects, and nested data holding them builds a complex array.
 */
export interface Complex {
  re: number;
  im: number;
}

export type Nested = number | bigint | boolean | Complex | Nested[];

/** True for a `{ re, im }` object (an element of nested complex data). */
export function isComplexValue(v: unknown): v is Complex {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    typeof (v as Complex).re === 'number' &&
    typeof (v as Complex).im === 'number'
  );
}

/** Options of {@link NDArray.toNested}. */
export interface ToNestedOptions {
  /**
   * Give int64 and uint64 elements as JS numbers instead of BigInts; a value a number
   * cannot hold exactly (beyond ±2^53) is a ValueError, never rounded.
   */
  numbers?: boolean;
}

/** A BigInt element as a JS number, exactly or not at all. */
export function exactNumber(fn: string, v: bigint): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) {
    throw new ValueError(
      `${fn}: value ${v} is beyond ±2^53, where JS numbers lose precision; read it as a BigInt`,
    );
  }
  return n;
}

/** Product of a shape's sizes. */
export function shapeSize(shape: readonly number[]): number {
  let n = 1;
  for (const s of shape) n *= s;
  return n;
}

/** C-order strides (in elements) of a shape. */
export function cStrides(shape: readonly number[]): number[] {
  const st = new Array<number>(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    st[i] = acc;
    acc *= shape[i]!;
  }
  return st;
}

/**
 * An eager n-d array: `{ dtype, shape, data }`, C-contiguous; what compute() gives.
 * complex64/complex128 data interleave the parts (re, im) in a Float32Array/Float64Array of
 * `2 * size` floats; their elements read as `{ re, im }` objects.
 * @example
 * const a = ndarray([[1, 2], [3, 4]]); // float64, shape [2, 2]
 * a.get(1, 0); // 3
 * a.toNested(); // [[1, 2], [3, 4]]
 */
export class NDArray {
  readonly dtype: DType;
  readonly shape: number[];
  readonly data: TypedArray;

  constructor(data: TypedArray, shape: readonly number[], dtype: DType) {
    const width = elementWidth(dtype);
    if (shapeSize(shape) * width !== data.length) {
      const what =
        width === 1 ? `${data.length}` : `${data.length / width} (${data.length} floats)`;
      throw new ShapeError(
        `ndarray: shape [${shape.join(', ')}] holds ${shapeSize(shape)} elements, data has ${what}`,
      );
    }
    this.data = data;
    this.shape = [...shape];
    this.dtype = dtype;
  }

  get ndim(): number {
    return this.shape.length;
  }

  get size(): number {
    return shapeSize(this.shape);
  }

  /**
   * Read one element (a BigInt for int64 and uint64, `{ re, im }` for complex); negative
   * indices count from the end.
   */
  get(...index: number[]): number | bigint | Complex {
    if (index.length !== this.shape.length) {
      throw new IndexError(
        `NDArray.get: ${index.length} indices for a ${this.shape.length}-d array`,
      );
    }
    let off = 0;
    let stride = 1;
    for (let ax = this.shape.length - 1; ax >= 0; ax--) {
      const n = this.shape[ax]!;
      let i = index[ax]!;
      if (i < 0) i += n;
      if (!Number.isInteger(i) || i < 0 || i >= n) {
        throw new IndexError(
          `NDArray.get: index ${index[ax]} out of bounds for axis ${ax} of size ${n}`,
        );
      }
      off += i * stride;
      stride *= n;
    }
    if (isComplex(this.dtype)) return complexAt(this.data, off);
    const v = this.data[off]!;
    return this.dtype === 'float16' ? float16Value(v as number) : v;
  }

  /**
   * The one value of a 0-d or size-1 array, as a JS scalar: a boolean for 'bool', a BigInt
   * for int64 and uint64, `{ re, im }` for complex, a number otherwise (float16 decoded). A
   * bigger array is a ValueError.
   * @example
   * const total = await compute(ones([10, 10], { chunks: 5 }).sum());
   * total.item(); // 100
   * (await compute(ones([3]).greater(0).all())).item(); // true
   */
  item(): number | bigint | boolean | Complex {
    if (this.size !== 1) {
      throw new ValueError(
        `item: the array has ${this.size} elements (shape [${this.shape.join(', ')}]); item() needs exactly one`,
      );
    }
    if (isComplex(this.dtype)) return complexAt(this.data, 0);
    const v = this.data[0]!;
    if (this.dtype === 'bool') return v !== 0;
    return this.dtype === 'float16' ? float16Value(v as number) : v;
  }

  /**
   * Nested JS arrays (booleans for 'bool', decoded numbers for 'float16', BigInts for int64
   * and uint64 unless `{ numbers: true }`, `{ re, im }` objects for complex); 0-d: the scalar.
   * @example
   * ndarray([[1, 2], [3, 4]]).toNested(); // [[1, 2], [3, 4]]
   * ndarray(BigInt64Array.of(1n, 2n)).toNested(); // [1n, 2n]
   * ndarray(BigInt64Array.of(1n, 2n)).toNested({ numbers: true }); // [1, 2]
   */
  toNested(opts: ToNestedOptions = {}): Nested {
    const isBool = this.dtype === 'bool';
    if (isComplex(this.dtype)) return this.nestedComplex();
    const data: ArrayLike<number | bigint> =
      this.dtype === 'float16' || (opts.numbers === true && isBigIntArray(this.data))
        ? this.toArray()
        : this.data;
    const build = (axis: number, off: number): Nested => {
      if (axis === this.shape.length) return isBool ? data[off] !== 0 : data[off]!;
      const stride = shapeSize(this.shape.slice(axis + 1));
      const out: Nested[] = [];
      for (let i = 0; i < this.shape[axis]!; i++) out.push(build(axis + 1, off + i * stride));
      return out;
    };
    return build(0, 0);
  }

  private nestedComplex(): Nested {
    const build = (axis: number, off: number): Nested => {
      if (axis === this.shape.length) return complexAt(this.data, off);
      const stride = shapeSize(this.shape.slice(axis + 1));
      const out: Nested[] = [];
      for (let i = 0; i < this.shape[axis]!; i++) out.push(build(axis + 1, off + i * stride));
      return out;
    };
    return build(0, 0);
  }

  /**
   * Flat JS number array (C order; float16 bits decoded; int64 and uint64 as numbers, a
   * value beyond ±2^53 being a ValueError rather than rounded; complex: the parts
   * interleaved, re0, im0, re1, im1, …, as stored).
   * @example
   * ndarray([[1, 2], [3, 4]]).toArray(); // [1, 2, 3, 4]
   */
  toArray(): number[] {
    const d = this.data;
    if (isBigIntArray(d)) return Array.from(d, (v) => exactNumber('toArray', v));
    return this.dtype === 'float16' ? Array.from(d, float16Value) : Array.from(d);
  }
}

/** Element `i` of interleaved complex storage. */
function complexAt(data: TypedArray, i: number): Complex {
  return { re: data[2 * i] as number, im: data[2 * i + 1] as number };
}

/**
 * Flatten nested JS arrays, checking that they are rectangular. Complex elements (`{ re,
 * im }`, see {@link Complex}) come out as their two parts and set `complex`; nested data
 * mixing them with numbers reads a number x as { re: x, im: 0 }.
 */
export function flattenNested(
  fn: string,
  nested: Nested,
): { values: (number | bigint)[]; shape: number[]; complex?: boolean } {
  const shape: number[] = [];
  let probe: Nested = nested;
  while (Array.isArray(probe)) {
    shape.push(probe.length);
    probe = probe[0] as Nested;
  }
  const values: (number | bigint)[] = [];
  let bigs = 0;
  let complexes = 0;
  const walk = (v: Nested, axis: number): void => {
    if (axis === shape.length) {
      if (Array.isArray(v))
        throw new ShapeError(`${fn}: nested data is ragged (too deep at axis ${axis})`);
      if (isComplexValue(v)) {
        complexes++;
        values.push(v.re, v.im);
        return;
      }
      if (typeof v !== 'number' && typeof v !== 'boolean' && typeof v !== 'bigint') {
        throw new ValueError(
          `${fn}: nested data holds ${describe(v)}; elements are numbers, BigInts, booleans or { re, im }`,
        );
      }
      if (typeof v === 'bigint') bigs++;
      values.push(typeof v === 'boolean' ? Number(v) : v);
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[axis]) {
      throw new ShapeError(
        `${fn}: nested data is ragged at axis ${axis}: expected length ${shape[axis]}`,
      );
    }
    for (const e of v) walk(e, axis + 1);
  };
  walk(nested, 0);
  if (complexes > 0) return { values: complexValues(fn, nested, shape), shape, complex: true };
  // JS never mixes the two in arithmetic (1 + 2n throws): neither does nested data
  if (bigs > 0 && bigs < values.length) {
    throw new ValueError(
      `${fn}: nested data mixes numbers and BigInts; give all as BigInts (int64) or all as numbers`,
    );
  }
  return { values, shape };
}

/** Nested data holding `{ re, im }` elements as interleaved parts (numbers: im = 0). */
function complexValues(fn: string, nested: Nested, shape: readonly number[]): number[] {
  const out: number[] = [];
  const walk = (v: Nested, axis: number): void => {
    if (axis < shape.length) {
      for (const e of v as Nested[]) walk(e, axis + 1);
    } else if (isComplexValue(v)) {
      out.push(v.re, v.im);
    } else if (typeof v === 'bigint') {
      throw new ValueError(`${fn}: nested data mixes BigInts and complex values`);
    } else {
      out.push(Number(v), 0);
    }
  };
  walk(nested, 0);
  return out;
}

/**
 * Throw ValueError when a JS number or BigInt (not a TypedArray element) given for an
 * integer dtype does not fit it, as NumPy 2 raises OverflowError for
 * `np.asarray([300], dtype=np.int8)`: NaN and ±Infinity never fit; a fraction truncates as a
 * cast does. Data already in a TypedArray are cast instead (they wrap, as NumPy's astype does).
 * @example
 * checkNumbersFit('asarray', [1, 300], 'int8'); // ValueError: asarray: value 300 does not fit dtype 'int8'
 */
export function checkNumbersFit(
  fn: string,
  values: ArrayLike<number | bigint>,
  dtype: DType,
): void {
  const range = integerRange(dtype);
  if (range === undefined) return;
  const [lo, hi] = isBigDType(dtype) ? bigIntRange(dtype) : range;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const fits =
      typeof v === 'bigint' ? v >= lo && v <= hi : v > Number(lo) - 1 && v < Number(hi) + 1;
    // NaN fails both comparisons, so it never fits; 2^63 as a double is past int64's max
    if (!fits || (typeof v === 'number' && dtype === 'int64' && v >= 2 ** 63)) {
      throw new ValueError(`${fn}: value ${formatValue(v)} does not fit dtype '${dtype}'`);
    }
  }
}

/**
 * Shared storage of dtype `dtype` for JS numbers and BigInts (nested input, flattened),
 * each checked to fit an integer dtype first.
 * @example
 * valuesData('ndarray', [1n, 2], 'int64'); // BigInt64Array [1n, 2n]
 */
export function valuesData(fn: string, values: (number | bigint)[], dtype: DType): TypedArray {
  checkNumbersFit(fn, values, dtype);
  if (isComplex(dtype)) {
    // real values: each is re with im = 0 (complex nested data gives both parts already)
    const out = allocate(dtype, values.length);
    for (let i = 0; i < values.length; i++) out[2 * i] = Number(values[i]!);
    return out;
  }
  const out = allocate(dtype, values.length);
  if (isBigIntArray(out)) {
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      out[i] = typeof v === 'bigint' ? v : numberToBig(v);
    }
    return out;
  }
  const nums = values.map((v) => (typeof v === 'bigint' ? Number(v) : v));
  return castInto(out, dtype, nums, 'number');
}

/**
 * Build an NDArray from a TypedArray, flat numbers or nested arrays (BigInts give int64,
 * `{ re, im }` objects complex128). A Float32Array/Float64Array given with dtype complex64/
 * complex128 holds the parts interleaved (its length is twice the size).
 * @example
 * const a = ndarray([1, 2, 3, 4], [2, 2], 'int32');
 * a.get(1, 0); // 3
 * ndarray([{ re: 1, im: 2 }]).get(0); // { re: 1, im: 2 } (complex128)
 */
export function ndarray(
  data: TypedArray | number[] | Nested,
  shape?: readonly number[],
  dtype?: DType,
): NDArray {
  if (ArrayBuffer.isView(data)) {
    const dt = dtype === undefined ? dtypeOfTypedArray(data) : checkDType('ndarray', dtype);
    // A Uint16Array given as float16 holds its bits; any other data are values.
    const own = dtypeOfTypedArray(data);
    if (isComplex(dt) && (own === 'float32' || own === 'float64')) {
      const sh = shape ?? [data.length / 2];
      return own === (dt === 'complex64' ? 'float32' : 'float64')
        ? new NDArray(data, sh, dt)
        : new NDArray(castData(data, own === 'float32' ? 'complex64' : 'complex128', dt), sh, dt);
    }
    const sh = shape ?? [data.length];
    if (
      own === dt ||
      (dt === 'bool' && data instanceof Uint8Array) ||
      (dt === 'float16' && data instanceof Uint16Array)
    ) {
      return new NDArray(data, sh, dt);
    }
    return new NDArray(castData(data, own, dt), sh, dt);
  }
  const { values, shape: nestedShape, complex } = flattenNested('ndarray', data);
  const dt =
    dtype === undefined
      ? complex
        ? 'complex128'
        : inferDType(data)
      : checkDType('ndarray', dtype);
  if (complex) return complexNDArray(values as number[], shape ?? nestedShape, dt);
  return new NDArray(valuesData('ndarray', values, dt), shape ?? nestedShape, dt);
}

/**
 * `x` with its values converted to `dtype` (decoding or encoding float16 bits).
 * @example
 * castNDArray(ndarray([1.5, 2]), 'float16').data; // Uint16Array [0x3e00, 0x4000]
 */
export function castNDArray(x: NDArray, dtype: DType): NDArray {
  return x.dtype === dtype ? x : new NDArray(castData(x.data, x.dtype, dtype), x.shape, dtype);
}

/** Interleaved parts as an array of `dtype` (a real dtype keeps the real parts, as a cast). */
function complexNDArray(parts: number[], shape: readonly number[], dtype: DType): NDArray {
  const out = allocate('complex128', parts.length / 2);
  out.set(parts);
  return castNDArray(new NDArray(out, shape, 'complex128'), dtype);
}

function inferDType(data: Nested): DType {
  let probe: Nested = data;
  while (Array.isArray(probe)) probe = probe[0] as Nested;
  if (typeof probe === 'bigint') return 'int64';
  return typeof probe === 'boolean' ? 'bool' : 'float64';
}

/** A new zero-filled shared NDArray. */
export function emptyNDArray(shape: readonly number[], dtype: DType): NDArray {
  return new NDArray(allocate(dtype, shapeSize(shape)), shape, dtype);
}
