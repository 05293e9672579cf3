// overlap, trimOverlap and mapOverlap (after dask.array.overlap): blocks extended by halos
// from their neighbours and a boundary rule, a user kernel run on them, the halos trimmed.

import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { formatTuple } from '../chunking/format.ts';
import {
  type AxisDepth,
  type AxisExtension,
  type Boundary,
  type BoundarySpec,
  checkOverlapAxes,
  type DepthSpec,
  type EdgeRule,
  ensureMinimumChunks,
  extendAxisBlock,
  normalizeBoundary,
  normalizeDepth,
  trimWidths,
} from '../chunking/overlap-plan.ts';
import type { Size } from '../chunking/types.ts';
import { ChunkError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef } from '../graph/layer.ts';
import type { BlockwiseFn } from './blockwise.ts';
import { type MapBlocksOptions, mapBlocks } from './map-blocks.ts';
import { rechunk } from './rechunk.ts';

export type { Boundary, BoundarySpec, DepthSpec };

/** Options of mapOverlap: mapBlocks' (less dropAxis/newAxis) plus the halo. */
export interface MapOverlapOptions extends Omit<MapBlocksOptions, 'dropAxis' | 'newAxis'> {
  /** Halo widths (see overlap). */
  readonly depth: DepthSpec;
  /** Edge rule (see overlap); default 'none'. */
  readonly boundary?: BoundarySpec;
  /** Trim the halos from the kernel's blocks (default true). */
  readonly trim?: boolean;
}

const isZero = (d: AxisDepth) => d[0] === 0 && d[1] === 0;

/** `x` rechunked so every chunk along an overlapped axis holds its halo (with a warning). */
function ensureDepthFits(fn: string, x: LazyArray, depths: readonly AxisDepth[]): LazyArray {
  const spec: Record<number, number[]> = {};
  depths.forEach((d, ax) => {
    const need = Math.max(d[0], d[1]);
    const chunks = x.chunks[ax] as number[];
    if (need === 0 || chunks.every((c) => c >= need)) return;
    spec[ax] = ensureMinimumChunks(chunks, need);
    process.emitWarning(
      `${fn}: depth ${need} on axis ${ax} is larger than the smallest chunk ` +
        `(${Math.min(...chunks)}); rechunking ${formatTuple(chunks)} to ${formatTuple(spec[ax]!)}`,
      { type: 'PerformanceWarning', code: 'TESSERA_OVERLAP_RECHUNK' },
    );
  });
  return Object.keys(spec).length === 0 ? x : rechunk(x, spec);
}

/** The 'overlap-block' layer over `x`, whose chunks already hold every halo. */
function overlapLayer(x: LazyArray, depths: readonly AxisDepth[], bounds: readonly EdgeRule[]) {
  const perAxis: AxisExtension[][] = x.chunks.map((c, ax) =>
    isZero(depths[ax]!)
      ? c.map((size, k) => ({
          blocks: [k],
          runs: [{ slot: 0, start: 0, step: 1, count: size ?? -1 }],
          size: size ?? 0,
        }))
      : c.map((_, k) => extendAxisBlock(c as number[], depths[ax]!, bounds[ax]!, k)),
  );
  const chunks: Size[][] = x.chunks.map((c, ax) =>
    isZero(depths[ax]!) ? [...c] : perAxis[ax]!.map((e) => e.size),
  );
  const constants = bounds.map((b) => (typeof b === 'number' ? b : null));
  const layer = defineLayer({
    op: 'overlap',
    token: [depths, bounds],
    deps: [x.layer],
    chunks,
    dtype: x.dtype,
    // a filter's task reads the extended block straight from x's neighbourhood: the
    // extended block never outlives the task (and its buffer is reused at once)
    absorbable: true,
    task: (b) => {
      const ext = b.map((k, ax) => perAxis[ax]![k]!);
      const inputs: BlockRef[] = [];
      const visit = (ax: number, src: number[]): void => {
        if (ax === ext.length) inputs.push([0, src]);
        else for (const k of ext[ax]!.blocks) visit(ax + 1, [...src, k]);
      };
      visit(0, []);
      const params = {
        runs: ext.map((e) => e.runs),
        slots: ext.map((e) => e.blocks.length),
        constants,
      };
      return { kernel: 'overlap-block', inputs, params };
    },
  });
  return new LazyArray(layer);
}

/**
 * `x` with every block extended by `depth` elements of its neighbouring blocks on each
 * side (Dask's `overlap`); past the array's edges the `boundary` rule fills the halo:
 * 'reflect' mirrors with the edge repeated (NumPy's 'symmetric'), 'periodic' wraps,
 * 'nearest' repeats the edge, a number is a constant, and 'none' (the default) adds no
 * halo there. `depth` and `boundary` may be records by axis; a depth may be
 * `[before, after]`. Chunks smaller than the depth are merged first (PerformanceWarning).
 * @example
 * const x = arange(8, { chunks: 4 });
 * overlap(x, 1, 'periodic').chunks; // [[6, 6]]: block 0 is [7, 0, 1, 2, 3, 4]
 */
export function overlap<X extends ArrayLike>(
  x: X,
  depth: DepthSpec,
  boundary?: BoundarySpec,
): LazyArray<KnownIn<[X]>> {
  return overlapFor('overlap', asLazy(x), depth, boundary) as LazyArray<KnownIn<[X]>>;
}

/** overlap on behalf of `fn` (its name starts the messages). */
export function overlapFor(
  fn: string,
  a: LazyArray,
  depth: DepthSpec,
  boundary?: BoundarySpec,
): LazyArray {
  const depths = normalizeDepth(fn, depth, a.ndim);
  const bounds = normalizeBoundary(fn, boundary, a.ndim);
  return overlapRules(fn, a, depths, bounds);
}

/**
 * overlap with depths and edge rules already normalized, 'mirror' among them (the filters'
 * and pad's entry; `fn` starts the messages).
 */
export function overlapRules(
  fn: string,
  a: LazyArray,
  depths: readonly AxisDepth[],
  rules: readonly EdgeRule[],
): LazyArray {
  checkOverlapAxes(fn, a.shape, depths);
  if (depths.every(isZero)) return a;
  return overlapLayer(ensureDepthFits(fn, a, depths), depths, rules);
}

/**
 * Remove the halos `overlap(x, depth, boundary)` added (Dask's `trim_internal`): every
 * block loses `depth` on each side, except the array's edges along 'none' axes (the
 * default), which never had one.
 * @example
 * const y = overlap(x, { 0: 2 }, 'reflect');
 * trimOverlap(y, { 0: 2 }, 'reflect').chunks; // x.chunks
 */
export function trimOverlap<X extends ArrayLike>(
  x: X,
  depth: DepthSpec,
  boundary?: BoundarySpec,
): LazyArray<KnownIn<[X]>> {
  return trimFor('trimOverlap', asLazy(x), depth, boundary) as LazyArray<KnownIn<[X]>>;
}

function trimFor(fn: string, a: LazyArray, depth: DepthSpec, boundary?: BoundarySpec) {
  const depths = normalizeDepth(fn, depth, a.ndim);
  const bounds = normalizeBoundary(fn, boundary, a.ndim);
  if (depths.every(isZero)) return a;
  const widths = a.chunks.map((c, ax) => {
    if (isZero(depths[ax]!)) return c.map(() => [0, 0] as const);
    if (c.includes(null)) {
      throw new ChunkError(
        `${fn}: axis ${ax} has unknown chunk sizes; call computeChunkSizes(x) first`,
      );
    }
    return c.map((size, k) => {
      const w = trimWidths(depths[ax]!, bounds[ax]!, k, c.length);
      if (w[0] + w[1] > size!) {
        throw new ValueError(
          `${fn}: block ${k} on axis ${ax} has ${size} elements, fewer than depth ${formatTuple(w)} trims`,
        );
      }
      return w;
    });
  });
  const chunks = a.chunks.map((c, ax) =>
    c.map((size, k) => (size === null ? null : size - widths[ax]![k]![0] - widths[ax]![k]![1])),
  );
  const layer = defineLayer({
    op: 'trim-overlap',
    token: [depths, bounds],
    deps: [a.layer],
    chunks,
    dtype: a.dtype,
    fusable: true,
    task: (b) => {
      const w = b.map((k, ax) => widths[ax]![k]!);
      return {
        kernel: 'getitem',
        inputs: [[0, b]],
        params: {
          start: w.map((p) => p[0]),
          step: w.map(() => 1),
          count: b.map((k, ax) => chunks[ax]![k]!),
          axes: w.map((_, ax) => ax),
        },
      };
    },
  });
  return new LazyArray(layer);
}

/**
 * Run `fn` on every block of `x` extended by its neighbours' halos (see overlap), then trim
 * the halos from the results (Dask's `map_overlap`). `fn` ships to threads as it does for
 * mapBlocks, and receives the extended block and `blockInfo`.
 * @example
 * // a 3-point moving sum that does not see the chunk boundaries
 * const y = mapOverlap(
 *   (b: NDArray) => b.data.map((v, i) => (b.data[i - 1] ?? 0) + v + (b.data[i + 1] ?? 0)),
 *   x, { depth: 1, boundary: 0, dtype: x.dtype });
 */
export function mapOverlap(fn: BlockwiseFn, x: ArrayLike, opts: MapOverlapOptions): LazyArray {
  if (opts === null || typeof opts !== 'object' || opts.depth === undefined) {
    throw new ValueError('mapOverlap: options { depth, dtype } are required');
  }
  const { depth, boundary, trim = true, ...rest } = opts;
  const y = overlapFor('mapOverlap', asLazy(x), depth, boundary);
  const mapped = mapBlocks(fn, y, rest);
  return trim ? trimFor('mapOverlap', mapped, depth, boundary) : mapped;
}
