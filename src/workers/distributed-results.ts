// How a worker writes a job's results: all of them with the job's TTL, and only while the job's
// batch key still exists (its compute has not ended), in one atomic script, so a job that
// finishes after its compute was aborted leaves nothing behind.

import type { Redis } from 'ioredis';
import type { Chunk } from '../kernels/types.ts';
import { type BatchJobData, encodeBlob } from './distributed-wire.ts';

// KEYS[1]: the batch key; KEYS[2…]: result keys; ARGV[1…n]: blobs; ARGV[n+1]: TTL in ms.
const WRITE_IF_LIVE = `
if redis.call('exists', KEYS[1]) == 0 then return 0 end
local ttl = ARGV[#ARGV]
for i = 2, #KEYS do redis.call('set', KEYS[i], ARGV[i - 1], 'PX', ttl) end
return 1`;

/**
 * Write `results` at the job's result keys; false (nothing written) when its compute ended.
 * @example
 * if (!(await writeResults(redis, job.data, results))) return { ok: false, cancelled: true };
 */
export async function writeResults(
  redis: Redis,
  data: BatchJobData,
  results: readonly Chunk[],
): Promise<boolean> {
  const keys = [data.batchKey, ...data.resultKeys.slice(0, results.length)];
  const args = [...results.map((r) => encodeBlob(r)), String(Math.round(data.ttlMs))];
  const done = await redis.eval(WRITE_IF_LIVE, keys.length, ...keys, ...args);
  return done === 1;
}
