// unstack, broadcastArrays and meshgrid: several arrays from one or one from several, all
// views or broadcasts of the inputs' blocks (nothing is copied until a kernel reads them).

import { checkOptions } from '../array/check-options.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { broadcastShapes } from '../chunking/broadcast.ts';
import { formatValue } from '../chunking/format.ts';
import { ChunkError, ShapeError, ValueError } from '../errors.ts';
import { broadcastTo } from './axes.ts';
import { normalizeAxis } from './axis-args.ts';
import type { IndexArg } from './index-items.ts';
import { getIndex } from './indexing.ts';
import { reshape } from './reshape.ts';

/**
 * The slices of `x` along `axis` (default 0), each without that axis: the inverse of stack.
 * @example
 * unstack(fromArray([[1, 2], [3, 4]])).length; // 2: [1, 2] and [3, 4]
 */
export function unstack<X extends ArrayLike>(
  x: X,
  opts?: { axis?: number },
): LazyArray<KnownIn<[X]>>[] {
  const o = checkOptions('unstack', opts);
  const a = asLazy(x, 'unstack');
  if (a.ndim === 0) throw new ShapeError('unstack: x must have at least one axis, got a 0-d array');
  const axis = normalizeAxis('unstack', o.axis ?? 0, a.ndim);
  const n = a.shape[axis];
  if (n === null || n === undefined) {
    throw new ChunkError(
      `unstack: axis ${axis} has an unknown size; call computeChunkSizes(x) first`,
    );
  }
  return Array.from({ length: n }, (_v, i) => {
    const items: IndexArg[] = a.shape.map(() => ({}));
    items[axis] = i;
    return getIndex(a, items);
  }) as LazyArray<KnownIn<[X]>>[];
}

/**
 * The arrays broadcast against each other (NumPy rules), each to the common shape.
 * @example
 * broadcastArrays(zeros([3, 1]), ones([4])).map((a) => a.shape); // [[3, 4], [3, 4]]
 */
export function broadcastArrays<A extends ArrayLike>(...arrays: A[]): LazyArray<KnownIn<[A]>>[] {
  const xs = arrays.map((x) => asLazy(x, 'broadcastArrays'));
  const shape = broadcastShapes('broadcastArrays', ...xs.map((x) => x.shape));
  if (shape.some((s) => s === null)) {
    throw new ChunkError(
      `broadcastArrays: the common shape ${formatValue(shape)} has unknown sizes; call computeChunkSizes first`,
    );
  }
  return xs.map((x) =>
    x.shape.join() === shape.join() ? x : broadcastTo(x, shape as number[]),
  ) as LazyArray<KnownIn<[A]>>[];
}

/**
 * Coordinate arrays from 1-D coordinate vectors: with `indexing: 'xy'` (default, Cartesian)
 * the first two output axes are swapped, with 'ij' (matrix) they follow the inputs.
 * @example
 * const [X, Y] = meshgrid(fromArray([1, 2, 3]), fromArray([4, 5]));
 * X.shape; // [2, 3]
 */
export function meshgrid(
  ...args: [...ArrayLike[], { indexing?: 'xy' | 'ij' }] | ArrayLike[]
): LazyArray<true>[] {
  const last = args[args.length - 1];
  const hasOpts =
    last !== undefined &&
    typeof last === 'object' &&
    !Array.isArray(last) &&
    !ArrayBuffer.isView(last) &&
    !('shape' in last);
  const opts = (hasOpts ? last : {}) as { indexing?: unknown };
  const indexing = opts.indexing ?? 'xy';
  if (indexing !== 'xy' && indexing !== 'ij') {
    throw new ValueError(`meshgrid: indexing ${formatValue(indexing)} is not 'xy' or 'ij'`);
  }
  const xs = (hasOpts ? args.slice(0, -1) : args).map((x) => asLazy(x as ArrayLike, 'meshgrid'));
  xs.forEach((x, i) => {
    if (x.ndim !== 1) {
      throw new ShapeError(
        `meshgrid: argument ${i} has shape ${formatValue(x.shape)}; it must be 1-D`,
      );
    }
    if (x.shape[0] === null) {
      throw new ChunkError(
        `meshgrid: argument ${i} has an unknown size; call computeChunkSizes first`,
      );
    }
  });
  const sizes = xs.map((x) => x.shape[0] as number);
  const order = xs.map((_x, i) => i);
  if (indexing === 'xy' && xs.length >= 2) [order[0], order[1]] = [1, 0];
  const outShape = order.map((i) => sizes[i]!);
  return xs.map((x, i) => {
    const at = order.indexOf(i);
    const shape = outShape.map((s, ax) => (ax === at ? s : 1));
    // every size was checked known above
    return broadcastTo(reshape(x, shape), outShape) as LazyArray<true>;
  });
}
