// The intermediate blocks of a fused task go back to the thread's free list when the task
// ends: they were made by its steps, and nothing outside the task ever saw them.

import { recycleBuffer, reusableHere } from '../array/buffer-pool.ts';
import { NDArray } from '../array/ndarray.ts';
import type { Chunk } from './types.ts';

/** Add the buffer under every array of `c` (tuples walked) to `into`. */
function buffersOf(c: Chunk, into: Set<ArrayBufferLike>): void {
  if (c instanceof NDArray) into.add(c.data.buffer);
  else if (Array.isArray(c)) for (const x of c) buffersOf(x, into);
}

/**
 * Recycle the buffers of a task's step values, except those under `kept` (the task's inputs
 * and its result, which may be views of a step's value): each buffer once, and only buffers
 * a built-in kernel made on this thread inside the task (see buffer-pool.ts). The caller
 * runs it only when no code tessera does not own took part in the task.
 * @example
 * recycleSteps(stepValues, [...task.inputs, out]);
 */
export function recycleSteps(steps: readonly Chunk[], kept: readonly Chunk[]): void {
  const seen = new Set<ArrayBufferLike>();
  for (const c of kept) buffersOf(c, seen);
  for (const s of steps) recycleUnseen(s, seen);
}

/** Recycle each buffer of `c` not in `seen` (then in it) that this thread may reuse. */
function recycleUnseen(c: Chunk, seen: Set<ArrayBufferLike>): void {
  if (Array.isArray(c)) {
    for (const x of c) recycleUnseen(x, seen);
    return;
  }
  if (!(c instanceof NDArray)) return;
  const buf = c.data.buffer;
  if (seen.has(buf)) return;
  seen.add(buf);
  if (buf instanceof SharedArrayBuffer && reusableHere(c.data)) recycleBuffer(buf);
}
