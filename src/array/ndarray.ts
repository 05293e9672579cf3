// NDArray: an eager, host-resident, C-contiguous n-d array; the value of every block.
// Its data normally sits on a SharedArrayBuffer so worker threads share it without copies.

import { formatValue } from '../chunking/format.ts';
import { IndexError, ShapeError, ValueError } from '../errors.ts';
import { castData } from './cast.ts';
import { describe } from './check-options.ts';
import {
  allocate,
  checkDType,
  type DType,
  dtypeOfTypedArray,
  integerRange,
  type TypedArray,
} from './dtype.ts';
import { float16Value } from './float16.ts';

export type Nested = number | boolean | Nested[];

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
    if (shapeSize(shape) !== data.length) {
      throw new ShapeError(
        `ndarray: shape [${shape.join(', ')}] holds ${shapeSize(shape)} elements, data has ${data.length}`,
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
    return this.data.length;
  }

  /** Read one element; negative indices count from the end. */
  get(...index: number[]): number {
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
    return this.dtype === 'float16' ? float16Value(this.data[off]!) : this.data[off]!;
  }

  /**
   * The one value of a 0-d or size-1 array, as a JS scalar: a boolean for 'bool', a number
   * otherwise (float16 decoded). A bigger array is a ValueError.
   * @example
   * const total = await compute(ones([10, 10], { chunks: 5 }).sum());
   * total.item(); // 100
   * (await compute(ones([3]).greater(0).all())).item(); // true
   */
  item(): number | boolean {
    if (this.data.length !== 1) {
      throw new ValueError(
        `item: the array has ${this.data.length} elements (shape [${this.shape.join(', ')}]); item() needs exactly one`,
      );
    }
    const v = this.data[0]!;
    if (this.dtype === 'bool') return v !== 0;
    return this.dtype === 'float16' ? float16Value(v) : v;
  }

  /** Nested JS arrays (booleans for 'bool', decoded numbers for 'float16'); 0-d: the scalar. */
  toNested(): Nested {
    const isBool = this.dtype === 'bool';
    const data = this.dtype === 'float16' ? this.toArray() : this.data;
    const build = (axis: number, off: number): Nested => {
      if (axis === this.shape.length) return isBool ? data[off] !== 0 : data[off]!;
      const stride = shapeSize(this.shape.slice(axis + 1));
      const out: Nested[] = [];
      for (let i = 0; i < this.shape[axis]!; i++) out.push(build(axis + 1, off + i * stride));
      return out;
    };
    return build(0, 0);
  }

  /** Flat JS number array (C order; float16 bits decoded). */
  toArray(): number[] {
    return this.dtype === 'float16' ? Array.from(this.data, float16Value) : Array.from(this.data);
  }
}

/** Flatten nested JS arrays, checking that they are rectangular. */
export function flattenNested(fn: string, nested: Nested): { values: number[]; shape: number[] } {
  const shape: number[] = [];
  let probe: Nested = nested;
  while (Array.isArray(probe)) {
    shape.push(probe.length);
    probe = probe[0] as Nested;
  }
  const values: number[] = [];
  const walk = (v: Nested, axis: number): void => {
    if (axis === shape.length) {
      if (Array.isArray(v))
        throw new ShapeError(`${fn}: nested data is ragged (too deep at axis ${axis})`);
      if (typeof v !== 'number' && typeof v !== 'boolean') {
        throw new ValueError(
          `${fn}: nested data holds ${describe(v)}; elements are numbers or booleans`,
        );
      }
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
  return { values, shape };
}

/**
 * Throw ValueError when a JS number (not a TypedArray element) given for an integer dtype
 * does not fit it, as NumPy 2 raises OverflowError for `np.asarray([300], dtype=np.int8)`:
 * NaN and ±Infinity never fit; a fraction truncates as a cast does. Data already in a
 * TypedArray are cast instead (they wrap, as NumPy's astype does).
 * @example
 * checkNumbersFit('asarray', [1, 300], 'int8'); // ValueError: asarray: value 300 does not fit dtype 'int8'
 */
export function checkNumbersFit(fn: string, values: ArrayLike<number>, dtype: DType): void {
  const range = integerRange(dtype);
  if (range === undefined) return;
  const [lo, hi] = range;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    // NaN fails both comparisons, so it is tested on its own
    if (!(v > lo - 1 && v < hi + 1)) {
      throw new ValueError(`${fn}: value ${formatValue(v)} does not fit dtype '${dtype}'`);
    }
  }
}

/**
 * Build an NDArray from a TypedArray, flat numbers or nested arrays.
 * @example
 * const a = ndarray([1, 2, 3, 4], [2, 2], 'int32');
 * a.get(1, 0); // 3
 */
export function ndarray(
  data: TypedArray | number[] | Nested,
  shape?: readonly number[],
  dtype?: DType,
): NDArray {
  if (ArrayBuffer.isView(data)) {
    const dt = dtype === undefined ? dtypeOfTypedArray(data) : checkDType('ndarray', dtype);
    const sh = shape ?? [data.length];
    // A Uint16Array given as float16 holds its bits; any other data are values.
    const own = dtypeOfTypedArray(data);
    if (
      own === dt ||
      (dt === 'bool' && data instanceof Uint8Array) ||
      (dt === 'float16' && data instanceof Uint16Array)
    ) {
      return new NDArray(data, sh, dt);
    }
    return new NDArray(castData(data, own, dt), sh, dt);
  }
  const { values, shape: nestedShape } = flattenNested('ndarray', data);
  const dt = dtype === undefined ? inferDType(data) : checkDType('ndarray', dtype);
  checkNumbersFit('ndarray', values, dt);
  return new NDArray(castData(values, 'number', dt), shape ?? nestedShape, dt);
}

/**
 * `x` with its values converted to `dtype` (decoding or encoding float16 bits).
 * @example
 * castNDArray(ndarray([1.5, 2]), 'float16').data; // Uint16Array [0x3e00, 0x4000]
 */
export function castNDArray(x: NDArray, dtype: DType): NDArray {
  return x.dtype === dtype ? x : new NDArray(castData(x.data, x.dtype, dtype), x.shape, dtype);
}

function inferDType(data: Nested): DType {
  let probe: Nested = data;
  while (Array.isArray(probe)) probe = probe[0] as Nested;
  return typeof probe === 'boolean' ? 'bool' : 'float64';
}

/** A new zero-filled shared NDArray. */
export function emptyNDArray(shape: readonly number[], dtype: DType): NDArray {
  return new NDArray(allocate(dtype, shapeSize(shape)), shape, dtype);
}
