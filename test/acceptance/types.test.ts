// Acceptance (issue 11): types that help. `tsc --noEmit -p .` checks these expectTypeOf
// assertions (tsconfig includes test/); vitest runs them as no-op calls.

import { describe, expectTypeOf, test } from 'vitest';
import {
  type ComputeOptions,
  compute,
  defineKernels,
  type LazyArray,
  lazyApply,
  type NDArray,
  ones,
  persist,
} from '../../src/index.ts';

const x = ones([4, 4], { chunks: 2 });
const opts: ComputeOptions = { scheduler: 'sync' };

/** The type of what `f` returns, without calling it (nothing computes here). */
const typeOf = <R>(_f: () => R) => expectTypeOf<R>();

describe('compute() return types', () => {
  test('one array gives Promise<NDArray>', () => {
    typeOf(() => compute(x)).toEqualTypeOf<Promise<NDArray>>();
    typeOf(() => compute(x, opts)).toEqualTypeOf<Promise<NDArray>>();
    typeOf(() => x.compute()).toEqualTypeOf<Promise<NDArray>>();
  });
  test('several arrays give a tuple of the same length', () => {
    typeOf(() => compute(x, x.sum())).toEqualTypeOf<Promise<[NDArray, NDArray]>>();
    typeOf(() => compute(x, x.sum(), opts)).toEqualTypeOf<Promise<[NDArray, NDArray]>>();
    typeOf(() => compute(x, x, x.mean(), opts)).toEqualTypeOf<
      Promise<[NDArray, NDArray, NDArray]>
    >();
    const both = [x, x.T] as const;
    typeOf(() => compute(...both)).toEqualTypeOf<Promise<[NDArray, NDArray]>>();
    typeOf(() => compute(...both, opts)).toEqualTypeOf<Promise<[NDArray, NDArray]>>();
  });
  test('destructuring gives NDArrays, not NDArray | undefined', () => {
    void (async () => {
      const [a, b] = await compute(x.sum(), x.mean(), opts);
      expectTypeOf(a).toEqualTypeOf<NDArray>();
      expectTypeOf(b).toEqualTypeOf<NDArray>();
    });
  });
  test('bad arguments do not type-check', () => {
    // @ts-expect-error options are last
    void (() => compute(x, opts, x));
    // @ts-expect-error at least one array
    void (() => compute());
    // @ts-expect-error not an array
    void (() => compute(5));
  });
});

describe('persist() return types', () => {
  test('a tuple of LazyArrays of the same length', () => {
    typeOf(() => persist(x)).toEqualTypeOf<Promise<[LazyArray<true>]>>();
    typeOf(() => persist(x, opts)).toEqualTypeOf<Promise<[LazyArray<true>]>>();
    typeOf(() => persist(x, x.sum(), opts)).toEqualTypeOf<
      Promise<[LazyArray<true>, LazyArray<true>]>
    >();
    typeOf(() => x.persist()).toEqualTypeOf<Promise<LazyArray<true>>>();
  });
});

describe('NDArray.item()', () => {
  test('a number or a boolean', () => {
    expectTypeOf<NDArray['item']>().returns.toEqualTypeOf<number | boolean>();
  });
});

describe('lazyApply checks arguments and kwargs against the kernel', () => {
  const two = (a: NDArray, b: NDArray) => a.data.map((v, i) => v + b.data[i]!);
  const scaled = (a: NDArray, s: number) => a.data.map((v) => v * s);
  const withKw = (a: NDArray, kw: { readonly n: number }) => a.data.map((v) => v + kw.n);
  const optionalKw = (a: NDArray, kw?: { readonly n: number }) =>
    a.data.map((v) => v + (kw?.n ?? 0));
  const handles = defineKernels(import.meta.url, { two });

  test('matching calls type-check and give LazyArray', () => {
    typeOf(() => lazyApply(two, [x, x])).toEqualTypeOf<LazyArray>();
    typeOf(() =>
      lazyApply<(a: NDArray, b: NDArray) => NDArray>((a) => a, [x, [[1]]]),
    ).toEqualTypeOf<LazyArray>();
    typeOf(() => lazyApply(scaled, [x, 2], { dtype: 'float64' })).toEqualTypeOf<LazyArray>();
    typeOf(() => lazyApply(withKw, x, { kwargs: { n: 1 } })).toEqualTypeOf<LazyArray>();
    typeOf(() => lazyApply(withKw, [x], { kwargs: { n: 1 } })).toEqualTypeOf<LazyArray>();
    typeOf(() => lazyApply(optionalKw, x)).toEqualTypeOf<LazyArray>();
    typeOf(() => lazyApply(handles.two, [x, x])).toEqualTypeOf<LazyArray>();
    typeOf(() =>
      lazyApply(two, [x, x], { shape: [[4, 4], [null]], dtype: ['float64', 'float64'] }),
    ).toEqualTypeOf<LazyArray[]>();
  });
  test('mismatched calls do not type-check', () => {
    // @ts-expect-error one array for a two-array kernel
    void (() => lazyApply(two, [x]));
    // @ts-expect-error a string where the kernel takes a number
    void (() => lazyApply(scaled, [x, 'a']));
    // @ts-expect-error three arguments for two parameters
    void (() => lazyApply(handles.two, [x, x, x]));
    // @ts-expect-error the explicit signature takes two arrays
    void (() => lazyApply<(a: NDArray, b: NDArray) => NDArray>((a) => a, x));
    // @ts-expect-error kwargs are required by the kernel
    void (() => lazyApply(withKw, x));
    // @ts-expect-error kwargs of the wrong type
    void (() => lazyApply(withKw, x, { kwargs: { n: 'one' } }));
    // @ts-expect-error kwargs for a kernel that takes none
    void (() => lazyApply(two, [x, x], { kwargs: { n: 1 } }));
  });
});

describe('known shapes (LazyArray<true>)', () => {
  const k = x as LazyArray<true>;
  /** An array not typed known (as after a mask): its sizes may be null. */
  const u: LazyArray = x;
  test('operations that keep sizes known keep shape: number[]', () => {
    expectTypeOf(k.shape).toEqualTypeOf<number[]>();
    expectTypeOf(k.chunks).toEqualTypeOf<number[][]>();
    expectTypeOf(k.size).toEqualTypeOf<number>();
    expectTypeOf(k.mul(2).add(k).shape).toEqualTypeOf<number[]>();
    expectTypeOf(k.sum({ axis: 0 }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(k.matmul(k).rechunk(2).shape).toEqualTypeOf<number[]>();
    expectTypeOf(k.get('1:, ::2').shape).toEqualTypeOf<number[]>();
    expectTypeOf(k.T.shape).toEqualTypeOf<number[]>();
  });
  test('an unknown size anywhere makes the shape nullable', () => {
    expectTypeOf(u.shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(k.mask(k.greater(0)).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(k.add(u).shape).toEqualTypeOf<(number | null)[]>();
    const m = k.mask(k.greater(0));
    expectTypeOf(m.add(m).shape).toEqualTypeOf<(number | null)[]>();
  });
  test('a known array is a LazyArray, not the reverse', () => {
    const plain: LazyArray = k;
    // @ts-expect-error a LazyArray may hold null sizes
    const known: LazyArray<true> = u;
    void [plain, known];
  });
});
