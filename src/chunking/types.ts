// Types of chunk math: explicit chunk sizes per axis, and the specs users write.
// `null` marks a size that is unknown until computed (after boolean masks, unique, …).

/** A size that may be unknown. */
export type Size = number | null;

/** Explicit chunk sizes per axis: `chunks[axis][i]` is the length of block i along axis. */
export type Chunks = Size[][];

/**
 * What one axis of a chunk spec may say: a block size, -1 (whole axis), 'auto', `null`
 * (keep the previous chunks, or the whole axis), or explicit sizes (`null` entries only on
 * an axis of unknown size).
 */
export type AxisChunkSpec = number | 'auto' | null | readonly Size[];

/**
 * A user's chunk spec: one size for every axis, one per axis, -1 (whole axis), 'auto'
 * (aims at config.chunkBytes), a record keyed by axis, or explicit sizes per axis.
 */
export type ChunkSpec =
  | number
  | 'auto'
  | readonly AxisChunkSpec[]
  | Readonly<Record<number, AxisChunkSpec>>;
