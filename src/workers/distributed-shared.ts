// The distributed executor computes share (config.redis, queue 'tessera'), made on first use
// of scheduler 'distributed' and closed by shutdown().

import { DistributedExecutor } from './distributed.ts';
import { sharedPool } from './shared-pools.ts';

/**
 * The shared distributed executor.
 * @example
 * const cluster = getDistributedExecutor();
 */
export function getDistributedExecutor(): DistributedExecutor {
  return sharedPool('distributed', undefined, () => new DistributedExecutor());
}
