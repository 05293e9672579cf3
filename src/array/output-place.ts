// Where an output block goes in its compute's result: the result array and the block's
// offset in it. The scheduler hands places to the tasks of output blocks, so the thread that
// made a block copies it into the result itself (in parallel, the main thread left free).

import { writeRegion } from '../backends/cpu-js/layout/slice.ts';
import type { Chunk } from '../kernels/types.ts';
import { NDArray } from './ndarray.ts';

/** One use of a block as part of a result: the result, the block's offset and its shape. */
export interface OutputPlace {
  readonly result: NDArray;
  readonly at: readonly number[];
  readonly shape: readonly number[];
}

/** Whether `value` is an array block that fits `place` exactly (shape and dtype). */
export function fitsPlace(place: OutputPlace, value: Chunk): value is NDArray {
  if (!(value instanceof NDArray) || value.dtype !== place.result.dtype) return false;
  const { shape } = place;
  return value.shape.length === shape.length && value.shape.every((n, ax) => n === shape[ax]);
}

/**
 * Copy `value` into each of its places that it fits (a block that does not fit is left to
 * the main thread, which reports why).
 * @example
 * writePlaces(task.into, value); // on the worker that computed value
 */
export function writePlaces(places: readonly OutputPlace[], value: Chunk): void {
  for (const p of places) if (fitsPlace(p, value)) writeRegion(p.result, value, p.at);
}
