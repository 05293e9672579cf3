// asarray: the Array API's door from any array-like to a LazyArray, with an optional dtype.
// A LazyArray passes through (cast if asked); eager data is wrapped by fromArray.

import { astype } from '../apply/elementwise-logic.ts';
import { checkOptions } from './check-options.ts';
import { checkDType } from './dtype.ts';
import { type ArrayData, type FromArrayOptions, fromArrayAs } from './from-array.ts';
import type { KnownIn } from './known-shape.ts';
import { LazyArray } from './lazy-array.ts';

/** Options of asarray. */
export interface AsarrayOptions extends Pick<FromArrayOptions, 'dtype' | 'chunks'> {
  /** Arrays are immutable here, so a copy is never needed; accepted for the standard. */
  copy?: boolean | null;
}

/**
 * `obj` as a LazyArray: a LazyArray itself (cast when `dtype` differs), or eager data
 * (NDArray, TypedArray, nested numbers, a number) wrapped as fromArray does.
 * @example
 * asarray([[1, 2], [3, 4]], { dtype: 'float32' }).dtype; // 'float32'
 */
export function asarray<O extends LazyArray | ArrayData | number | boolean>(
  obj: O,
  opts?: AsarrayOptions,
): LazyArray<KnownIn<[O]>> {
  const o = checkOptions('asarray', opts);
  const dtype = o.dtype === undefined ? undefined : checkDType('asarray', o.dtype);
  if (obj instanceof LazyArray) {
    return (dtype === undefined ? obj : astype(obj, dtype)) as LazyArray<KnownIn<[O]>>;
  }
  return fromArrayAs('asarray', obj as ArrayData, {
    ...(dtype === undefined ? {} : { dtype }),
    ...(o.chunks === undefined ? {} : { chunks: o.chunks }),
  });
}
