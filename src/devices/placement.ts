// Placement: withDevice scopes where creation functions put new arrays; toDevice is the one
// explicit (always allowed) transfer, a graph layer whose tasks move each block.

import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';
import { type Device, parseDevice } from './device.ts';
import { checkDeviceDType, moveLayer, scoped } from './device-scope.ts';
import { requireDevice } from './probe.ts';

/**
 * Run `fn` with creation functions (zeros, ones, full, arange, linspace, random.*,
 * fromArray, fromFunction) placing new arrays on `device`; scopes nest, and 'cpu' inside a
 * GPU scope goes back to the host.
 * @example
 * const v = withDevice('gpu', () => random.uniform([512, 512, 512], { seed: 1, dtype: 'float32' }));
 */
export function withDevice<T>(device: Device, fn: () => T): T {
  const d = parseDevice('withDevice', device);
  if (typeof fn !== 'function') {
    throw new ValueError(`withDevice: expected a function to run, got ${formatValue(fn)}`);
  }
  requireDevice('withDevice', d);
  return scoped.run(d, fn);
}

/**
 * `x` on `device` ('cpu', 'gpu', 'gpu:N'): an explicit transfer, never guarded. The same
 * device returns `x` itself; a GPU that is not there is a ValueError saying what was looked
 * for and how to install a driver.
 * @example
 * const g = toDevice(x, 'gpu');
 * const back = await compute(toDevice(g.sum(), 'cpu'));
 */
export function toDevice<X extends ArrayLike>(x: X, device: Device): LazyArray<KnownIn<[X]>> {
  const d = parseDevice('toDevice', device);
  const a: LazyArray = asLazy(x, 'toDevice');
  if (a.device === d) return a as LazyArray<KnownIn<[X]>>;
  requireDevice('toDevice', d);
  checkDeviceDType('toDevice', a.dtype, d);
  return moveLayer(a, d) as LazyArray<KnownIn<[X]>>; // a move keeps the chunks
}
