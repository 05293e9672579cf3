// Reduction graphs as Dask builds them (dask.array.reductions._tree_reduce): a fusable
// per-block partial layer, a tree of combine layers, then one aggregate layer.

import type { DType } from '../array/dtype.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { AggregateParams, ReduceParams } from '../backends/cpu-js/reduce/reduce.ts';
import { formatValue } from '../chunking/format.ts';
import type { Size } from '../chunking/types.ts';
import { config } from '../config.ts';
import { ChunkError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BackendRef, BlockRef, Layer } from '../graph/layer.ts';
import { normalizeAxes, normalizeAxis } from './axis-args.ts';
import { dispatchLayer } from './dispatch-layer.ts';

/** Fan-in of the tree: one number for every reduced axis, or per axis (others use the default). */
export type SplitEvery = number | Readonly<Record<number, number>>;

/** Everything the tree builder needs; public functions fill it in. */
export interface ReductionSpec {
  /** Public function name: prefixes the layer labels (`sum-partial`, …). */
  readonly fn: string;
  readonly x: LazyArray;
  /** Reduced axes, normalized and sorted. */
  readonly axes: readonly number[];
  readonly keepdims: boolean;
  /** Fan-in per axis of x (only reduced axes are read). */
  readonly splitEvery: readonly number[];
  /** Output dtype. */
  readonly dtype: DType;
  /** Kernel params of every step. */
  readonly params: ReduceParams;
  /** Per-block params of the partial step (arg reductions pass global offsets). */
  readonly partialParams?: (block: readonly number[]) => ReduceParams;
}

/**
 * The reduced axes of `axis` (every axis when undefined or null), sorted.
 * @example
 * reductionAxes('sum', [-1, 0], 3); // [0, 2]
 */
export function reductionAxes(
  fn: string,
  axis: number | readonly number[] | null | undefined,
  ndim: number,
): number[] {
  if (axis === undefined || axis === null) return Array.from({ length: ndim }, (_, i) => i);
  return normalizeAxes(fn, axis, ndim).sort((a, b) => a - b);
}

/**
 * Fan-in per axis of an `ndim`-d array: integers >= 2; axes a record leaves out get
 * `config.splitEvery`.
 * @example
 * normalizeSplitEvery('sum', { 1: 8 }, 2); // [4, 8]
 */
export function normalizeSplitEvery(
  fn: string,
  spec: SplitEvery | undefined,
  ndim: number,
): number[] {
  const out = new Array<number>(ndim).fill(config.splitEvery);
  const check = (v: unknown): number => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 2) {
      throw new ValueError(`${fn}: splitEvery ${formatValue(v)} must be an integer >= 2`);
    }
    return v;
  };
  if (spec === undefined) return out;
  if (typeof spec === 'number') return out.fill(check(spec));
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    throw new ValueError(`${fn}: splitEvery ${formatValue(spec)} must be a number or a record`);
  }
  for (const [k, v] of Object.entries(spec)) out[normalizeAxis(fn, Number(k), ndim)] = check(v);
  return out;
}

/** Input refs of a group: along each reduced axis the blocks [lo, hi), C order. */
export function groupRefs(
  template: readonly number[],
  ranges: readonly (readonly [number, number])[],
  axes: readonly number[],
): BlockRef[] {
  const refs: BlockRef[] = [];
  const idx = [...template];
  const walk = (k: number): void => {
    if (k === axes.length) {
      refs.push([0, [...idx]]);
      return;
    }
    const [lo, hi] = ranges[k]!;
    for (let i = lo; i < hi; i++) {
      idx[axes[k]!] = i;
      walk(k + 1);
    }
  };
  walk(0);
  return refs;
}

/** Chunks of an intermediate grid: `counts[ax]` unit blocks along reduced axes. */
function unitChunks(x: LazyArray, axes: readonly number[], counts: readonly number[]): Size[][] {
  return x.chunks.map((c, ax) =>
    axes.includes(ax) ? new Array<number>(counts[ax]!).fill(1) : [...c],
  );
}

function partialLayer(s: ReductionSpec, backend: BackendRef): Layer {
  const grid = s.x.numBlocks;
  return defineLayer({
    op: `${s.fn}-partial`,
    token: [s.params, s.axes],
    deps: [s.x.layer],
    chunks: unitChunks(s.x, s.axes, grid),
    dtype: s.dtype,
    backend,
    fusable: true,
    task: (b) => ({
      kernel: 'reduce-partial',
      inputs: [[0, b]],
      params: s.partialParams ? s.partialParams(b) : s.params,
    }),
  });
}

function combineLayer(
  s: ReductionSpec,
  dep: Layer,
  counts: readonly number[],
  level: number,
  backend: BackendRef,
): Layer {
  const next = counts.map((n, ax) => (s.axes.includes(ax) ? Math.ceil(n / s.splitEvery[ax]!) : n));
  return defineLayer({
    op: `${s.fn}-combine`,
    token: [s.params, s.axes, s.splitEvery, level],
    deps: [dep],
    chunks: unitChunks(s.x, s.axes, next),
    dtype: s.dtype,
    backend,
    task: (b) => ({
      kernel: 'reduce-combine',
      inputs: groupRefs(
        b,
        s.axes.map((ax) => {
          const k = s.splitEvery[ax]!;
          return [b[ax]! * k, Math.min((b[ax]! + 1) * k, counts[ax]!)] as const;
        }),
        s.axes,
      ),
      params: s.params,
    }),
  });
}

/**
 * When a reduced axis has no blocks at all, the aggregate reduces a stand-in input block
 * with zero length along the reduced axes (the other sizes are those of block `template`).
 */
function emptyInput(s: ReductionSpec, template: readonly number[]): AggregateParams['empty'] {
  const shape = s.x.chunks.map((c, ax) => (s.axes.includes(ax) ? 0 : c[template[ax]!]));
  if (shape.some((n) => n === null || n === undefined)) {
    throw new ChunkError(
      `${s.fn}: blocks of unknown size beside an empty axis; call computeChunkSizes(x) first`,
    );
  }
  return { shape: shape as number[], dtype: s.x.dtype };
}

function aggregateLayer(
  s: ReductionSpec,
  dep: Layer,
  counts: readonly number[],
  backend: BackendRef,
): Layer {
  const reduced = new Set(s.axes);
  const chunks = s.x.chunks.flatMap((c, ax) =>
    reduced.has(ax) ? (s.keepdims ? [[1]] : []) : [[...c]],
  );
  const base: AggregateParams = { ...s.params, keepdims: s.keepdims };
  // the GPU's partials of a mean are sums: its aggregate divides by the count
  const count = s.axes.reduce((n, ax) => n * (s.x.shape[ax] ?? Number.NaN), 1);
  const params = backend.device === 'gpu' ? { ...base, count } : base;
  const noBlocks = s.axes.some((ax) => counts[ax] === 0);
  return defineLayer({
    op: `${s.fn}-aggregate`,
    token: [s.params, s.axes, s.splitEvery, s.keepdims],
    deps: [dep],
    chunks,
    dtype: s.dtype,
    backend,
    task: (b) => {
      const template: number[] = [];
      for (let ax = 0, k = 0; ax < s.x.ndim; ax++) {
        if (!reduced.has(ax)) template.push(b[k++]!);
        else {
          template.push(0);
          if (s.keepdims) k++;
        }
      }
      const ranges = s.axes.map((ax) => [0, counts[ax]!] as const);
      return {
        kernel: 'reduce-aggregate',
        inputs: groupRefs(template, ranges, s.axes),
        params: noBlocks ? { ...params, empty: emptyInput(s, template) } : params,
      };
    },
  });
}

/**
 * Build the reduction tree of `spec`: one partial task per input block, combine levels
 * that merge up to splitEvery blocks per reduced axis until every reduced axis has at
 * most splitEvery blocks, then one aggregate task per output block. Merge order is fixed
 * by the tree, so results do not depend on execution order.
 * @example
 * reduction({ fn: 'sum', x, axes: [0], keepdims: false, splitEvery: [4], dtype: 'float64',
 *   params: { op: 'sum', axes: [0], dtype: 'float64' } });
 */
export function reduction(spec: ReductionSpec): LazyArray {
  // one decision for the whole tree: its layers fuse only within one backend
  const backend = dispatchLayer({
    kernel: 'reduce-partial',
    params: spec.params,
    deps: [spec.x.layer],
    chunks: spec.x.chunks,
    dtype: spec.dtype,
    fn: spec.fn,
  });
  let layer = partialLayer(spec, backend);
  let counts = spec.x.numBlocks;
  let level = 0;
  while (spec.axes.some((ax) => counts[ax]! > spec.splitEvery[ax]!)) {
    layer = combineLayer(spec, layer, counts, level++, backend);
    counts = layer.chunks.map((c) => c.length);
  }
  return new LazyArray(aggregateLayer(spec, layer, counts, backend));
}
