// Types that record, per LazyArray, whether every size is known: `LazyArray<true>` has
// `shape: number[]`; plain `LazyArray` (= `LazyArray<boolean>`) may hold `null` sizes.

import type { LazyArray } from './lazy-array.ts';
import type { Nested } from './ndarray.ts';

/**
 * `null` unless `Known` is `true`: the unknown-size marker a `LazyArray<Known>` may hold.
 * Distributive over `Known` (so `boolean` and `any` give `null`, and `LazyArray<true>` stays
 * assignable to `LazyArray`).
 */
type NullUnless<Known extends boolean> = Known extends true ? never : null;

/**
 * Sizes per axis of a `LazyArray<Known>`: `number[]` when `Known` is `true`, `(number | null)[]`
 * otherwise (also for `boolean` and `any`, so a value not proven known stays nullable).
 * @example
 * const a: ShapeOf<true> = [2, 3];
 * const b: ShapeOf<boolean> = [null, 3]; // a size known only after computing
 */
export type ShapeOf<Known extends boolean> = (number | NullUnless<Known>)[];

/**
 * Chunk sizes per axis of a `LazyArray<Known>`: `number[][]` when every size is known.
 * @example
 * const c: ChunksOf<true> = [[2, 2], [3]];
 */
export type ChunksOf<Known extends boolean> = (number | NullUnless<Known>)[][];

/**
 * Element count or byte size of a `LazyArray<Known>`: `number` when every size is known.
 * @example
 * const n: CountOf<true> = 6;
 * const m: CountOf<boolean> = null; // unknown until computed
 */
export type CountOf<Known extends boolean> = number | NullUnless<Known>;

/**
 * True for an argument that is, or holds in (nested) arrays, a LazyArray whose shape is not
 * typed known. Eager data, numbers and option objects hold none (nested numbers stop the
 * recursion at once, so a recursive `Nested` type is not walked forever).
 */
type HoldsUnknown<T> = T extends LazyArray
  ? T['shape'] extends number[]
    ? false
    : true
  : T extends Nested
    ? false
    : T extends readonly (infer E)[]
      ? HoldsUnknown<E>
      : false;

/** True for an argument that is, or holds in (nested) arrays, any LazyArray. */
type HoldsLazy<T> = T extends LazyArray
  ? true
  : T extends Nested
    ? false
    : T extends readonly (infer E)[]
      ? HoldsLazy<E>
      : false;

/**
 * `true` when every array among `Args` has a known shape (eager data and numbers always do),
 * `boolean` otherwise: the `Known` of an operation whose output sizes follow from its input
 * sizes (elementwise, reductions, matmul, rechunk, reshape, static slicing, …). Function forms
 * are generic over their array operands and return `LazyArray<KnownIn<[X, Y]>>`.
 * @example
 * type K1 = KnownIn<[LazyArray<true>, number]>; // true
 * type K2 = KnownIn<[LazyArray<true>, LazyArray]>; // boolean
 */
export type KnownIn<Args extends readonly unknown[]> =
  true extends HoldsUnknown<Args[number]> ? boolean : true;

/**
 * `Known` of an operation on a `LazyArray<Known>` whose other arguments are `Args`: known only
 * when `Known` is `true` and no argument may have unknown sizes.
 * @example
 * type K = KnownWith<true, [LazyArray<true>, { axis: 0 }]>; // true
 */
export type KnownWith<Known extends boolean, Args extends readonly unknown[]> = Known extends true
  ? KnownIn<Args>
  : boolean;

/**
 * `Known` of indexing a `LazyArray<Known>` with `Args`: known when `Known` is `true` and the
 * index holds no LazyArray (a lazy bool array selects a count known only after computing; a
 * lazy integer array may be one).
 * @example
 * type K = KnownIndex<true, ['1:3, ::2']>; // true
 */
export type KnownIndex<Known extends boolean, Args extends readonly unknown[]> = Known extends true
  ? true extends HoldsLazy<Args[number]>
    ? boolean
    : true
  : boolean;
