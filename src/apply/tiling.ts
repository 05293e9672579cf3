// repeat, tile and roll (Array API manipulation): each is a composition of take, concat
// and basic slicing, so it stays lazy and reuses the input's blocks where it can.

import { checkOptions, describe } from '../array/check-options.ts';
import type { TypedArray } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { NDArray } from '../array/ndarray.ts';
import { formatValue } from '../chunking/format.ts';
import { ChunkError, ValueError } from '../errors.ts';
import { normalizeAxis } from './axis-args.ts';
import { concat } from './concat.ts';
import type { IndexArg } from './index-items.ts';
import { getIndex } from './indexing.ts';
import { reshape } from './reshape.ts';
import { takeWrapped } from './take.ts';

function knownSize(fn: string, x: LazyArray, axis: number): number {
  const n = x.shape[axis];
  if (n === null || n === undefined) {
    throw new ChunkError(
      `${fn}: axis ${axis} has an unknown size; call computeChunkSizes(x) first`,
    );
  }
  return n;
}

function repeatCounts(repeats: unknown, n: number): number[] {
  const list: unknown[] =
    typeof repeats === 'number'
      ? [repeats]
      : repeats instanceof NDArray
        ? Array.from(repeats.data as Iterable<number>)
        : ArrayBuffer.isView(repeats) || Array.isArray(repeats)
          ? Array.from(repeats as Iterable<unknown>)
          : [repeats];
  for (const r of list) {
    if (typeof r !== 'number' || !Number.isSafeInteger(r) || r < 0) {
      throw new ValueError(`repeat: repeats ${describe(repeats)} must be non-negative integers`);
    }
  }
  if (list.length !== 1 && list.length !== n) {
    throw new ValueError(`repeat: ${list.length} repeats for an axis of size ${n}`);
  }
  return list.length === 1 ? new Array<number>(n).fill(list[0] as number) : (list as number[]);
}

/**
 * Each element of `x` repeated `repeats` times along `axis` (a count, or one count per
 * element); without `axis`, x is flattened first. Counts are host values (an array of
 * counts computed lazily would give data-dependent sizes: compute it first).
 * @example
 * repeat(fromArray([1, 2]), 2); // [1, 1, 2, 2]
 * repeat(fromArray([[1, 2], [3, 4]]), [1, 2], { axis: 0 }); // [[1, 2], [3, 4], [3, 4]]
 */
export function repeat<X extends ArrayLike>(
  x: X,
  repeats: number | readonly number[] | TypedArray | NDArray,
  opts?: { axis?: number },
): LazyArray<KnownIn<[X]>> {
  const o = checkOptions('repeat', opts);
  let a: LazyArray = asLazy(x, 'repeat');
  if (o.axis === undefined) a = reshape(a, [-1]);
  const axis = normalizeAxis('repeat', o.axis ?? 0, a.ndim);
  const n = knownSize('repeat', a, axis);
  const counts = repeatCounts(repeats, n);
  const total = counts.reduce((s, c) => s + c, 0);
  const idx = new Int32Array(total);
  let k = 0;
  counts.forEach((c, i) => {
    idx.fill(i, k, k + c);
    k += c;
  });
  return takeWrapped(a, idx, axis) as LazyArray<KnownIn<[X]>>;
}

/**
 * `x` repeated `reps[i]` times along each axis i (NumPy's tile): reps shorter than x.ndim
 * are padded with leading 1s, longer ones add leading axes to x.
 * @example
 * tile(fromArray([1, 2]), [2]); // [1, 2, 1, 2]
 * tile(fromArray([1, 2]), [2, 1]).shape; // [2, 2]
 */
export function tile<X extends ArrayLike>(x: X, reps: readonly number[]): LazyArray<KnownIn<[X]>> {
  let a: LazyArray = asLazy(x, 'tile');
  if (!Array.isArray(reps) || reps.some((r) => !Number.isSafeInteger(r) || r < 0)) {
    throw new ValueError(
      `tile: reps ${formatValue(reps)} must be an array of non-negative integers`,
    );
  }
  if (reps.length > a.ndim) {
    const shape = a.shape.map((s, ax) => (s === null ? knownSize('tile', a, ax) : s));
    a = reshape(a, [...new Array<number>(reps.length - a.ndim).fill(1), ...shape]);
  }
  const full = [...new Array<number>(a.ndim - reps.length).fill(1), ...reps];
  full.forEach((r, axis) => {
    if (r !== 1) a = concat(new Array<LazyArray>(r).fill(a), { axis });
  });
  return a as LazyArray<KnownIn<[X]>>;
}

function sliceAlong(x: LazyArray, axis: number, start?: number, stop?: number): LazyArray {
  const items: IndexArg[] = x.shape.map(() => ({}));
  items[axis] = {
    ...(start === undefined ? {} : { start }),
    ...(stop === undefined ? {} : { stop }),
  };
  return getIndex(x, items);
}

/**
 * Elements shifted by `shift` along `axis` (several axes with one shift each), wrapping
 * around the end; without `axis`, over the flattened array, then reshaped back.
 * @example
 * roll(fromArray([1, 2, 3, 4]), 1); // [4, 1, 2, 3]
 * roll(fromArray([[1, 2], [3, 4]]), [1, -1], { axis: [0, 1] }); // [[4, 3], [2, 1]]
 */
export function roll<X extends ArrayLike>(
  x: X,
  shift: number | readonly number[],
  opts?: { axis?: number | readonly number[] },
): LazyArray<KnownIn<[X]>> {
  const o = checkOptions('roll', opts);
  const a = asLazy(x, 'roll');
  const shifts = typeof shift === 'number' ? [shift] : [...shift];
  if (shifts.some((s) => !Number.isSafeInteger(s))) {
    throw new ValueError(`roll: shift ${formatValue(shift)} must be integers`);
  }
  if (o.axis === undefined) {
    const shape = a.shape.map((_s, ax) => knownSize('roll', a, ax));
    const total = shifts.reduce((p, s) => p + s, 0);
    return reshape(roll(reshape(a, [-1]), total, { axis: 0 }), shape) as LazyArray<KnownIn<[X]>>;
  }
  const axes = (typeof o.axis === 'number' ? [o.axis] : [...o.axis]).map((ax) =>
    normalizeAxis('roll', ax, a.ndim),
  );
  if (shifts.length !== axes.length && shifts.length !== 1) {
    throw new ValueError(`roll: ${shifts.length} shifts for ${axes.length} axes`);
  }
  let y: LazyArray = a;
  axes.forEach((axis, i) => {
    const n = knownSize('roll', y, axis);
    const s = n === 0 ? 0 : ((shifts[shifts.length === 1 ? 0 : i]! % n) + n) % n;
    if (s !== 0) y = concat([sliceAlong(y, axis, n - s), sliceAlong(y, axis, 0, n - s)], { axis });
  });
  return y as LazyArray<KnownIn<[X]>>;
}
