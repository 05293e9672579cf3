// Acceptance (issue 11): types that help. `tsc --noEmit -p .` checks these expectTypeOf
// assertions (tsconfig includes test/); vitest runs them as no-op calls.

import { describe, expectTypeOf, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import {
  add,
  arange,
  asarray,
  average,
  type ComputeOptions,
  clip,
  compute,
  computeChunkSizes,
  concat,
  cov,
  defineKernels,
  diff,
  einsum,
  eye,
  fft,
  fromArray,
  fromFunction,
  fromNpy,
  fromNpyStack,
  fromZarr,
  full,
  getIndex,
  gradient,
  histogram,
  type LazyArray,
  lazyApply,
  linalg,
  linspace,
  mapBlocks,
  mask,
  matmul,
  meshgrid,
  type NDArray,
  ndarray,
  nonzero,
  ones,
  onesLike,
  persist,
  random,
  rechunk,
  reshape,
  stack,
  sum,
  take,
  toDevice,
  transpose,
  uniqueValues,
  where,
  zeros,
  zerosLike,
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
  test('a number, a bigint (int64, uint64), a boolean or { re, im } (complex)', () => {
    expectTypeOf<NDArray['item']>().returns.toEqualTypeOf<
      number | bigint | boolean | { re: number; im: number }
    >();
  });
});

describe('lazyApply checks arguments and kwargs against the kernel', () => {
  const two = (a: NDArray, b: NDArray) =>
    (a.data as NumberArray).map((v, i) => v + (b.data as NumberArray)[i]!);
  const scaled = (a: NDArray, s: number) => (a.data as NumberArray).map((v) => v * s);
  const withKw = (a: NDArray, kw: { readonly n: number }) =>
    (a.data as NumberArray).map((v) => v + kw.n);
  const optionalKw = (a: NDArray, kw?: { readonly n: number }) =>
    (a.data as NumberArray).map((v) => v + (kw?.n ?? 0));
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
  test('an explicit kernel signature checks arguments and kwargs too', () => {
    type WithN = (a: NDArray, kw: { readonly n: number }) => NDArray;
    typeOf(() => lazyApply<WithN>((a) => a, x, { kwargs: { n: 1 } })).toEqualTypeOf<LazyArray>();
    // @ts-expect-error kwargs of the wrong type for the explicit signature
    void (() => lazyApply<WithN>((a) => a, x, { kwargs: { n: 'one' } }));
    // @ts-expect-error the explicit signature requires kwargs
    void (() => lazyApply<WithN>((a) => a, x));
    // @ts-expect-error a string where the explicit signature takes an array
    void (() => lazyApply<(a: NDArray, b: NDArray) => NDArray>((a) => a, [x, 'a']));
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

describe('creation functions give known arrays', () => {
  test('sizes that are always known at build time type LazyArray<true>', () => {
    expectTypeOf(ones([3])).toEqualTypeOf<LazyArray<true>>();
    expectTypeOf(zeros(3, { chunks: 2 }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(full([2, 2], 7).chunks).toEqualTypeOf<number[][]>();
    expectTypeOf(arange(10).size).toEqualTypeOf<number>();
    expectTypeOf(linspace(0, 1, 5).nbytes).toEqualTypeOf<number>();
    expectTypeOf(eye(3).shape).toEqualTypeOf<number[]>();
    expectTypeOf(
      fromArray([
        [1, 2],
        [3, 4],
      ]).shape,
    ).toEqualTypeOf<number[]>();
    expectTypeOf(fromFunction((i) => i, { shape: [4] }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(random.uniform([4], { seed: 1 }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(random.normal([4], { seed: 1 }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(fft.fftfreq(8).shape).toEqualTypeOf<number[]>();
    // meshgrid checks that every input size is known, so its outputs are always known
    expectTypeOf(meshgrid(arange(3), arange(2))[0]!.shape).toEqualTypeOf<number[]>();
    typeOf(() => fromNpy('x.npy')).toEqualTypeOf<LazyArray<true>>();
    typeOf(() => fromNpyStack('frames')).toEqualTypeOf<LazyArray<true>>();
    typeOf(() => fromZarr('x.zarr')).toEqualTypeOf<Promise<LazyArray<true>>>();
  });
  test('asarray and the *Like functions follow their argument', () => {
    const u: LazyArray = x;
    expectTypeOf(asarray([1, 2, 3]).shape).toEqualTypeOf<number[]>();
    expectTypeOf(asarray(ndarray([1, 2])).shape).toEqualTypeOf<number[]>();
    expectTypeOf(asarray(u).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(zerosLike(x).shape).toEqualTypeOf<number[]>();
    expectTypeOf(onesLike(u).shape).toEqualTypeOf<(number | null)[]>();
  });
  test('computing sizes makes an array known', () => {
    const m = mask(x, x.greater(0));
    typeOf(() => computeChunkSizes(m)).toEqualTypeOf<Promise<LazyArray<true>>>();
    typeOf(() => persist(m)).toEqualTypeOf<Promise<[LazyArray<true>]>>();
  });
});

describe('function forms keep sizes known when every array operand is known', () => {
  const k = ones([4, 4], { chunks: 2 });
  /** An array not typed known (as after a mask): its sizes may be null. */
  const u: LazyArray = k;
  test('known operands, numbers and eager data give number[]', () => {
    const y = add(ones([3]), 1);
    expectTypeOf(y.shape).toEqualTypeOf<number[]>();
    expectTypeOf(add(2, k).shape).toEqualTypeOf<number[]>();
    expectTypeOf(add(k, [[1, 2, 3, 4]]).shape).toEqualTypeOf<number[]>();
    expectTypeOf(add(k, ndarray([1, 2, 3, 4])).shape).toEqualTypeOf<number[]>();
    expectTypeOf(where(k.greater(0), k, 0).shape).toEqualTypeOf<number[]>();
    expectTypeOf(sum(k, { axis: 0 }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(matmul(k, k).shape).toEqualTypeOf<number[]>();
    expectTypeOf(rechunk(k, 2).chunks).toEqualTypeOf<number[][]>();
    expectTypeOf(reshape(k, [16]).size).toEqualTypeOf<number>();
    expectTypeOf(transpose(k).shape).toEqualTypeOf<number[]>();
    expectTypeOf(concat([k, k], { axis: 0 }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(stack([k, k]).shape).toEqualTypeOf<number[]>();
    expectTypeOf(einsum('ij,jk->ik', k, k).shape).toEqualTypeOf<number[]>();
    expectTypeOf(take(k, [0, 2], { axis: 1 }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(getIndex(k, '1:, ::2').shape).toEqualTypeOf<number[]>();
    expectTypeOf(getIndex(k, 0, { start: 1 }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(linalg.inv(k).shape).toEqualTypeOf<number[]>();
    expectTypeOf(linalg.qr(k).R.shape).toEqualTypeOf<number[]>();
    expectTypeOf(linalg.svd(k).S.shape).toEqualTypeOf<number[]>();
    expectTypeOf(linalg.eigh(k).eigenvectors.shape).toEqualTypeOf<number[]>();
    expectTypeOf(linalg.lstsq(k, ones([4])).residuals.shape).toEqualTypeOf<number[]>();
    expectTypeOf(toDevice(k, 'cpu').shape).toEqualTypeOf<number[]>();
    expectTypeOf(clip(k, 0, 1).shape).toEqualTypeOf<number[]>();
    expectTypeOf(clip(k, null, k).shape).toEqualTypeOf<number[]>();
    expectTypeOf(diff(k, { axis: 0, prepend: 0 }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(cov(k).shape).toEqualTypeOf<number[]>();
    expectTypeOf(cov(k, { y: k }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(average(k, { axis: 0 }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(average(k, { returned: true })[1].shape).toEqualTypeOf<number[]>();
    expectTypeOf(gradient(k, { axis: 0 }).shape).toEqualTypeOf<number[]>();
    expectTypeOf(gradient(k)[0]!.shape).toEqualTypeOf<number[]>();
    expectTypeOf(sum(add(k, 1)).mul(2).shape).toEqualTypeOf<number[]>();
    // histogram's bins are eager: its sizes are known even for a masked input
    expectTypeOf(histogram(mask(k, k.greater(0)), { bins: 4 })[0].shape).toEqualTypeOf<number[]>();
  });
  test('an operand of unknown sizes makes the result nullable', () => {
    expectTypeOf(add(k, u).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(where(u, k, 0).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(sum(u).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(linalg.qr(u).Q.shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(toDevice(u, 'cpu').shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(matmul(k, u).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(concat([k, u]).shape).toEqualTypeOf<(number | null)[]>();
    const idx: LazyArray = arange(2, { dtype: 'int32' });
    expectTypeOf(take(k, idx, { axis: 1 }).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(clip(k, 0, u).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(diff(k, { prepend: u }).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(cov(k, { y: u }).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(average(u).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(gradient(u, { axis: 0 }).shape).toEqualTypeOf<(number | null)[]>();
  });
  test('masks, nonzero, unique and user kernels are nullable', () => {
    expectTypeOf(mask(k, k.greater(0)).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(getIndex(k, k.greater(0)).shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(nonzero(k)[0]!.shape).toEqualTypeOf<(number | null)[]>();
    expectTypeOf(uniqueValues(k).shape).toEqualTypeOf<(number | null)[]>();
    const double = (b: NDArray) => b;
    expectTypeOf(mapBlocks(double, k, { dtype: 'float64' }).shape).toEqualTypeOf<
      (number | null)[]
    >();
  });
  test('a result that may hold null sizes is not a LazyArray<true>', () => {
    const ok: LazyArray<true> = add(k, 1);
    // @ts-expect-error options are still checked for unknown names
    void (() => diff(k, { prepnd: 0 }));
    // @ts-expect-error u may hold null sizes
    const notKnown: LazyArray<true> = add(k, u);
    // @ts-expect-error a mask selects a count known only once computed
    const masked: LazyArray<true> = getIndex(k, k.greater(0));
    void [ok, notKnown, masked];
  });
});
