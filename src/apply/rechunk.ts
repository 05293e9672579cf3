// rechunk: change an array's chunking through the steps planRechunk chooses (after Dask's
// rechunk): each step is one layer whose new blocks copy the pieces of old blocks they overlap.

import { checkOptions } from '../array/check-options.ts';
import { itemsize } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { MergePiece } from '../backends/cpu-js/layout/gather.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { normalizeChunks } from '../chunking/normalize.ts';
import { intersectChunks, planRechunk, type RechunkPiece } from '../chunking/rechunk-plan.ts';
import type { ChunkSpec, Chunks, Size } from '../chunking/types.ts';
import { config } from '../config.ts';
import { ChunkError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef, Layer, TaskSpec } from '../graph/layer.ts';

/** Options of rechunk. */
export interface RechunkOptions {
  /** Bytes any one task may hold (default 4 × config.chunkBytes); more steps keep under it. */
  memoryLimit?: number;
}

/** A piece along one axis: `count` null = the whole old block (an unknown size kept as is). */
interface AxisPiece {
  readonly block: number;
  readonly start: number;
  readonly count: Size;
}

function sameAxis(a: readonly Size[], b: readonly Size[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** True when two chunkings are identical (unknown sizes equal only to themselves). */
export function sameChunks(a: Chunks, b: Chunks): boolean {
  return a.length === b.length && a.every((c, ax) => sameAxis(c, b[ax]!));
}

/** For each new block along one axis, its pieces of old blocks (unchanged axes map 1:1). */
function axisPieces(oldAxis: readonly Size[], newAxis: readonly Size[]): AxisPiece[][] {
  if (sameAxis(oldAxis, newAxis)) {
    return oldAxis.map((c, block) => [{ block, start: 0, count: c }]);
  }
  const pieces = intersectChunks(oldAxis as number[], newAxis as number[]);
  return pieces.map((ps) =>
    ps.map((p: RechunkPiece) => ({ block: p.block, start: p.start, count: p.stop - p.start })),
  );
}

/** The task of one new block: pass an old block through, slice one, or merge several. */
function rechunkTask(
  perAxis: readonly AxisPiece[][][],
  oldChunks: Chunks,
  block: readonly number[],
): TaskSpec {
  const lists = block.map((b, ax) => perAxis[ax]![b]!);
  if (lists.every((l) => l.length === 1)) {
    const ps = lists.map((l) => l[0]!);
    const src = ps.map((p) => p.block);
    const whole = ps.every((p, ax) => p.start === 0 && p.count === oldChunks[ax]![p.block]);
    if (whole) return { kernel: 'passthrough', inputs: [[0, src]] };
    const start = ps.map((p) => p.start);
    const step = ps.map(() => 1);
    const count = ps.map((p) => p.count);
    if (count.includes(null)) {
      const axes = ps.map((_, ax) => ax);
      return { kernel: 'getitem', inputs: [[0, src]], params: { start, step, count, axes } };
    }
    // a split: a contiguous piece is a view of the old block (pieces of a merged block are)
    return { kernel: 'slice', inputs: [[0, src]], params: { start, step, count, view: true } };
  }
  const inputs: BlockRef[] = [];
  const pieces: MergePiece[] = [];
  // offsets of each piece inside the new block, per axis
  const offsets = lists.map((l) => {
    const out: number[] = [];
    let acc = 0;
    for (const p of l) {
      out.push(acc);
      acc += p.count ?? 0;
    }
    return out;
  });
  const idx = lists.map(() => 0);
  for (;;) {
    const ps = idx.map((i, ax) => lists[ax]![i]!);
    pieces.push({
      input: inputs.length,
      start: ps.map((p) => p.start),
      count: ps.map((p) => p.count),
      offset: idx.map((i, ax) => offsets[ax]![i]!),
    });
    inputs.push([0, ps.map((p) => p.block)]);
    let ax = idx.length - 1;
    for (; ax >= 0; ax--) {
      idx[ax]!++;
      if (idx[ax]! < lists[ax]!.length) break;
      idx[ax] = 0;
    }
    if (ax < 0) break;
  }
  return { kernel: 'rechunk-merge', inputs, params: { pieces } };
}

/** One step of a rechunk: a layer with chunks `newChunks` over `layer`. */
function rechunkLayer(layer: Layer, newChunks: Chunks): Layer {
  const perAxis = layer.chunks.map((c, ax) => axisPieces(c, newChunks[ax]!));
  return defineLayer({
    op: 'rechunk',
    deps: [layer],
    chunks: newChunks,
    dtype: layer.dtype,
    fusable: false,
    task: (b) => rechunkTask(perAxis, layer.chunks, b),
  });
}

/** The raw spec a user gave for one axis, or undefined when it keeps the axis. */
function axisEntry(spec: ChunkSpec | Chunks, ax: number, nd: number): unknown {
  if (typeof spec === 'number' || typeof spec === 'string') return spec;
  if (Array.isArray(spec)) {
    const items = spec as readonly unknown[];
    if (nd === 1 && items.length > 1 && items.every((v) => typeof v === 'number')) return items;
    return items[ax];
  }
  const rec = spec as Readonly<Record<number, unknown>>;
  return rec[ax] ?? rec[ax - nd];
}

/** normalizeChunks keeps unknown axes whatever the spec says; a rechunk must refuse instead. */
function checkUnknownAxes(a: LazyArray, spec: ChunkSpec | Chunks): void {
  a.chunks.forEach((c, ax) => {
    if (!c.includes(null)) return;
    const entry = axisEntry(spec, ax, a.ndim);
    if (entry === undefined || entry === null) return;
    if (Array.isArray(entry) && sameAxis(entry as Size[], c)) return;
    throw new ChunkError(
      `rechunk: axis ${ax} has unknown size (chunks ${formatTuple(c)}); it cannot be rechunked to ` +
        `${formatValue(entry)} until computeChunkSizes(x) resolves it`,
    );
  });
}

/**
 * Rechunk `x` to `chunks` (any chunk spec; `null` or missing axes keep their chunks,
 * 'auto' aims at config.chunkBytes). Returns `x` itself when nothing changes. Large
 * reshuffles go through intermediate chunkings so that no task holds more than
 * `memoryLimit` bytes and no step's graph exceeds 4 × (old + new blocks) pieces.
 * Changing the chunks of an axis of unknown size is a ChunkError: call
 * computeChunkSizes(x) first.
 * @example
 * const x = zeros([100, 100], { chunks: [10, 100] });
 * rechunk(x, [100, 10]).numBlocks; // [1, 10]
 */
export function rechunk<X extends ArrayLike>(
  x: X,
  chunks: ChunkSpec | Chunks,
  rechunkOpts?: RechunkOptions,
): LazyArray<KnownIn<[X]>> {
  const opts = checkOptions('rechunk', rechunkOpts);
  const a = asLazy(x, 'rechunk');
  checkUnknownAxes(a, chunks);
  const target = normalizeChunks(chunks, a.shape, {
    dtype: a.dtype,
    previousChunks: a.chunks,
    fn: 'rechunk',
  });
  if (sameChunks(a.chunks, target)) return a;
  const steps = planRechunk(a.chunks, target, itemsize(a.dtype), {
    memoryLimit: opts.memoryLimit ?? 4 * config.chunkBytes,
  });
  let layer = a.layer;
  for (const step of steps) {
    if (!sameChunks(layer.chunks, step)) layer = rechunkLayer(layer, step);
  }
  return new LazyArray(layer);
}
