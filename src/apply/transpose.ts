// Axis permutations: permuteDims (alias transpose, x.T), swapaxes and moveaxis.
// One task per block: output block b is input block b permuted, transposed by the kernel.

import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { Layer } from '../graph/layer.ts';
import { normalizeAxes, normalizeAxis } from './axis-args.ts';

/**
 * Permute the axes of an array: output axis i is input axis `axes[i]` (negative allowed).
 * @example
 * const y = permuteDims(zeros([2, 3, 4]), [2, 0, 1]);
 * y.shape; // [4, 2, 3]
 */
export function permuteDims<X extends ArrayLike>(
  x: X,
  axes: readonly number[],
): LazyArray<KnownIn<[X]>> {
  const a = asLazy(x, 'permuteDims');
  return permute('permuteDims', a, checkPermutation('permuteDims', axes, a.ndim)) as LazyArray<
    KnownIn<[X]>
  >;
}

/**
 * The transpose: axes reversed by default, else as `permuteDims`. `x.T` is `transpose(x)`.
 * @example
 * transpose(zeros([2, 3])).shape; // [3, 2]
 */
export function transpose<X extends ArrayLike>(
  x: X,
  axes?: readonly number[],
): LazyArray<KnownIn<[X]>> {
  const a = asLazy(x, 'transpose');
  const order =
    axes === undefined
      ? a.chunks.map((_, i) => a.ndim - 1 - i)
      : checkPermutation('transpose', axes, a.ndim);
  return permute('transpose', a, order) as LazyArray<KnownIn<[X]>>;
}

/**
 * Exchange two axes.
 * @example
 * swapaxes(zeros([2, 3, 4]), 0, -1).shape; // [4, 3, 2]
 */
export function swapaxes<X extends ArrayLike>(
  x: X,
  axis1: number,
  axis2: number,
): LazyArray<KnownIn<[X]>> {
  const a = asLazy(x, 'swapaxes');
  const i = normalizeAxis('swapaxes', axis1, a.ndim);
  const j = normalizeAxis('swapaxes', axis2, a.ndim);
  const order = a.chunks.map((_, k) => (k === i ? j : k === j ? i : k));
  return permute('swapaxes', a, order) as LazyArray<KnownIn<[X]>>;
}

/**
 * Move axes to new positions; the other axes keep their order (as NumPy's moveaxis).
 * @example
 * moveaxis(zeros([2, 3, 4]), 0, -1).shape; // [3, 4, 2]
 */
export function moveaxis<X extends ArrayLike>(
  x: X,
  source: number | readonly number[],
  destination: number | readonly number[],
): LazyArray<KnownIn<[X]>> {
  const a = asLazy(x, 'moveaxis');
  const src = normalizeAxes('moveaxis', source, a.ndim);
  const dst = normalizeAxes('moveaxis', destination, a.ndim);
  if (src.length !== dst.length) {
    throw new ValueError(
      `moveaxis: source ${formatValue(source)} and destination ${formatValue(destination)} ` +
        'must have the same number of elements',
    );
  }
  const order = a.chunks.map((_, k) => k).filter((k) => !src.includes(k));
  const pairs = dst.map((d, i) => [d, src[i]!] as const).sort((p, q) => p[0] - q[0]);
  for (const [d, s] of pairs) order.splice(d, 0, s);
  return permute('moveaxis', a, order) as LazyArray<KnownIn<[X]>>;
}

function checkPermutation(fn: string, axes: readonly number[], ndim: number): number[] {
  if (!Array.isArray(axes) || axes.length !== ndim) {
    throw new ValueError(
      `${fn}: axes ${formatValue(axes)} is not a permutation of the ${ndim} axes of the array`,
    );
  }
  return normalizeAxes(fn, axes, ndim);
}

/** The axes of every permutation layer this module made, by layer. */
const permutations = new WeakMap<Layer, readonly number[]>();

/**
 * The permutation of a layer `permuteDims`/`transpose` made (output axis i is input axis
 * `axes[i]`), or undefined for any other layer.
 * @example
 * permutationOf(transpose(zeros([2, 3])).layer); // [1, 0]
 */
export function permutationOf(layer: Layer): readonly number[] | undefined {
  return permutations.get(layer);
}

/** The permutation layer; the identity permutation returns `x` itself. */
function permute(fn: string, x: LazyArray, axes: readonly number[]): LazyArray {
  if (axes.every((a, i) => a === i)) return x;
  const inGrid = x.numBlocks;
  const outGrid = axes.map((a) => inGrid[a]!);
  // Fusable only when block b reads block b: equal grids, and moved axes have one block.
  const fusable =
    outGrid.every((n, i) => n === inGrid[i]) && axes.every((a, i) => a === i || outGrid[i] === 1);
  const layer = defineLayer({
    op: 'transpose',
    token: [axes],
    deps: [x.layer],
    chunks: axes.map((a) => [...x.chunks[a]!]),
    dtype: x.dtype,
    fusable,
    meta: { fn, axes: axes.join(',') },
    task: (b) => {
      const src = new Array<number>(b.length);
      for (let i = 0; i < b.length; i++) src[axes[i]!] = b[i]!;
      return { kernel: 'transpose', inputs: [[0, src]], params: { axes } };
    },
  });
  permutations.set(layer, axes);
  return new LazyArray(layer);
}
