// Transfer guards: an implicit move of data between devices raises TransferGuardError when
// the expression is built, unless inside disableGuards() or the call passes allowTransfer.

import { AsyncLocalStorage } from 'node:async_hooks';
import { formatValue } from '../chunking/format.ts';
import { TransferGuardError, ValueError } from '../errors.ts';

const allowed = new AsyncLocalStorage<boolean>();

/**
 * Run `fn` with implicit transfers allowed (restored when it returns or throws; concurrent
 * scopes do not leak into each other).
 * @example
 * const host = await disableGuards(async () => compute(gpuArray));
 */
export function disableGuards<T>(fn: () => T): T {
  if (typeof fn !== 'function') {
    throw new ValueError(`disableGuards: expected a function to run, got ${formatValue(fn)}`);
  }
  return allowed.run(true, fn);
}

/** True inside disableGuards. */
export function guardsDisabled(): boolean {
  return allowed.getStore() === true;
}

/** The `allowTransfer` option of a call, checked. */
export function readAllowTransfer(fn: string, v: unknown): boolean {
  if (v === undefined) return false;
  if (typeof v !== 'boolean') {
    throw new ValueError(`${fn}: allowTransfer must be a boolean, got ${formatValue(v)}`);
  }
  return v;
}

/**
 * Throw TransferGuardError for an implicit move of `array` (`bytes`, null when unknown)
 * from `from` to `to`, unless transfers are allowed here or by the call.
 * @example
 * guardTransfer('compute', x.name, 'gpu', 'cpu', x.nbytes, opts.allowTransfer === true);
 */
export function guardTransfer(
  fn: string,
  array: string,
  from: string,
  to: string,
  bytes: number | null,
  allowTransfer = false,
): void {
  if (from === to || allowTransfer || guardsDisabled()) return;
  throw new TransferGuardError(fn, array, from, to, bytes ?? -1);
}
