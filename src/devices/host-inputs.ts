// User functions (lazyApply, mapBlocks, blockwise) are JavaScript: they run on the host.
// GPU inputs reach them only through a guarded transfer; asHost moves results back.

import { LazyArray } from '../array/lazy-array.ts';
import { moveLayer } from './device-scope.ts';
import { guardTransfer, readAllowTransfer } from './guards.ts';

/**
 * `v` on the host when it is a GPU array (a guarded transfer: TransferGuardError unless
 * allowed), else `v` itself.
 * @example
 * const host = hostInput('lazyApply', x, opts.allowTransfer);
 */
export function hostInput<T>(caller: string, v: T, allowTransfer: unknown): T | LazyArray {
  if (!(v instanceof LazyArray) || v.device === 'cpu') return v;
  guardTransfer(
    caller,
    v.name,
    v.device,
    'cpu',
    v.nbytes,
    readAllowTransfer(caller, allowTransfer),
  );
  return moveLayer(v, 'cpu');
}

/** The first GPU device among `values`, if any (where asHost results go back to). */
export function firstGpuDevice(values: readonly unknown[]): LazyArray['device'] | undefined {
  for (const v of values) if (v instanceof LazyArray && v.device !== 'cpu') return v.device;
  return undefined;
}
