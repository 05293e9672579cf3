// Which block buffers of a run may be reused: a count per buffer of the values that hold it
// (views and tuples share buffers), kept by the scheduler on the main thread. A buffer whose
// count reaches zero while it is still reusable goes to this thread's free list
// (array/buffer-pool.ts), from which new blocks take it: inline ones directly, worker ones
// as the spare buffer of their task.

import {
  exposeBuffer,
  exposeReturned,
  poolableId,
  recycleBuffer,
  TRAILER_BYTES,
} from '../array/buffer-pool.ts';
import { NDArray } from '../array/ndarray.ts';
import type { Chunk } from '../kernels/types.ts';

/** Call `visit` with the storage of each array block of `chunk` (tuples walked). */
function forEachData(chunk: Chunk, visit: (data: NDArray['data']) => void): void {
  if (chunk instanceof NDArray) visit(chunk.data);
  else if (Array.isArray(chunk)) for (const c of chunk) forEachData(c, visit);
}

/**
 * Mark every block buffer of `chunk` as exposed (user code saw it, or it is a result): it is
 * never reused.
 * @example
 * exposeChunk(output); // the caller keeps it; no later block may take its memory
 */
export function exposeChunk(chunk: Chunk): void {
  forEachData(chunk, exposeBuffer);
}

/**
 * exposeChunk for the result of a task that ran user code: blocks tessera copied the user's
 * arrays into (the user never saw them) stay reusable.
 * @example
 * exposeResultOfUserCode(output);
 */
export function exposeResultOfUserCode(chunk: Chunk): void {
  forEachData(chunk, exposeReturned);
}

/**
 * Reference counts of a run's reusable block buffers.
 * @example
 * const r = new Recycler();
 * r.hold(value); // a task's value, when it completes
 * r.drop(value); // when the scheduler releases it: the buffer is reused once nothing holds it
 */
export class Recycler {
  private readonly live = new Map<number, { n: number; buf: SharedArrayBuffer }>();
  /** Bytes of buffers this run handed back for reuse. */
  recycledBytes = 0;

  hold(chunk: Chunk): void {
    forEachData(chunk, (data) => {
      const id = poolableId(data);
      if (id === undefined) return;
      const e = this.live.get(id);
      if (e !== undefined) e.n++;
      else this.live.set(id, { n: 1, buf: data.buffer as SharedArrayBuffer });
    });
  }

  /** A value was released; returns the bytes of buffers it handed back for reuse. */
  drop(chunk: Chunk): number {
    let kept = 0;
    forEachData(chunk, (data) => {
      // exposed since it was held: never reused (its entry goes when the run ends)
      const id = poolableId(data);
      if (id === undefined) return;
      const e = this.live.get(id);
      if (e === undefined || --e.n > 0) return;
      this.live.delete(id);
      if (recycleBuffer(e.buf)) kept += e.buf.byteLength - TRAILER_BYTES;
    });
    this.recycledBytes += kept;
    return kept;
  }

  /** The run ended: forget what is still held (results, blocks exposed meanwhile). */
  end(): void {
    this.live.clear();
  }
}
