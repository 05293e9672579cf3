// Garbage collection of shared chunk memory. V8 does not count SharedArrayBuffers toward
// its GC heuristics, so blocks a thread drops (a worker's fused intermediates, the blocks
// a scheduler releases) would pile up until an unrelated collection; threads call
// collectGarbage() after work and it collects once enough shared memory was allocated.

import v8 from 'node:v8';
import vm from 'node:vm';
import { takeAllocatedBytes } from '../array/dtype.ts';

/** Collect after this many shared bytes were allocated or dropped since the last time. */
export const COLLECT_AFTER_BYTES = 256 * 2 ** 20;

let gc: (() => void) | undefined;
let pending = 0;

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
 * Run a full collection when at least `threshold` shared bytes were allocated on this
 * thread since the last one; returns whether it collected.
 * @example
 * collectGarbage(); // after a batch of tasks on a worker
 */
export function collectGarbage(threshold = COLLECT_AFTER_BYTES): boolean {
  pending += takeAllocatedBytes();
  if (pending < threshold) return false;
  pending = 0;
  collector()();
  return true;
}
