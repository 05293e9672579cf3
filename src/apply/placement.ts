// Where a user function of mapBlocks, blockwise or lazyApply runs: on the main thread
// (`inline`), in a separate process (`isolate`), or by default on the scheduler's workers.

import { ValueError } from '../errors.ts';

/** Where a user function runs, for mapBlocks, blockwise and lazyApply. */
export interface PlacementOptions {
  /** Run the function on the main thread, closures allowed (not shipped to workers). */
  readonly inline?: boolean;
  /**
   * Run the function in a separate process (the process pool) whatever the scheduler, so a
   * native crash in it (a segfault in an addon) fails the compute with WorkerCrashedError
   * instead of ending the program. Its blocks are copied to and from that process.
   */
  readonly isolate?: boolean;
  /**
   * Let GPU inputs move to the host for the function (JavaScript runs there); without it
   * (or disableGuards) a GPU input is a TransferGuardError.
   */
  readonly allowTransfer?: boolean;
}

/**
 * The `isolate` option, checked: a function that runs on the main thread cannot also run
 * in another process.
 * @example
 * checkIsolate('mapBlocks', { isolate: true }); // true
 */
export function checkIsolate(
  caller: string,
  opts: { readonly isolate?: unknown; readonly inline?: unknown },
): boolean {
  if (opts.isolate === undefined || opts.isolate === false) return false;
  if (opts.isolate !== true) {
    throw new ValueError(`${caller}: isolate ${JSON.stringify(opts.isolate)} is not a boolean`);
  }
  if (opts.inline === true) {
    throw new ValueError(
      `${caller}: isolate and inline exclude each other (inline runs on the main thread)`,
    );
  }
  return true;
}
