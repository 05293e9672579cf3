// A `tessera worker`: takes batch jobs from the BullMQ queue, reads their input chunks from
// Redis, runs the batch on this machine's thread pool and writes the results back.

import type { Redis } from 'ioredis';
import { config } from '../config.ts';
import type { Chunk } from '../kernels/types.ts';
import { ChunkCache } from './chunk-cache.ts';
import {
  type BatchJobData,
  type BatchJobResult,
  checkRedis,
  decodeBatchBlob,
  decodeChunkBlob,
  encodeBlob,
  KEY_TTL_MS,
  redisConnection,
} from './distributed-wire.ts';
import { importBullmq, importIoredis } from './optional-packages.ts';
import { ThreadPoolExecutor } from './pool.ts';
import type { Executor, TaskPayload } from './types.ts';
import { encodeError } from './wire.ts';

export interface DistributedWorkerOptions {
  /** Redis URL (default: config.redis). */
  readonly redis?: string;
  /** BullMQ queue (default 'tessera'). */
  readonly queue?: string;
  /** Worker threads of this machine's pool (default: config.workers or every core). */
  readonly workers?: number;
  /** Kernels merged over the built-ins (see ThreadPoolOptions.registryModule). */
  readonly registryModule?: string;
  /** Run batches here instead of on a new thread pool (tests use the inline executor). */
  readonly executor?: Executor;
  /** Bytes of chunks kept between jobs so later jobs skip Redis for them (default 1 GiB). */
  readonly cacheBytes?: number;
  /**
   * How long a job's lock lasts without renewal (default 10 s): when a worker dies, its jobs
   * go to another worker about this long after. A job that kills its worker twice fails the
   * compute with WorkerCrashedError.
   */
  readonly lockMs?: number;
}

/** A running worker: close() stops taking jobs and shuts its pool down. */
export interface DistributedWorker {
  close(): Promise<void>;
}

/** Run one job's batch: its failure (a kernel threw) comes back as data. */
async function runJob(
  redis: Redis,
  executor: Executor,
  cache: ChunkCache,
  data: BatchJobData,
): Promise<BatchJobResult> {
  const blob = await redis.getBuffer(data.batchKey);
  if (blob === null) throw new Error(`tessera worker: batch ${data.batchKey} is not in Redis`);
  const remote = decodeBatchBlob(blob);
  const values = new Map<string, Chunk>();
  const missing: string[] = [];
  for (const k of new Set(remote.flatMap((t) => t.inputs))) {
    const held = cache.get(k);
    if (held === undefined) missing.push(k);
    else values.set(k, held);
  }
  const blobs = missing.length > 0 ? await redis.mgetBuffer(...missing) : [];
  for (let i = 0; i < missing.length; i++) {
    const b = blobs[i];
    if (b == null) throw new Error(`tessera worker: input chunk ${missing[i]} is not in Redis`);
    const value = decodeChunkBlob(b);
    values.set(missing[i]!, value);
    cache.set(missing[i]!, value);
  }
  const tasks: TaskPayload[] = remote.map((t) => ({
    ...t,
    inputs: t.inputs.map((k) => values.get(k)!),
  }));
  let results: Chunk[];
  try {
    results = await executor.run(tasks);
  } catch (e) {
    const key = (e as { key?: unknown }).key;
    const index = Math.max(
      0,
      tasks.findIndex((t) => t.key === key),
    );
    return { ok: false, index, error: encodeError(e) };
  }
  const write = redis.multi();
  for (let i = 0; i < results.length; i++) {
    write.set(data.resultKeys[i]!, encodeBlob(results[i]), 'PX', KEY_TTL_MS);
    cache.set(data.resultKeys[i]!, results[i]!);
  }
  await write.exec();
  return { ok: true };
}

/**
 * Start a worker of the 'distributed' scheduler on this machine.
 * @example
 * const worker = await startDistributedWorker({ redis: 'redis://10.0.0.5:6379' });
 * // … later
 * await worker.close();
 */
export async function startDistributedWorker(
  opts: DistributedWorkerOptions = {},
): Promise<DistributedWorker> {
  const url = opts.redis ?? config.redis;
  await checkRedis('tessera worker', url);
  const [{ Worker }, { Redis }] = await Promise.all([
    importBullmq('tessera worker'),
    importIoredis('tessera worker'),
  ]);
  const connection = redisConnection(url);
  const redis = new Redis(connection);
  const pool =
    opts.executor === undefined
      ? new ThreadPoolExecutor({
          ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
          ...(opts.registryModule !== undefined ? { registryModule: opts.registryModule } : {}),
        })
      : undefined;
  const executor = opts.executor ?? pool!;
  const cache = new ChunkCache(opts.cacheBytes ?? 2 ** 30);
  const lockMs = opts.lockMs ?? 10_000;
  const worker = new Worker<BatchJobData, BatchJobResult>(
    opts.queue ?? 'tessera',
    (job) => runJob(redis, executor, cache, job.data),
    {
      connection,
      // two batches per core in flight keep the pool busy while results move
      concurrency: 2 * executor.concurrency,
      lockDuration: lockMs,
      stalledInterval: Math.max(500, lockMs / 2),
      maxStalledCount: 1,
    },
  );
  // Redis going away is reported once per outage; the clients reconnect on their own.
  let down = false;
  const onError = (e: Error): void => {
    if (down) return;
    down = true;
    console.error(`tessera worker: Redis at ${url}: ${e.message} (reconnecting)`);
  };
  redis.on('error', onError);
  worker.on('error', onError);
  redis.on('ready', () => {
    down = false;
  });
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      await pool?.shutdown();
      redis.disconnect();
    },
  };
}
