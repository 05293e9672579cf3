// concat and stack: arrays joined along an axis, block grids laid end to end.
// Other axes are rechunked to their common refinement; each output block is one input block.

import { checkOptions } from '../array/check-options.ts';
import { resultType } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import type { Size } from '../chunking/types.ts';
import { commonRefinement } from '../chunking/unify.ts';
import { ChunkError, ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { expandDims } from './axes.ts';
import { normalizeAxis } from './axis-args.ts';
import { rechunk } from './rechunk.ts';
import { reshape } from './reshape.ts';

/**
 * Join arrays along an existing axis (default 0); `axis: null` flattens them first.
 * Dtypes promote as in arithmetic.
 * @example
 * concat([zeros([2, 3]), ones([4, 3])]).shape; // [6, 3]
 */
export function concat<A extends ArrayLike>(
  arrays: readonly A[],
  concatOpts?: { axis?: number | null },
): LazyArray<KnownIn<[A]>> {
  const opts = checkOptions('concat', concatOpts);
  let xs = checkArrays('concat', arrays);
  let axis = opts.axis === undefined ? 0 : opts.axis;
  if (axis === null) {
    xs = xs.map((x) => (x.ndim === 1 ? x : reshape(x, [-1])));
    axis = 0;
  }
  const ndim = xs[0]!.ndim;
  if (ndim === 0) throw new ValueError('concat: zero-dimensional arrays cannot be concatenated');
  for (const x of xs) {
    if (x.ndim !== ndim) {
      throw new ShapeError(
        `concat: all arrays must have the same number of dimensions; got shapes ${shapesOf(xs)}`,
      );
    }
  }
  return join(xs, normalizeAxis('concat', axis, ndim)) as LazyArray<KnownIn<[A]>>;
}

/**
 * Join arrays of one shape along a new axis (default 0).
 * @example
 * stack([zeros([2, 3]), ones([2, 3])], { axis: -1 }).shape; // [2, 3, 2]
 */
export function stack<A extends ArrayLike>(
  arrays: readonly A[],
  stackOpts?: { axis?: number },
): LazyArray<KnownIn<[A]>> {
  const opts = checkOptions('stack', stackOpts);
  const xs = checkArrays('stack', arrays);
  const shape = xs[0]!.shape;
  for (const x of xs) {
    if (x.ndim !== shape.length || x.shape.some((n, i) => n !== shape[i])) {
      throw new ShapeError(
        `stack: all arrays must have the same shape; got shapes ${shapesOf(xs)}`,
      );
    }
  }
  const axis = normalizeAxis('stack', opts.axis ?? 0, shape.length + 1);
  return join(
    xs.map((x) => expandDims(x, { axis })),
    axis,
  ) as LazyArray<KnownIn<[A]>>;
}

function checkArrays(fn: string, arrays: readonly ArrayLike[]): LazyArray[] {
  if (!Array.isArray(arrays) || arrays.length === 0) {
    throw new ValueError(`${fn}: needs a non-empty list of arrays, got ${formatValue(arrays)}`);
  }
  return arrays.map((x) => asLazy(x, fn));
}

function shapesOf(xs: readonly LazyArray[]): string {
  return xs.map((x) => formatTuple(x.shape)).join(', ');
}

/** The concatenation layer over arrays of equal ndim. */
function join(inputs: readonly LazyArray[], axis: number): LazyArray {
  const dtype = resultType(...inputs.map((x) => x.dtype));
  if (inputs.length === 1 && inputs[0]!.dtype === dtype) return inputs[0]!;
  const xs = unifyOtherAxes(inputs, axis);
  const owner: number[] = [];
  const local: number[] = [];
  const axisChunks: Size[] = [];
  xs.forEach((x, k) => {
    x.chunks[axis]!.forEach((c, i) => {
      owner.push(k);
      local.push(i);
      axisChunks.push(c);
    });
  });
  const chunks = xs[0]!.chunks.map((c, ax) => (ax === axis ? axisChunks : [...c]));
  const layer = defineLayer({
    op: 'concat',
    token: [axis],
    deps: xs.map((x) => x.layer),
    chunks,
    dtype,
    task: (b) => {
      const i = b[axis]!;
      const block = b.map((j, ax) => (ax === axis ? local[i]! : j));
      return { kernel: 'convert', inputs: [[owner[i]!, block]], params: { dtype } };
    },
  });
  return new LazyArray(layer);
}

/** Check the other axes agree in size and rechunk them to their common refinement. */
function unifyOtherAxes(xs: readonly LazyArray[], axis: number): LazyArray[] {
  const ref = xs[0]!;
  const target: (readonly Size[])[] = ref.chunks.map((c) => c);
  for (let ax = 0; ax < ref.ndim; ax++) {
    if (ax === axis) continue;
    for (const x of xs) {
      const n = x.shape[ax];
      const m = ref.shape[ax];
      if (n !== null && m !== null && n !== m) {
        throw new ShapeError(
          `concat: sizes on axis ${ax} differ (shapes ${shapesOf(xs)}); only axis ${axis} may differ`,
        );
      }
      if (sameChunks(x.chunks[ax]!, target[ax]!)) continue;
      if (n === null || m === null) {
        throw new ChunkError(
          `concat: axis ${ax} has unknown sizes chunked differently; call computeChunkSizes(x) first`,
        );
      }
      target[ax] = commonRefinement(target[ax] as number[], x.chunks[ax] as number[]);
    }
  }
  return xs.map((x) => {
    // Only the other axes change: a record spec keeps the concat axis (even of unknown size).
    const spec: Record<number, Size[]> = {};
    x.chunks.forEach((c, ax) => {
      if (ax !== axis && !sameChunks(c, target[ax]!)) spec[ax] = [...target[ax]!];
    });
    return Object.keys(spec).length === 0 ? x : rechunk(x, spec);
  });
}

function sameChunks(a: readonly Size[], b: readonly Size[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}
