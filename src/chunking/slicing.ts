// Basic slicing over chunks: each output block is a strided piece of exactly one input
// block, so a slicing layer builds one task per output block and touches only needed blocks.

import { IndexError } from '../errors.ts';
import { chunkOffsets } from './blocks.ts';
import type { AxisSelection } from './normalize-index.ts';
import type { Chunks, Size } from './types.ts';

export type { AxisSelection, NormalizedIndex } from './normalize-index.ts';
export { normalizeIndex } from './normalize-index.ts';

/**
 * A strided piece of one input block along one axis: local positions
 * `start + k * step`, `k < count`, of block `block`. `count` is `null` only when a `:` on
 * an axis of unknown size passes whole blocks through.
 */
export interface SlicePiece {
  readonly block: number;
  readonly start: number;
  readonly step: number;
  readonly count: Size;
}

/** How one input axis is sliced. */
export interface AxisSlice {
  /** False for an integer index: the axis is dropped from the output. */
  readonly keep: boolean;
  /** Output chunk sizes along this axis (empty when dropped). */
  readonly chunks: Size[];
  /** One piece per output block along this axis (exactly one when dropped). */
  readonly pieces: SlicePiece[];
}

/** A basic-slicing plan: per input axis, the output chunks and their source pieces. */
export interface SlicePlan {
  readonly axes: AxisSlice[];
  /** Output chunks: the kept axes, in input order (new axes are the caller's to insert). */
  readonly chunks: Chunks;
}

/** The input block and strided selection (per input axis) that make one output block. */
export interface BlockSlice {
  readonly inputBlock: number[];
  readonly start: number[];
  readonly step: number[];
  /** Elements taken per input axis (1 on dropped axes); `null` = the whole block. */
  readonly count: Size[];
}

/**
 * Plan basic slicing of an array with chunks `chunks` by one int/slice selection per axis
 * (from normalizeIndex). Chunk structure is kept: every output block is one strided piece
 * of one input block; a step that crosses blocks gives one output block per touched
 * input block; negative steps reverse block order; blocks left empty are dropped, but an
 * empty selection keeps one `[0]` chunk. Integer-array selections belong to `take`.
 * @example
 * sliceChunks([[4, 4, 2]], [{ kind: 'slice', start: 9, step: -3, count: 4 }]).chunks;
 * // [[1, 1, 2]]: positions 9 | 6 | 3, 0 from blocks 2, 1, 0
 */
export function sliceChunks(
  chunks: readonly (readonly Size[])[],
  sel: readonly AxisSelection[],
): SlicePlan {
  if (sel.length !== chunks.length) {
    throw new IndexError(
      `sliceChunks: ${sel.length} selections for chunks of ${chunks.length} axes`,
    );
  }
  const axes = sel.map((s, ax) => sliceAxis(chunks[ax]!, s, ax));
  return { axes, chunks: axes.filter((a) => a.keep).map((a) => a.chunks) };
}

/**
 * The input block and strided selection computing output block `outBlock` (a multi-index
 * over the kept axes of `plan`).
 * @example
 * const plan = sliceChunks([[4, 4], [3]], [{ kind: 'int', index: 5 }, { kind: 'slice', start: 0, step: 2, count: 2 }]);
 * sliceBlock(plan, [0]); // { inputBlock: [1, 0], start: [1, 0], step: [1, 2], count: [1, 2] }
 */
export function sliceBlock(plan: SlicePlan, outBlock: readonly number[]): BlockSlice {
  const inputBlock: number[] = [];
  const start: number[] = [];
  const step: number[] = [];
  const count: Size[] = [];
  let k = 0;
  for (const a of plan.axes) {
    const i = a.keep ? outBlock[k++]! : 0;
    const piece = a.pieces[i];
    if (piece === undefined) {
      throw new IndexError(
        `sliceBlock: block index ${i} is out of bounds for an axis with ${a.pieces.length} blocks`,
      );
    }
    inputBlock.push(piece.block);
    start.push(piece.start);
    step.push(piece.step);
    count.push(piece.count);
  }
  if (k !== outBlock.length) {
    throw new IndexError(`sliceBlock: block has ${outBlock.length} indices, output has ${k} axes`);
  }
  return { inputBlock, start, step, count };
}

function sliceAxis(axisChunks: readonly Size[], s: AxisSelection, ax: number): AxisSlice {
  if (s.kind === 'array') {
    throw new IndexError(
      `sliceChunks: an integer array on axis ${ax} is not basic slicing; use take()`,
    );
  }
  if (s.kind === 'slice' && s.count === null) {
    const pieces = axisChunks.map((c, block) => ({ block, start: 0, step: 1, count: c }));
    return { keep: true, chunks: [...axisChunks], pieces };
  }
  if (axisChunks.includes(null)) {
    throw new IndexError(
      `sliceChunks: axis ${ax} has chunks of unknown size; only ':' can slice it`,
    );
  }
  const offsets = chunkOffsets(axisChunks as readonly number[]);
  if (s.kind === 'int') {
    const block = blockOf(offsets, s.index);
    const piece = { block, start: s.index - offsets[block]!, step: 1, count: 1 };
    return { keep: false, chunks: [], pieces: [piece] };
  }
  const strided = { start: s.start, step: s.step, count: s.count ?? 0 };
  const pieces = s.step > 0 ? forwardPieces(offsets, strided) : backwardPieces(offsets, strided);
  if (pieces.length === 0) {
    return { keep: true, chunks: [0], pieces: [{ block: 0, start: 0, step: s.step, count: 0 }] };
  }
  return { keep: true, chunks: pieces.map((p) => p.count as number), pieces };
}

type Strided = { readonly start: number; readonly step: number; readonly count: number };

function forwardPieces(offsets: readonly number[], s: Strided): SlicePiece[] {
  const out: SlicePiece[] = [];
  if (s.count === 0) return out;
  const last = s.start + (s.count - 1) * s.step;
  for (let b = blockOf(offsets, s.start); b < offsets.length - 1 && offsets[b]! <= last; b++) {
    const lo = offsets[b]!;
    const hi = offsets[b + 1]!;
    const kLo = Math.max(0, Math.ceil((lo - s.start) / s.step));
    const kHi = Math.min(s.count, Math.ceil((hi - s.start) / s.step));
    if (kHi > kLo) {
      out.push({ block: b, start: s.start + kLo * s.step - lo, step: s.step, count: kHi - kLo });
    }
  }
  return out;
}

function backwardPieces(offsets: readonly number[], s: Strided): SlicePiece[] {
  const out: SlicePiece[] = [];
  if (s.count === 0) return out;
  const stride = -s.step;
  const last = s.start - (s.count - 1) * stride;
  for (let b = blockOf(offsets, s.start); b >= 0 && offsets[b + 1]! > last; b--) {
    const lo = offsets[b]!;
    const hi = offsets[b + 1]!;
    const kLo = Math.max(0, Math.floor((s.start - hi) / stride) + 1);
    const kHi = Math.min(s.count, Math.floor((s.start - lo) / stride) + 1);
    if (kHi > kLo) {
      out.push({ block: b, start: s.start - kLo * stride - lo, step: s.step, count: kHi - kLo });
    }
  }
  return out;
}

/** The block holding position `i` (offsets from chunkOffsets; skips empty blocks). */
function blockOf(offsets: readonly number[], i: number): number {
  let lo = 0;
  let hi = offsets.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
