// Index items as x.get and x.set take them: NumPy text, one item or a tuple, turned into the
// IndexItems of chunking/; bool lists become positions, a lazy integer array is set aside.

import { isBigIntArray, isInteger, type TypedArray } from '../array/dtype.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { NDArray } from '../array/ndarray.ts';
import { formatTuple } from '../chunking/format.ts';
import { type IndexItem, parseIndex } from '../chunking/parse-index.ts';
import { IndexError } from '../errors.ts';

/** One index item: an IndexItem, a 1-D integer NDArray, a bool list along one axis, or a lazy 1-D integer array. */
export type IndexArg = IndexItem | NDArray | readonly boolean[] | LazyArray;

/** What x.get/x.set accept: NumPy text, one item, a tuple of items, or a bool LazyArray mask. */
export type Index = string | IndexArg | readonly IndexArg[] | LazyArray;

/** A bool list along one axis: its true positions, and its length (the axis must match). */
interface BoolItem {
  readonly at: number;
  readonly length: number;
}

/** What toItems found: the items, a bool list's length, and a lazy integer array's place. */
export interface Items {
  readonly items: IndexItem[];
  readonly bool?: BoolItem;
  readonly lazy?: { readonly at: number; readonly array: LazyArray };
}

const isBoolList = (v: unknown): v is readonly boolean[] =>
  Array.isArray(v) && v.length > 0 && v.every((b) => typeof b === 'boolean');

/** Positions of the true values. */
function truePositions(values: ArrayLikeOf): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (values[i]) out.push(i);
  return Int32Array.from(out);
}
type ArrayLikeOf = { readonly length: number; readonly [i: number]: unknown };

const INT32_MIN = -(2n ** 31n);
const INT32_END = 2n ** 31n;

/**
 * An integer index array's values as int32 positions. int64 and uint64 values (BigInts) out
 * of int32 range are out of bounds of any axis an Int32Array indexes: an IndexError, never
 * wrapped into a valid-looking position.
 */
function int32Positions(fn: string, data: TypedArray): Int32Array {
  if (!isBigIntArray(data)) return Int32Array.from(data);
  const out = new Int32Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (v < INT32_MIN || v >= INT32_END) {
      throw new IndexError(`${fn}: index ${v} at position ${i} is out of bounds`);
    }
    out[i] = Number(v);
  }
  return out;
}

/**
 * Index items from any accepted form: NDArrays become Int32Arrays, a bool list (or bool
 * NDArray) its true positions; a lazy 1-D integer array is set aside for takeLazy.
 */
export function toItems(fn: string, index: Exclude<Index, LazyArray>): Items {
  const raw: readonly unknown[] =
    typeof index === 'string' ? parseIndex(index, fn) : Array.isArray(index) ? index : [index];
  let bool: BoolItem | undefined;
  let lazy: Items['lazy'];
  const items = raw.map((item, at) => {
    if (item instanceof LazyArray) {
      if (lazy !== undefined || item.ndim !== 1 || !isInteger(item.dtype)) {
        throw new IndexError(
          `${fn}: a lazy array inside an index tuple must be one 1-D integer array; got ${item.name} of dtype '${item.dtype}' and shape ${formatTuple(item.shape)} (a bool mask must be the whole index)`,
        );
      }
      lazy = { at, array: item };
      return {};
    }
    if (isBoolList(item) || (item instanceof NDArray && item.dtype === 'bool')) {
      const values = item instanceof NDArray ? item.data : item;
      if (item instanceof NDArray && item.ndim !== 1) {
        throw new IndexError(
          `${fn}: a bool index array of shape ${formatTuple(item.shape)} inside a tuple must be 1-D`,
        );
      }
      bool = { at, length: values.length };
      return truePositions(values);
    }
    if (!(item instanceof NDArray)) return item as IndexItem;
    if (!isInteger(item.dtype) || item.ndim !== 1) {
      throw new IndexError(
        `${fn}: index array of dtype '${item.dtype}' and shape ${formatTuple(item.shape)} is not a 1-D integer array`,
      );
    }
    return int32Positions(fn, item.data);
  });
  return { items, ...(bool ? { bool } : {}), ...(lazy ? { lazy } : {}) };
}
