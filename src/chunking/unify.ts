// Common chunks for broadcasting elementwise operations (Dask's unify_chunks).
// Per output axis, the union of the chunk boundaries of the inputs that are not broadcast there.

import { ChunkError, ShapeError } from '../errors.ts';
import { numBlocks } from './blocks.ts';
import { broadcastShapes } from './broadcast.ts';
import { formatTuple } from './format.ts';
import type { Chunks, Size } from './types.ts';

/** One input of a broadcasting operation: its shape and chunks. */
export interface UnifyInput {
  readonly shape: readonly Size[];
  readonly chunks: readonly (readonly Size[])[];
}

/** Output chunks of a broadcasting operation, and how many more blocks it has. */
export interface UnifiedChunks {
  readonly chunks: Chunks;
  /** Output block count / the largest input block count (callers warn at >= 10). */
  readonly blockMultiplier: number;
}

/**
 * The coarsest chunking whose boundaries include every boundary of `a` and of `b`.
 * Zero-length chunks vanish (an empty axis gives `[0]`).
 * @example
 * commonRefinement([5, 5], [3, 7]); // [3, 2, 5]
 */
export function commonRefinement(a: readonly number[], b: readonly number[]): number[] {
  const total = sum(a);
  if (total !== sum(b)) {
    throw new ChunkError(
      `commonRefinement: chunks ${formatTuple(a)} and ${formatTuple(b)} cover ${total} and ${sum(b)} elements`,
    );
  }
  const out: number[] = [];
  let i = 0;
  let j = 0;
  let endA = 0;
  let endB = 0;
  let pos = 0;
  while (pos < total) {
    while (endA <= pos) endA += a[i++]!;
    while (endB <= pos) endB += b[j++]!;
    const next = Math.min(endA, endB);
    out.push(next - pos);
    pos = next;
  }
  return out.length === 0 ? [0] : out;
}

/**
 * The output chunks of a broadcasting elementwise operation. Inputs are right-aligned to
 * `outNdim` (default: the largest input ndim). On each output axis, inputs of size 1 there
 * are broadcast and contribute nothing; the others' chunkings are refined to their common
 * boundaries (identical chunkings are kept as they are). On an axis of unknown size the
 * chunkings must be identical. Raises `ShapeError` when shapes do not broadcast.
 * @example
 * unifyChunks('add', [
 *   { shape: [10, 4], chunks: [[5, 5], [4]] },
 *   { shape: [4], chunks: [[2, 2]] },
 * ]); // { chunks: [[5, 5], [2, 2]], blockMultiplier: 2 }
 */
export function unifyChunks(
  fn: string,
  inputs: readonly UnifyInput[],
  outNdim?: number,
): UnifiedChunks {
  let nd = outNdim ?? 0;
  for (const x of inputs) {
    if (x.shape.length !== x.chunks.length) {
      throw new ChunkError(
        `${fn}: chunks have ${x.chunks.length} axes but shape ${formatTuple(x.shape)} has ${x.shape.length}`,
      );
    }
    if (outNdim !== undefined && x.shape.length > outNdim) {
      throw new ShapeError(
        `${fn}: input of shape ${formatTuple(x.shape)} has more than ${outNdim} dimensions`,
      );
    }
    nd = Math.max(nd, x.shape.length);
  }
  const outShape = broadcastShapes(fn, ...inputs.map((x) => x.shape));
  const lead = nd - outShape.length;
  const chunks: Chunks = [];
  for (let ax = 0; ax < nd; ax++) {
    const size = ax < lead ? 1 : outShape[ax - lead]!;
    chunks.push(unifyAxis(fn, inputs, nd - ax, size));
  }
  let maxIn = 1;
  for (const x of inputs) maxIn = Math.max(maxIn, numBlocks(x.chunks));
  return { chunks, blockMultiplier: numBlocks(chunks) / maxIn };
}

/** The output chunks of one axis, `fromEnd` positions from the right (1 = last axis). */
function unifyAxis(fn: string, inputs: readonly UnifyInput[], fromEnd: number, size: Size): Size[] {
  const parts: (readonly Size[])[] = [];
  for (const x of inputs) {
    const ax = x.shape.length - fromEnd;
    if (ax < 0 || x.shape[ax] === 1) continue;
    parts.push(x.chunks[ax]!);
  }
  if (parts.length === 0) return [1];
  const first = parts[0]!;
  if (parts.every((p) => sameSizes(p, first))) return [...first];
  if (size === null || parts.some((p) => p.includes(null))) {
    throw new ChunkError(
      `${fn}: chunks ${parts.map(formatTuple).join(' and ')} of unknown size cannot be ` +
        `aligned on axis -${fromEnd}; call computeChunkSizes() first`,
    );
  }
  let out = first as readonly number[];
  for (const p of parts.slice(1)) out = commonRefinement(out, p as readonly number[]);
  return [...out];
}

function sameSizes(a: readonly Size[], b: readonly Size[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}
