// Chunk math of overlap (after dask.array.overlap): depth and boundary arguments per axis,
// the minimum chunk size a halo needs, and which neighbour elements extend each block.

import { ChunkError, ValueError } from '../errors.ts';
import { formatTuple, formatValue } from './format.ts';
import type { Size } from './types.ts';

/** How an axis is extended past the array's edges (Dask's names; a number is a constant). */
export type Boundary = 'reflect' | 'periodic' | 'nearest' | 'none' | number;

/**
 * What overlap's layer can fill a halo with: a Boundary, or 'mirror' (reflection about the
 * edge element, which is not repeated: NumPy's 'reflect', scipy.ndimage's 'mirror'), used
 * by the filters and pad but not offered by overlap itself (Dask has no such boundary).
 */
export type EdgeRule = Boundary | 'mirror';

/** Halo widths: one for every axis, one per axis, or a record by axis (`[before, after]`). */
export type DepthSpec =
  | number
  | readonly number[]
  | Readonly<Record<number, number | readonly [number, number]>>;

/** One boundary for every axis, or a record by axis (axes left out get 'none'). */
export type BoundarySpec = Boundary | Readonly<Record<number, Boundary>>;

/** Halo widths of one axis. */
export type AxisDepth = readonly [before: number, after: number];

/**
 * A run of output positions along one axis: `count` elements from neighbour `slot`
 * starting at local index `start` and moving by `step` (1 copy, -1 mirror, 0 repeat);
 * slot -1 is the constant.
 */
export interface AxisRun {
  readonly slot: number;
  readonly start: number;
  readonly step: number;
  readonly count: number;
}

/** How one block is extended along one axis: the input blocks it reads and the runs. */
export interface AxisExtension {
  readonly blocks: readonly number[];
  readonly runs: readonly AxisRun[];
  readonly size: number;
}

const BOUNDARIES = ['reflect', 'periodic', 'nearest', 'none'];

function checkWidth(fn: string, v: unknown, ax: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw new ValueError(
      `${fn}: depth ${formatValue(v)} on axis ${ax} is not a non-negative integer`,
    );
  }
  return v;
}

function axisKey(fn: string, what: string, key: string, ndim: number): number {
  const ax = Number(key);
  if (!Number.isInteger(ax) || ax < -ndim || ax >= ndim) {
    throw new ValueError(
      `${fn}: ${what} names axis ${formatValue(key)}, out of bounds for an array of dimension ${ndim}`,
    );
  }
  return ax < 0 ? ax + ndim : ax;
}

/**
 * Depths `[before, after]` for each of `ndim` axes.
 * @example
 * normalizeDepth('overlap', { 1: [0, 2] }, 2); // [[0, 0], [0, 2]]
 */
export function normalizeDepth(fn: string, depth: unknown, ndim: number): AxisDepth[] {
  const out: AxisDepth[] = Array.from({ length: ndim }, () => [0, 0] as const);
  const one = (v: unknown, ax: number): AxisDepth => {
    if (Array.isArray(v) && v.length === 2)
      return [checkWidth(fn, v[0], ax), checkWidth(fn, v[1], ax)];
    const d = checkWidth(fn, v, ax);
    return [d, d];
  };
  if (typeof depth === 'number') return out.map((_, ax) => one(depth, ax));
  if (Array.isArray(depth)) {
    if (depth.length !== ndim) {
      throw new ValueError(
        `${fn}: depth ${formatValue(depth)} must give one entry for each of the ${ndim} axes`,
      );
    }
    return depth.map((v, ax) => one(v, ax));
  }
  if (depth === null || typeof depth !== 'object') {
    throw new ValueError(`${fn}: depth ${formatValue(depth)} is not a number or a record by axis`);
  }
  for (const [key, v] of Object.entries(depth)) {
    const ax = axisKey(fn, 'depth', key, ndim);
    out[ax] = one(v, ax);
  }
  return out;
}

function checkBoundary(fn: string, b: unknown): Boundary {
  if (typeof b === 'number' && Number.isFinite(b)) return b;
  if (typeof b === 'string' && BOUNDARIES.includes(b)) return b as Boundary;
  throw new ValueError(
    `${fn}: boundary ${formatValue(b)} must be 'reflect', 'periodic', 'nearest', 'none' or a number`,
  );
}

/**
 * Boundary rule for each of `ndim` axes (default 'none', as Dask's).
 * @example
 * normalizeBoundary('overlap', { 0: 'periodic' }, 2); // ['periodic', 'none']
 */
export function normalizeBoundary(fn: string, boundary: unknown, ndim: number): Boundary[] {
  const out: Boundary[] = new Array<Boundary>(ndim).fill('none');
  if (boundary === undefined) return out;
  if (typeof boundary !== 'object' || boundary === null) {
    return out.fill(checkBoundary(fn, boundary));
  }
  for (const [key, v] of Object.entries(boundary)) {
    out[axisKey(fn, 'boundary', key, ndim)] = checkBoundary(fn, v);
  }
  return out;
}

/**
 * Chunks of one axis in which every chunk holds at least `size` elements: small chunks are
 * merged with their right neighbours, a short remainder with the last merged chunk.
 * @example
 * ensureMinimumChunks([1, 1, 3, 1], 2); // [2, 4]
 */
export function ensureMinimumChunks(chunks: readonly number[], size: number): number[] {
  if (chunks.every((c) => c >= size)) return [...chunks];
  const out: number[] = [];
  let acc = 0;
  for (const c of chunks) {
    acc += c;
    if (acc >= size) {
      out.push(acc);
      acc = 0;
    }
  }
  if (acc > 0) {
    if (out.length === 0) out.push(acc);
    else out[out.length - 1]! += acc;
  }
  return out;
}

/** Check sizes along overlapped axes are known and depths fit inside the axes. */
export function checkOverlapAxes(
  fn: string,
  shape: readonly Size[],
  depths: readonly AxisDepth[],
): void {
  depths.forEach(([b, a], ax) => {
    if (b === 0 && a === 0) return;
    const n = shape[ax];
    if (n === null || n === undefined) {
      throw new ChunkError(
        `${fn}: axis ${ax} has unknown chunk sizes; call computeChunkSizes(x) before overlapping it`,
      );
    }
    if (Math.max(b, a) > n) {
      throw new ValueError(
        `${fn}: depth ${formatTuple([b, a])} on axis ${ax} is larger than the axis (${n})`,
      );
    }
  });
}

/**
 * Global source index of padded position `g` (outside [0, n)), or -1 for the constant; any
 * distance past the edge folds periodically (NumPy's pad with widths beyond the axis).
 * @example
 * boundarySource(-2, 4, 'mirror'); // 2
 */
export function boundarySource(g: number, n: number, boundary: EdgeRule): number {
  const fold = (period: number) => ((g % period) + period) % period;
  if (boundary === 'periodic') return fold(n);
  if (boundary === 'nearest') return g < 0 ? 0 : n - 1;
  if (boundary === 'reflect') {
    const r = fold(2 * n);
    return r < n ? r : 2 * n - 1 - r;
  }
  if (boundary === 'mirror') {
    if (n === 1) return 0;
    const r = fold(2 * n - 2);
    return r < n ? r : 2 * n - 2 - r;
  }
  return -1;
}

/** Runs of (block, local index) pairs, merging neighbours that step by -1, 0 or 1. */
function toRuns(sources: readonly [number, number][], blocks: number[]): AxisRun[] {
  const runs: { slot: number; start: number; step: number; count: number }[] = [];
  for (const [block, local] of sources) {
    let slot = -1;
    if (block >= 0) {
      slot = blocks.indexOf(block);
      if (slot < 0) slot = blocks.push(block) - 1;
    }
    const last = runs[runs.length - 1];
    if (last && last.slot === slot) {
      const step = local - (last.start + last.step * (last.count - 1));
      if (slot < 0 || step === last.step || (last.count === 1 && Math.abs(step) <= 1)) {
        if (slot >= 0) last.step = step;
        last.count++;
        continue;
      }
    }
    runs.push({ slot, start: slot < 0 ? 0 : local, step: 1, count: 1 });
  }
  return runs;
}

/**
 * How block `k` of an axis chunked `chunks` is extended by `depth` under `boundary`.
 * @example
 * extendAxisBlock([3, 3], [1, 1], 'periodic', 0).blocks; // [1, 0]
 */
export function extendAxisBlock(
  chunks: readonly number[],
  depth: AxisDepth,
  boundary: EdgeRule,
  k: number,
): AxisExtension {
  const offsets: number[] = [0];
  for (const c of chunks) offsets.push(offsets[offsets.length - 1]! + c);
  const n = offsets[chunks.length]!;
  const none = boundary === 'none';
  const lo = offsets[k]! - (none && k === 0 ? 0 : depth[0]);
  const hi = offsets[k + 1]! + (none && k === chunks.length - 1 ? 0 : depth[1]);
  const sources: [number, number][] = [];
  let block = 0;
  for (let g = lo; g < hi; g++) {
    const src = g >= 0 && g < n ? g : boundarySource(g, n, boundary);
    if (src < 0) {
      sources.push([-1, 0]);
      continue;
    }
    while (src < offsets[block]!) block--;
    while (src >= offsets[block + 1]!) block++;
    sources.push([block, src - offsets[block]!]);
  }
  const blocks: number[] = [];
  return { runs: toRuns(sources, blocks), blocks, size: hi - lo };
}

/**
 * Trimmed widths `[before, after]` of block `k` of `nblocks` (the edges of a 'none' axis
 * were never extended).
 */
export function trimWidths(depth: AxisDepth, boundary: EdgeRule, k: number, nblocks: number) {
  const none = boundary === 'none';
  return [none && k === 0 ? 0 : depth[0], none && k === nblocks - 1 ? 0 : depth[1]] as const;
}
