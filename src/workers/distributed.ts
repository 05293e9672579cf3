// The distributed executor: batches become BullMQ jobs that `tessera worker` processes on any
// machine run; chunks travel through Redis by key (each uploaded once, deleted when the
// main thread lets go of it), jobs carry keys, never bytes.

import { randomUUID } from 'node:crypto';
import type { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { NDArray } from '../array/ndarray.ts';
import { config } from '../config.ts';
import { CancelledError, ValueError, WorkerCrashedError } from '../errors.ts';
import { createFnResolver, findFnRefs } from '../kernels/resolve.ts';
import { runTask } from '../kernels/run-task.ts';
import type { Chunk, KernelRegistry } from '../kernels/types.ts';
import {
  type BatchJobData,
  type BatchJobResult,
  checkRedis,
  decodeChunkBlob,
  encodeBlob,
  KEY_PREFIX,
  KEY_TTL_MS,
  type RedisConnection,
  type RemoteTask,
  redisConnection,
} from './distributed-wire.ts';
import { importBullmq, importIoredis } from './optional-packages.ts';
import { loadRegistry } from './registry.ts';
import type { Executor, TaskPayload } from './types.ts';
import { decodeError } from './wire.ts';

export interface DistributedOptions {
  /** Redis URL (default: config.redis). */
  readonly redis?: string;
  /** BullMQ queue shared with the workers (default 'tessera'). */
  readonly queue?: string;
  /** Batches kept in flight on the cluster, about its total cores (default 8). */
  readonly concurrency?: number;
  /** Kernels merged over the built-ins for main-thread tasks (see ThreadPoolOptions). */
  readonly registryModule?: string;
}

interface Waiter {
  readonly resolve: (r: BatchJobResult) => void;
  readonly reject: (e: unknown) => void;
  readonly key: string;
}

/**
 * Runs task batches on `tessera worker` processes through a BullMQ queue in Redis
 * (scheduler 'distributed'). Start workers anywhere that reaches the same Redis with
 * `npx tessera worker --redis redis://host:6379`; call shutdown() (or tessera's shutdown())
 * to close the connections.
 * @example
 * const cluster = new DistributedExecutor({ redis: 'redis://10.0.0.5:6379' });
 * const total = await compute(x.sum(), { scheduler: cluster });
 * await cluster.shutdown();
 */
export class DistributedExecutor implements Executor {
  readonly name = 'distributed';
  readonly concurrency: number;
  /** The connections, opened in the background (bullmq and ioredis load on first use). */
  private readonly conn: Promise<{
    redis: Redis;
    queue: Queue<BatchJobData, BatchJobResult>;
    events: QueueEvents;
  }>;
  private readonly waiters = new Map<string, Waiter>();
  private readonly keys = new WeakMap<object, string>();
  /** Placeholders of chunks that stay in Redis. */
  private readonly remote = new WeakSet<object>();
  private readonly finalizer = new FinalizationRegistry<string>((key) => {
    this.conn.then(({ redis }) => redis.del(key)).catch(() => {});
  });
  private readonly prefix = `${KEY_PREFIX}${randomUUID()}:`;
  private readonly resolver = createFnResolver({ inline: true });
  private mainRegistry: Promise<KernelRegistry> | undefined;
  private seq = 0;
  private closed = false;

  constructor(private readonly opts: DistributedOptions = {}) {
    const url = opts.redis ?? config.redis;
    const connection = redisConnection(url);
    const name = opts.queue ?? 'tessera';
    this.concurrency = opts.concurrency ?? 8;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new ValueError(
        `DistributedExecutor: concurrency ${JSON.stringify(opts.concurrency)} is not a positive integer`,
      );
    }
    this.conn = this.connect(name, url, connection);
    this.conn.catch(() => {}); // reported by the first run
  }

  private async connect(name: string, url: string, connection: RedisConnection) {
    await checkRedis('DistributedExecutor', url);
    const [{ Queue, QueueEvents }, { Redis }] = await Promise.all([
      importBullmq('DistributedExecutor'),
      importIoredis('DistributedExecutor'),
    ]);
    const redis = new Redis(connection);
    const queue = new Queue<BatchJobData, BatchJobResult>(name, { connection });
    const events = new QueueEvents(name, { connection });
    // Redis went away mid-compute: the runs waiting on jobs fail instead of waiting for good.
    const lost = (e: Error): void => {
      for (const [id, w] of this.waiters) {
        this.waiters.delete(id);
        w.reject(
          new WorkerCrashedError(w.key, `lost the connection to Redis at ${url}: ${e.message}`),
        );
      }
    };
    redis.on('error', lost);
    queue.on('error', lost);
    events.on('error', lost);
    events.on('completed', ({ jobId, returnvalue }) => {
      const result = (
        typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue
      ) as BatchJobResult;
      this.settle(jobId)?.resolve(result);
    });
    events.on('failed', ({ jobId, failedReason }) => {
      const w = this.settle(jobId);
      w?.reject(new WorkerCrashedError(w.key, `the distributed job failed: ${failedReason}`));
    });
    await Promise.all([events.waitUntilReady(), queue.waitUntilReady()]);
    if ((await queue.getWorkersCount()) === 0) {
      process.emitWarning(
        `no tessera worker serves queue '${name}' yet: tasks wait until one starts ` +
          `(npx tessera worker --redis redis://${connection.host}:${connection.port} --queue ${name})`,
        { code: 'TESSERA_NO_WORKERS' },
      );
    }
    return { redis, queue, events };
  }

  private settle(jobId: string): Waiter | undefined {
    const w = this.waiters.get(jobId);
    this.waiters.delete(jobId);
    return w;
  }

  async run(batch: readonly TaskPayload[], signal?: AbortSignal): Promise<Chunk[]> {
    if (this.closed)
      throw new CancelledError('DistributedExecutor.run: the executor was shut down');
    const out = new Array<Chunk>(batch.length);
    const remote: number[] = [];
    const local: number[] = [];
    for (let i = 0; i < batch.length; i++) (batch[i]!.mainThread ? local : remote).push(i);
    await Promise.all([
      remote.length > 0 ? this.runRemote(batch, remote, out, signal) : undefined,
      local.length > 0 ? this.runOnMain(batch, local, out) : undefined,
    ]);
    return out;
  }

  private async runRemote(
    batch: readonly TaskPayload[],
    idx: number[],
    out: Chunk[],
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const { redis, queue } = await this.conn;
    const n = ++this.seq;
    const uploads: [string, Buffer][] = [];
    const tasks: RemoteTask[] = idx.map((i) => {
      const t = batch[i]!;
      return { ...t, inputs: t.inputs.map((c) => this.keyOf(c, uploads)) };
    });
    const batchKey = `${this.prefix}b${n}`;
    const resultKeys = tasks.map((_, i) => `${this.prefix}r${n}.${i}`);
    const write = redis.multi();
    for (const [key, blob] of uploads) write.set(key, blob, 'PX', KEY_TTL_MS);
    write.set(batchKey, encodeBlob(tasks), 'PX', KEY_TTL_MS);
    await write.exec();
    const jobId = `${this.prefix}j${n}`;
    const done = new Promise<BatchJobResult>((resolve, reject) => {
      this.waiters.set(jobId, { resolve, reject, key: tasks[0]!.key });
    });
    try {
      await queue.add(
        'batch',
        { batchKey, resultKeys },
        {
          jobId,
          removeOnComplete: true,
          removeOnFail: true,
        },
      );
      const result = await untilAborted(done, signal);
      if (!result.ok) throw decodeError(result.error);
      // Results only later tasks read stay in Redis: the main thread holds a placeholder.
      const wanted: number[] = [];
      for (let k = 0; k < idx.length; k++) {
        if (tasks[k]!.output) wanted.push(k);
        else out[idx[k]!] = this.placeholder(resultKeys[k]!);
      }
      const blobs =
        wanted.length > 0 ? await redis.mgetBuffer(...wanted.map((k) => resultKeys[k]!)) : [];
      for (let j = 0; j < wanted.length; j++) {
        const k = wanted[j]!;
        const blob = blobs[j];
        if (blob == null) {
          throw new WorkerCrashedError(
            tasks[k]!.key,
            `its result ${resultKeys[k]} is not in Redis`,
          );
        }
        const value = decodeChunkBlob(blob);
        this.remember(value, resultKeys[k]!);
        out[idx[k]!] = value;
      }
    } catch (e) {
      this.waiters.delete(jobId);
      if (e instanceof CancelledError) queue.remove(jobId).catch(() => {});
      throw e;
    } finally {
      redis.del(batchKey).catch(() => {});
    }
  }

  /** The Redis key of a chunk, uploading it (once) when it has none. */
  private keyOf(c: Chunk, uploads: [string, Buffer][]): string {
    const known = this.keys.get(c);
    if (known !== undefined) return known;
    const key = `${this.prefix}i${++this.seq}`;
    uploads.push([key, encodeBlob(c)]);
    this.remember(c, key);
    return key;
  }

  /** A stand-in for a chunk that stays in Redis: empty, so it counts no main-thread bytes. */
  private placeholder(key: string): Chunk {
    const p = new NDArray(new Uint8Array(0), [0], 'uint8');
    this.remote.add(p);
    this.remember(p, key);
    return p;
  }

  /** The chunks themselves for placeholders among `inputs` (for main-thread tasks). */
  private async fetched(inputs: readonly Chunk[]): Promise<Chunk[]> {
    if (!inputs.some((c) => this.remote.has(c))) return [...inputs];
    const { redis } = await this.conn;
    return Promise.all(
      inputs.map(async (c) => {
        if (!this.remote.has(c)) return c;
        const key = this.keys.get(c)!;
        const blob = await redis.getBuffer(key);
        if (blob === null) throw new Error(`DistributedExecutor: chunk ${key} is not in Redis`);
        return decodeChunkBlob(blob);
      }),
    );
  }

  private remember(c: Chunk, key: string): void {
    this.keys.set(c, key);
    this.finalizer.register(c, key);
  }

  private async runOnMain(
    batch: readonly TaskPayload[],
    idx: number[],
    out: Chunk[],
  ): Promise<void> {
    this.mainRegistry ??= loadRegistry(this.opts.registryModule);
    const registry = await this.mainRegistry;
    await this.resolver.preload(idx.flatMap((i) => findFnRefs(batch[i]!.params)));
    for (const i of idx) {
      const task = batch[i]!;
      const inputs = await this.fetched(task.inputs);
      out[i] = await runTask({ ...task, inputs }, registry, this.resolver);
    }
  }

  /** Close the Redis connections; runs still waiting reject with CancelledError. */
  async shutdown(): Promise<void> {
    this.closed = true;
    for (const w of this.waiters.values()) {
      w.reject(new CancelledError('DistributedExecutor.shutdown: the executor was shut down'));
    }
    this.waiters.clear();
    const c = await this.conn.catch(() => undefined);
    await Promise.all([c?.queue.close(), c?.events.close()]);
    c?.redis.disconnect();
  }
}

function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return p;
  if (signal.aborted) {
    return Promise.reject(
      new CancelledError('DistributedExecutor.run: cancelled by its AbortSignal'),
    );
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void =>
      reject(new CancelledError('DistributedExecutor.run: cancelled by its AbortSignal'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
