// The `isolate` option of user-function operations (mapBlocks, blockwise, lazyApply): run the
// function's tasks in a separate process so a native crash in it cannot end the program.

import { ValueError } from '../errors.ts';

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
