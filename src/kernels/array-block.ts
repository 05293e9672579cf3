// The one check kernels make on an input: a block is an NDArray, not a tuple of outputs.

import { NDArray } from '../array/ndarray.ts';
import type { Chunk } from './types.ts';

/**
 * `c` as an NDArray; a TypeError naming `kernel` for a tuple (a multi-output task's result)
 * or a missing input.
 * @example
 * const x = arrayBlock(inputs[0], 'sort');
 */
export function arrayBlock(c: Chunk | undefined, kernel: string): NDArray {
  if (!(c instanceof NDArray)) {
    throw new TypeError(
      `${kernel}: expected an array block, got ${c === undefined ? 'none' : 'a tuple'}`,
    );
  }
  return c;
}
