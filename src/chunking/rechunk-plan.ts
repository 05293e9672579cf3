// Rechunk planning, after Dask's plan_rechunk / _intersect_chunks (dask/array/rechunk.py):
// which old pieces make each new chunk, and which intermediate chunkings keep graphs and tasks small.

import { config } from '../config.ts';
import { ChunkError, ValueError } from '../errors.ts';
import { numBlocks } from './blocks.ts';
import { formatTuple, formatValue } from './format.ts';
import { balancedIntermediate } from './rechunk-intermediate.ts';
import type { Chunks, Size } from './types.ts';

/** A piece of old block `block`: its local range `[start, stop)` along one axis. */
export interface RechunkPiece {
  readonly block: number;
  readonly start: number;
  readonly stop: number;
}

/** Options of planRechunk. */
export interface PlanRechunkOptions {
  /** Bytes one task may hold (default 4 × config.chunkBytes). */
  readonly memoryLimit?: number;
  /** A step may have at most this many pieces per block of its input and output (default 4). */
  readonly graphSizeThreshold?: number;
}

type ReadonlyChunks = readonly (readonly Size[])[];

/**
 * For each new chunk along one axis, the pieces of old chunks that make it up, in order.
 * A new chunk of size 0 gets one empty piece (so its task still has an input).
 * @example
 * intersectChunks([5, 5], [3, 4, 3]);
 * // [[{ block: 0, start: 0, stop: 3 }],
 * //  [{ block: 0, start: 3, stop: 5 }, { block: 1, start: 0, stop: 2 }],
 * //  [{ block: 1, start: 2, stop: 5 }]]
 */
export function intersectChunks(
  oldAxis: readonly number[],
  newAxis: readonly number[],
): RechunkPiece[][] {
  const total = sum(oldAxis);
  if (total !== sum(newAxis)) {
    throw new ChunkError(
      `rechunk: chunks ${formatTuple(newAxis)} sum to ${sum(newAxis)}, not ${total} as chunks ${formatTuple(oldAxis)} do`,
    );
  }
  const out: RechunkPiece[][] = [];
  let b = 0;
  let blockStart = 0;
  let pos = 0;
  const skipTo = (p: number): void => {
    while (b < oldAxis.length - 1 && blockStart + oldAxis[b]! <= p) blockStart += oldAxis[b++]!;
  };
  for (const n of newAxis) {
    const pieces: RechunkPiece[] = [];
    const end = pos + n;
    skipTo(pos);
    if (n === 0) pieces.push({ block: b, start: pos - blockStart, stop: pos - blockStart });
    while (pos < end) {
      skipTo(pos);
      const stop = Math.min(end, blockStart + oldAxis[b]!);
      pieces.push({ block: b, start: pos - blockStart, stop: stop - blockStart });
      pos = stop;
    }
    out.push(pieces);
  }
  return out;
}

/**
 * Number of pieces (tasks that cut an old block for a new one) of a direct rechunk:
 * the product over axes of the pieces per axis; an unchanged axis counts its blocks.
 * @example
 * rechunkGraphSize([[5, 5], [4]], [[3, 4, 3], [2, 2]]); // 8
 */
export function rechunkGraphSize(oldChunks: ReadonlyChunks, newChunks: ReadonlyChunks): number {
  checkChunkPair(oldChunks, newChunks);
  let size = 1;
  for (let ax = 0; ax < oldChunks.length; ax++) {
    const o = oldChunks[ax]!;
    const n = newChunks[ax]!;
    if (sameSizes(o, n)) size *= o.length;
    else size *= countPieces(o as readonly number[], n as readonly number[]);
  }
  return size;
}

/**
 * The most bytes one task of a direct rechunk allocates: the largest new block plus the
 * pieces it gathers from old blocks (which tile it, so twice the largest new block).
 * Old blocks are not counted: they are already held by the tasks that made them.
 * @example
 * rechunkTaskBytes([[5, 5]], [[10]], 8); // 160
 */
export function rechunkTaskBytes(
  oldChunks: ReadonlyChunks,
  newChunks: ReadonlyChunks,
  itemsize: number,
): number {
  checkChunkPair(oldChunks, newChunks);
  let out = 1;
  let gathered = 1;
  for (let ax = 0; ax < newChunks.length; ax++) {
    const n = newChunks[ax]!;
    if (n.includes(null)) {
      throw new ChunkError(
        `rechunk: chunks ${formatTuple(n)} on axis ${ax} have unknown sizes; call computeChunkSizes() first`,
      );
    }
    const o = oldChunks[ax] as readonly number[];
    const pieces = intersectChunks(o, n as number[]);
    // per axis, the new chunk maximising (size, gathered); they coincide, pieces tile a chunk
    let best = 0;
    let bestGathered = 0;
    pieces.forEach((ps, j) => {
      const got = ps.reduce((s, p) => s + p.stop - p.start, 0);
      if ((n[j] as number) + got > best + bestGathered)
        [best, bestGathered] = [n[j] as number, got];
    });
    out *= best;
    gathered *= bestGathered;
  }
  return (out + gathered) * itemsize;
}

/**
 * The chunkings a rechunk from `oldChunks` passes through, ending with `newChunks`
 * (`[newChunks]` for a direct rechunk). A direct rechunk is used when its graph has at most
 * `graphSizeThreshold` × (old blocks + new blocks) pieces. Otherwise intermediates are
 * inserted (Dask's approach: axes whose chunks grow are merged, axes whose chunks shrink
 * are split, through a midpoint sized to `memoryLimit`), so that every step meets the same
 * bound for its own input and output and every step's rechunkTaskBytes stays within
 * `memoryLimit` — or within the old or new chunks' own need when they are larger.
 * Axes of unknown size may only keep their chunks.
 * @example
 * const rows = [[10000], Array(100).fill(100)];
 * const cols = [Array(100).fill(100), [10000]];
 * planRechunk(rows, cols, 8, { memoryLimit: 16e6 }).length; // 4 steps, 4,000 pieces, not 10,000
 */
export function planRechunk(
  oldChunks: ReadonlyChunks,
  newChunks: ReadonlyChunks,
  itemsize: number,
  opts: PlanRechunkOptions = {},
): Chunks[] {
  checkChunkPair(oldChunks, newChunks);
  const memoryLimit = opts.memoryLimit ?? 4 * config.chunkBytes;
  const threshold = opts.graphSizeThreshold ?? 4;
  if (!(memoryLimit > 0) || !(threshold > 0) || !(itemsize > 0)) {
    throw new ValueError(
      `rechunk: memoryLimit ${formatValue(memoryLimit)}, graphSizeThreshold ${formatValue(threshold)} and itemsize ${formatValue(itemsize)} must be positive`,
    );
  }
  const target = newChunks.map((c) => [...c]);
  const unknown = oldChunks.some((c) => c.includes(null));
  const empty = target.some((c) => sum(c as number[]) === 0);
  if (oldChunks.length <= 1 || unknown || empty) return [target];
  const old = oldChunks as readonly (readonly number[])[];
  const tgt = target as number[][];
  const limit = Math.max(
    Math.floor(memoryLimit / (2 * itemsize)),
    largestBlock(old),
    largestBlock(tgt),
  );
  const ok = (a: readonly (readonly number[])[], b: readonly (readonly number[])[]): boolean =>
    largestBlock(b) <= limit && rechunkGraphSize(a, b) <= threshold * (numBlocks(a) + numBlocks(b));
  if (ok(old, tgt)) return [target];
  const paths = [refine([old, tgt], ok)];
  const mid = balancedIntermediate(old, tgt, limit);
  if (mid !== undefined) paths.push(refine([old, mid, tgt], ok));
  const cost = (p: readonly (readonly (readonly number[])[])[]): number =>
    p.slice(1).reduce((s, c, i) => s + rechunkGraphSize(p[i]!, c), 0);
  paths.sort((p, q) => cost(p) - cost(q) || p.length - q.length);
  const best = paths[0]!;
  return [...best.slice(1, -1).map((c) => c.map((a) => [...a])), target];
}

type Step = readonly (readonly number[])[];

/**
 * Make every step of a path acceptable: a step that is not gets split into one step per
 * changed axis (shrinking axes first, so blocks never outgrow both ends), each of which
 * has at most (input blocks + output blocks) pieces. Then skip ahead wherever a longer
 * step is still acceptable.
 */
function refine(path: readonly Step[], ok: (a: Step, b: Step) => boolean): Step[] {
  const fine: Step[] = [path[0]!];
  for (let i = 1; i < path.length; i++) {
    const a = fine[fine.length - 1]!;
    const b = path[i]!;
    if (ok(a, b)) fine.push(b);
    else fine.push(...axisSteps(a, b));
  }
  const out: Step[] = [fine[0]!];
  let i = 0;
  while (i < fine.length - 1) {
    let j = fine.length - 1;
    while (j > i + 1 && !ok(fine[i]!, fine[j]!)) j--;
    out.push(fine[j]!);
    i = j;
  }
  return out;
}

/** One chunking per changed axis from `a` to `b`: shrinking axes first, then growing ones. */
function axisSteps(a: Step, b: Step): Step[] {
  const changed = a
    .map((_, ax) => ax)
    .filter((ax) => !sameSizes(a[ax]!, b[ax]!))
    .sort((p, q) => growth(a, b, p) - growth(a, b, q));
  const out: Step[] = [];
  let cur = a;
  for (const ax of changed) {
    cur = cur.map((c, k) => (k === ax ? b[ax]! : c));
    out.push(cur);
  }
  return out;
}

function growth(a: Step, b: Step, ax: number): number {
  return maxOf(b[ax]!) / maxOf(a[ax]!);
}

function countPieces(o: readonly number[], n: readonly number[]): number {
  let count = 0;
  for (const pieces of intersectChunks(o, n)) count += pieces.length;
  return count;
}

/** Same number of axes; per axis, unknown sizes unchanged and known sizes summing alike. */
function checkChunkPair(oldChunks: ReadonlyChunks, newChunks: ReadonlyChunks): void {
  if (oldChunks.length !== newChunks.length) {
    throw new ChunkError(
      `rechunk: new chunks ${formatValue(newChunks)} have ${newChunks.length} axes, the array has ${oldChunks.length}`,
    );
  }
  oldChunks.forEach((o, ax) => {
    const n = newChunks[ax]!;
    if (o.includes(null) || n.includes(null)) {
      if (sameSizes(o, n)) return;
      throw new ChunkError(
        `rechunk: axis ${ax} has unknown chunk sizes ${formatTuple(o)}; they cannot change to ` +
          `${formatTuple(n)} until computeChunkSizes() resolves them`,
      );
    }
    const total = sum(o as number[]);
    if (sum(n as number[]) !== total) {
      throw new ChunkError(
        `rechunk: chunks ${formatTuple(n)} sum to ${sum(n as number[])}, not ${total}, on axis ${ax}`,
      );
    }
  });
}

function largestBlock(chunks: readonly (readonly number[])[]): number {
  let p = 1;
  for (const c of chunks) p *= maxOf(c);
  return p;
}

function sameSizes(a: readonly Size[], b: readonly Size[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function sum(xs: readonly (number | null)[]): number {
  let s = 0;
  for (const x of xs) s += x ?? 0;
  return s;
}

function maxOf(xs: readonly number[]): number {
  let m = 0;
  for (const x of xs) if (x > m) m = x;
  return m;
}
