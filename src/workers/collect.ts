// Garbage collection of shared chunk memory. V8 does not count SharedArrayBuffers toward
// its GC heuristics, so blocks a thread drops (a worker's fused intermediates, the blocks
// a scheduler releases) would pile up until an unrelated collection; threads call
// collectGarbage() after work and it collects once enough shared memory was allocated. A
// worker also collects for the results it wrote into (notePlaces) and once idle.

import v8 from 'node:v8';
import vm from 'node:vm';
import { bufferId } from '../array/buffer-pool.ts';
import { takeAllocatedBytes } from '../array/dtype.ts';
import type { OutputPlace } from '../array/output-place.ts';

/** Collect after this many shared bytes were allocated or dropped since the last time. */
export const COLLECT_AFTER_BYTES = 256 * 2 ** 20;

/**
 * Collect at the first block of a new result once earlier results written into add up to
 * this many bytes: a worker's heap is small, so a collection costs a few ms, and the memory
 * of a result freed promptly is what the allocator hands the next result (no page faults).
 */
export const RESULTS_COLLECT_BYTES = 32 * 2 ** 20;

let gc: (() => void) | undefined;
let pending = 0;
/** The results (buffer ids) this thread wrote blocks into since its last collection. */
const places = new Set<number>();
let placesBytes = 0;
let idle: ReturnType<typeof setTimeout> | undefined;

function collector(): () => void {
  if (gc === undefined) {
    const given = (globalThis as { gc?: () => void }).gc;
    if (given) gc = given;
    else {
      v8.setFlagsFromString('--expose-gc');
      gc = vm.runInNewContext('gc') as () => void;
    }
  }
  return gc;
}

/**
 * Count `bytes` of shared blocks this thread just dropped (the scheduler's released values:
 * blocks made on other threads are not counted by allocate here).
 * @example
 * noteDropped(chunkBytes(block));
 */
export function noteDropped(bytes: number): void {
  pending += bytes;
}

/**
 * Count the results a task wrote its block into, each once. Every message that hands this
 * thread a result gives it a reference to the result's memory, and until the thread
 * collects, those keep a result its caller has dropped alive (a whole array per compute)
 * while the thread itself allocates next to nothing. So the first block of a new result
 * collects when earlier results add up to the threshold; an idle thread collects too (see
 * collectWhenIdle).
 * @example
 * notePlaces(task.into); // on a worker, after the task copied its block into its result
 */
export function notePlaces(
  into: readonly OutputPlace[] | undefined,
  threshold = RESULTS_COLLECT_BYTES,
): void {
  if (into === undefined) return;
  for (const p of into) {
    const id = bufferId(p.result.data) ?? -1;
    if (places.has(id)) continue;
    if (placesBytes >= threshold) collectNow();
    places.add(id);
    placesBytes += p.result.data.buffer.byteLength;
  }
}

/**
 * Collect once this thread has been idle for `delayMs` if it wrote into results (or
 * dropped shared memory) worth collecting for; busy() cancels it. Call when a thread's last
 * queued batch is answered.
 * @example
 * collectWhenIdle(); // the worker answered its batch and has nothing queued
 */
export function collectWhenIdle(delayMs = 100, threshold = COLLECT_AFTER_BYTES): void {
  if (placesBytes + pending < threshold) return;
  busy();
  idle = setTimeout(() => {
    idle = undefined;
    collectNow();
  }, delayMs);
  idle.unref();
}

/**
 * Cancel a pending idle collection: work arrived.
 * @example
 * busy(); // a batch came in
 */
export function busy(): void {
  if (idle === undefined) return;
  clearTimeout(idle);
  idle = undefined;
}

function collectNow(): void {
  pending = 0;
  places.clear();
  placesBytes = 0;
  collector()();
}

/**
 * Run a full collection when at least `threshold` shared bytes were allocated on this
 * thread since the last one; returns whether it collected.
 * @example
 * collectGarbage(); // after a batch of tasks on a worker
 */
export function collectGarbage(threshold = COLLECT_AFTER_BYTES): boolean {
  pending += takeAllocatedBytes();
  if (pending < threshold) return false;
  collectNow();
  return true;
}
