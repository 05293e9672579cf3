// The call signature lazyApply derives from a typed kernel: each NDArray parameter takes any
// array at the call (lazy or eager data), scalars and null pass as they are, and a trailing
// plain-object parameter is the kernel's kwargs, which `opts.kwargs` must then supply.

import type { ArrayLike } from '../array/from-array.ts';
import type { NDArray } from '../array/ndarray.ts';
import type { Size } from '../chunking/types.ts';
import type { LazyApplyArg, LazyApplyOptions } from './lazy-apply-args.ts';

/** Any kernel lazyApply accepts (parameters are checked by {@link ApplyArgs}). */
// biome-ignore lint/suspicious/noExplicitAny: the widest function type, so every kernel is one
export type ApplyKernel = (...args: any[]) => unknown;

type IsAny<T> = 0 extends 1 & T ? true : false;

/** What the call passes for one kernel parameter: an array for an NDArray, else the value. */
export type ApplyArgFor<P> =
  IsAny<P> extends true ? LazyApplyArg : P extends NDArray ? ArrayLike : P;

/** True when `T` is a kwargs object: a plain object type, not an array, block or scalar. */
type IsKwargs<T> =
  IsAny<T> extends true
    ? false
    : [T] extends [
          NDArray | ArrayBufferView | readonly unknown[] | number | boolean | null | undefined,
        ]
      ? false
      : [T] extends [object]
        ? true
        : false;

type Params<F> = F extends (...args: infer P) => unknown ? P : never;

type IsUnknown<T> = IsAny<T> extends true ? false : unknown extends T ? true : false;

/**
 * The kernel's positional parameters and its kwargs: a trailing plain-object parameter is
 * kwargs (`optional` when the parameter is); a trailing `unknown` after other parameters may
 * be either, so both argument lists are accepted; otherwise `kwargs` is `never`.
 */
type Split<P extends readonly unknown[]> =
  Required<P> extends readonly [...infer A, infer K]
    ? IsKwargs<K> extends true
      ? { arrays: A; kwargs: K; optional: A['length'] extends P['length'] ? true : false }
      : IsUnknown<K> extends true
        ? A extends readonly []
          ? { arrays: P; kwargs: never; optional: true }
          : { arrays: A | P; kwargs: unknown; optional: true }
        : { arrays: P; kwargs: never; optional: true }
    : { arrays: P; kwargs: never; optional: true };

type Untyped<F> = number extends Params<F>['length'] ? true : false;

/** The call's arguments for a parameter list: one array alone or a list for one parameter. */
type ArgsOf<A> = A extends readonly [infer P]
  ? ApplyArgFor<P> | readonly [ApplyArgFor<P>]
  : { readonly [I in keyof A]: ApplyArgFor<A[I]> };

/**
 * The `args` of `lazyApply(fn, args)` for kernel `F`: one array (or a one-element list) for a
 * one-parameter kernel, else a tuple matching the parameters. Untyped kernels take any list.
 */
export type ApplyArgs<F> =
  Untyped<F> extends true
    ? LazyApplyArg | readonly LazyApplyArg[]
    : ArgsOf<Split<Params<F>>['arrays']>;

/** The kernel's kwargs type, `never` when it takes none. */
export type ApplyKwargs<F> = Split<Params<F>>['kwargs'];

/** The kwargs part of the options: required and typed when the kernel takes kwargs, else absent. */
export type KwargsPart<F> =
  Untyped<F> extends true
    ? unknown
    : [ApplyKwargs<F>] extends [never]
      ? { readonly kwargs?: undefined }
      : Split<Params<F>>['optional'] extends true
        ? { readonly kwargs?: ApplyKwargs<F> }
        : { readonly kwargs: ApplyKwargs<F> };

/** The options argument of a one-output call: optional unless the kernel takes kwargs. */
export type SingleOptions<F> =
  Untyped<F> extends true
    ? [opts?: LazyApplyOptions & SingleOutput]
    : [ApplyKwargs<F>] extends [never]
      ? [opts?: LazyApplyOptions & SingleOutput & KwargsPart<F>]
      : Split<Params<F>>['optional'] extends true
        ? [opts?: LazyApplyOptions & SingleOutput & KwargsPart<F>]
        : [opts: LazyApplyOptions & SingleOutput & KwargsPart<F>];

/** The options of a call with several outputs: `shape` is a list of shapes. */
export interface MultiOutput {
  readonly shape: readonly [readonly Size[], ...(readonly Size[])[]];
}

/** The options of a call with one output: `shape` is one shape or omitted. */
export interface SingleOutput {
  readonly shape?: readonly Size[];
}
