// The distributed executor: batches become signed BullMQ jobs that `tessera worker` processes on
// any machine run; chunks travel through Redis by key (uploaded once per compute), jobs carry
// keys, never bytes; a compute's keys are deleted when it ends (distributed-keys.ts).

import { randomUUID } from 'node:crypto';
import type { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { NDArray } from '../array/ndarray.ts';
import { formatValue } from '../chunking/format.ts';
import { config } from '../config.ts';
import { CancelledError, ValueError, WorkerCrashedError } from '../errors.ts';
import { createFnResolver, findFnRefs } from '../kernels/resolve.ts';
import { runTask } from '../kernels/run-task.ts';
import type { Chunk, KernelRegistry } from '../kernels/types.ts';
import { type JobSecret, loadSecret, signBatch, signCancel } from './distributed-auth.ts';
import { ComputeKeyring, type ComputeKeys } from './distributed-keys.ts';
import {
  type BatchJobData,
  type BatchJobResult,
  cancelChannel,
  DEFAULT_KEY_TTL_MS,
  decodeChunkBlob,
  encodeBlob,
  KEY_PREFIX,
  REFUSED,
  type RemoteTask,
} from './distributed-wire.ts';
import { importBullmq, importIoredis } from './optional-packages.ts';
import { optionsObject } from './options-object.ts';
import {
  checkRedis,
  type RedisConnection,
  type RedisTlsOptions,
  redactRedisUrl,
  redisConnection,
} from './redis-connection.ts';
import { loadRegistry } from './registry.ts';
import { type BatchTiming, epochNow, fillTiming } from './task-timing.ts';
import type { Executor, TaskPayload } from './types.ts';
import { decodeError } from './wire.ts';

/** Options of the distributed executor: the Redis connection, the queue, the job secret and limits. */
export interface DistributedOptions {
  /** Redis URL (default: config.redis). */
  readonly redis?: string;
  /** BullMQ queue shared with the workers (default 'tessera'). */
  readonly queue?: string;
  /** Batches kept in flight on the cluster, about its total cores (default 8). */
  readonly concurrency?: number;
  /** Kernels merged over the built-ins for main-thread tasks (see ThreadPoolOptions). */
  readonly registryModule?: string;
  /** TLS settings for a rediss:// URL (CA, client certificate). */
  readonly tls?: RedisTlsOptions;
  /** The secret jobs are signed with, shared with the workers (default: env TESSERA_SECRET). */
  readonly secret?: string;
  /** A file holding the secret (default: env TESSERA_SECRET_FILE). */
  readonly secretFile?: string;
  /** Send unsigned jobs (no secret): only for workers started with --insecure. */
  readonly insecure?: boolean;
  /**
   * How long the keys of a compute outlive a client that died (ms, default 1 h); a live client
   * renews them and deletes them when the compute ends.
   */
  readonly keyTtlMs?: number;
}

interface Waiter {
  readonly resolve: (r: BatchJobResult) => void;
  readonly reject: (e: unknown) => void;
  readonly key: string;
}

interface Connected {
  readonly redis: Redis;
  readonly queue: Queue<BatchJobData, BatchJobResult>;
  readonly events: QueueEvents;
}

/**
 * Runs task batches on `tessera worker` processes through a BullMQ queue in Redis
 * (scheduler 'distributed'). Jobs are signed with a secret the workers share (env
 * TESSERA_SECRET, made with `openssl rand -hex 32`); start workers anywhere that reaches the
 * same Redis with `TESSERA_REDIS_URL=redis://host:6379 npx tessera worker`; call shutdown()
 * (or tessera's shutdown()) to close the connections and delete what is left in Redis.
 * @example
 * const cluster = new DistributedExecutor({ redis: 'redis://10.0.0.5:6379', secret });
 * const total = await compute(x.sum(), { scheduler: cluster });
 * await cluster.shutdown();
 */
export class DistributedExecutor implements Executor {
  readonly name = 'distributed';
  readonly concurrency: number;
  /** The connections, opened in the background (bullmq and ioredis load on first use). */
  private readonly conn: Promise<Connected>;
  private readonly waiters = new Map<string, Waiter>();
  private readonly keyring: ComputeKeyring;
  private readonly prefix = `${KEY_PREFIX}${randomUUID()}:`;
  private readonly resolver = createFnResolver({ inline: true });
  private readonly secret: JobSecret | undefined;
  private readonly queueName: string;
  private readonly registryModule: string | undefined;
  private mainRegistry: Promise<KernelRegistry> | undefined;
  private seq = 0;
  private closed = false;

  constructor(options?: DistributedOptions) {
    const caller = 'DistributedExecutor';
    const opts = optionsObject(caller, options);
    if (opts.redis !== undefined && typeof opts.redis !== 'string') {
      throw new ValueError(
        `${caller}: redis ${formatValue(opts.redis)} is not a redis:// URL string`,
      );
    }
    this.secret = loadSecret(opts, caller, {
      file: '{ secretFile }',
      insecure: '{ insecure: true }',
    });
    const url = opts.redis ?? config.redis;
    const connection = redisConnection(url, opts.tls, caller);
    this.queueName = opts.queue ?? 'tessera';
    this.registryModule = opts.registryModule;
    this.concurrency = opts.concurrency ?? 8;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new ValueError(
        `${caller}: concurrency ${JSON.stringify(opts.concurrency)} is not a positive integer`,
      );
    }
    const ttl = opts.keyTtlMs ?? DEFAULT_KEY_TTL_MS;
    if (!Number.isInteger(ttl) || ttl < 100) {
      throw new ValueError(`${caller}: keyTtlMs ${JSON.stringify(ttl)} is not an integer ≥ 100`);
    }
    this.conn = this.connect(url, opts.tls, connection);
    this.conn.catch(() => {}); // reported by the first run
    const redis = this.conn.then((c) => c.redis);
    redis.catch(() => {});
    this.keyring = new ComputeKeyring(redis, ttl, (c) => this.cancelJobs(c));
  }

  private async connect(
    url: string,
    tls: RedisTlsOptions | undefined,
    connection: RedisConnection,
  ): Promise<Connected> {
    const name = this.queueName;
    await checkRedis('DistributedExecutor', url, tls);
    const [{ Queue, QueueEvents }, { Redis }] = await Promise.all([
      importBullmq('DistributedExecutor'),
      importIoredis('DistributedExecutor'),
    ]);
    const redis = new Redis(connection);
    const queue = new Queue<BatchJobData, BatchJobResult>(name, { connection });
    const events = new QueueEvents(name, { connection });
    const shown = redactRedisUrl(url);
    // Redis went away mid-compute: the runs waiting on jobs fail instead of waiting for good.
    const lost = (e: Error): void => {
      for (const [id, w] of this.waiters) {
        this.waiters.delete(id);
        w.reject(
          new WorkerCrashedError(w.key, `lost the connection to Redis at ${shown}: ${e.message}`),
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
      if (w === undefined) return;
      if (failedReason.startsWith(REFUSED)) {
        w.reject(new ValueError(`compute: the ${failedReason} (task ${w.key})`));
      } else w.reject(new WorkerCrashedError(w.key, `the distributed job failed: ${failedReason}`));
    });
    await Promise.all([events.waitUntilReady(), queue.waitUntilReady()]);
    if ((await queue.getWorkersCount()) === 0) {
      process.emitWarning(
        `no tessera worker serves queue '${name}' yet: tasks wait until one starts ` +
          `(TESSERA_REDIS_URL=${redactRedisUrl(url)} npx tessera worker --queue ${name})`,
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

  async run(
    batch: readonly TaskPayload[],
    signal?: AbortSignal,
    timing?: BatchTiming,
  ): Promise<Chunk[]> {
    if (this.closed)
      throw new CancelledError('DistributedExecutor.run: the executor was shut down');
    if (signal?.aborted)
      throw new CancelledError('DistributedExecutor.run: cancelled by its AbortSignal');
    const compute = this.keyring.of(signal);
    const out = new Array<Chunk>(batch.length);
    const remote: number[] = [];
    const local: number[] = [];
    for (let i = 0; i < batch.length; i++) (batch[i]!.mainThread ? local : remote).push(i);
    await Promise.all([
      remote.length > 0 ? this.runRemote(compute, batch, remote, out, signal, timing) : undefined,
      local.length > 0 ? this.runOnMain(compute, batch, local, out, timing) : undefined,
    ]);
    return out;
  }

  private async runRemote(
    compute: ComputeKeys,
    batch: readonly TaskPayload[],
    idx: number[],
    out: Chunk[],
    signal: AbortSignal | undefined,
    timing: BatchTiming | undefined,
  ): Promise<void> {
    const { redis, queue } = await this.conn;
    const n = ++this.seq;
    const uploads: [string, Buffer][] = [];
    const tasks: RemoteTask[] = idx.map((i) => {
      const t = batch[i]!;
      return { ...t, inputs: t.inputs.map((c) => this.keyOf(compute, c, uploads)) };
    });
    const batchKey = `${this.prefix}b${n}`;
    const resultKeys = tasks.map((_, i) => `${this.prefix}r${n}.${i}`);
    const jobId = `${this.prefix}j${n}`;
    const ttlMs = this.keyring.ttlMs;
    compute.keys.add(batchKey);
    for (const k of resultKeys) compute.keys.add(k);
    const blob = encodeBlob(tasks);
    const fields = { computeId: compute.id, batchKey, resultKeys, ttlMs, issuedAt: Date.now() };
    const data: BatchJobData =
      this.secret === undefined
        ? fields
        : { ...fields, sig: signBatch(this.secret, { ...fields, jobId }, blob) };
    const write = redis.multi();
    for (const [key, b] of uploads) write.set(key, b, 'PX', ttlMs);
    write.set(batchKey, blob, 'PX', ttlMs);
    await write.exec();
    const done = new Promise<BatchJobResult>((resolve, reject) => {
      this.waiters.set(jobId, { resolve, reject, key: tasks[0]!.key });
    });
    // shutdown() may reject it while queue.add is still pending, before anything awaits it: the
    // rejection is read below (or the run already failed), never left unhandled
    done.catch(() => {});
    compute.jobs.add(jobId);
    try {
      await queue.add('batch', data, { jobId, removeOnComplete: true, removeOnFail: true });
      const result = await untilAborted(done, signal);
      if (!result.ok) {
        if ('cancelled' in result)
          throw new CancelledError('DistributedExecutor.run: the job was cancelled');
        throw decodeError(result.error);
      }
      if (timing && result.times && result.lanes) {
        for (let k = 0; k < idx.length; k++) {
          timing.lanes[idx[k]!] = result.lanes[k] ?? '';
          timing.start[idx[k]!] = result.times[2 * k] ?? 0;
          timing.end[idx[k]!] = result.times[2 * k + 1] ?? 0;
        }
        if (result.worker !== undefined && result.rss !== undefined)
          timing.workerRss.push([result.worker, result.rss]);
      }
      await this.collect(compute, redis, tasks, idx, resultKeys, out);
    } catch (e) {
      this.waiters.delete(jobId);
      throw e;
    } finally {
      compute.jobs.delete(jobId);
      compute.keys.delete(batchKey);
      redis.del(batchKey).catch(() => {});
    }
  }

  /** Results the main thread needs come over; the rest stay in Redis behind placeholders. */
  private async collect(
    compute: ComputeKeys,
    redis: Redis,
    tasks: readonly RemoteTask[],
    idx: readonly number[],
    resultKeys: readonly string[],
    out: Chunk[],
  ): Promise<void> {
    const wanted: number[] = [];
    for (let k = 0; k < idx.length; k++) {
      if (tasks[k]!.output) wanted.push(k);
      else out[idx[k]!] = this.placeholder(compute, resultKeys[k]!);
    }
    if (wanted.length === 0) return;
    const blobs = await redis.mgetBuffer(...wanted.map((k) => resultKeys[k]!));
    for (let j = 0; j < wanted.length; j++) {
      const k = wanted[j]!;
      const blob = blobs[j];
      if (blob == null) {
        throw new WorkerCrashedError(tasks[k]!.key, `its result ${resultKeys[k]} is not in Redis`);
      }
      // an output goes no further in this compute: its key goes now
      redis.del(resultKeys[k]!).catch(() => {});
      compute.keys.delete(resultKeys[k]!);
      out[idx[k]!] = decodeChunkBlob(blob);
    }
  }

  /** Ask the workers to stop the jobs of a compute that ended (cancelled or failed). */
  private cancelJobs(compute: ComputeKeys): void {
    void this.cancel([...compute.jobs]);
  }

  /** Remove jobs still waiting; tell the workers running the others to stop them. */
  private async cancel(jobs: readonly string[]): Promise<void> {
    if (jobs.length === 0) return;
    const c = await this.conn.catch(() => undefined);
    if (c === undefined) return;
    await Promise.all(
      jobs.map((jobId) => {
        const msg = { jobId, ...(this.secret ? { sig: signCancel(this.secret, jobId) } : {}) };
        return Promise.all([
          c.redis.publish(cancelChannel(this.queueName), JSON.stringify(msg)),
          c.queue.remove(jobId),
        ]).catch(() => {});
      }),
    );
  }

  /** The Redis key of a chunk in this compute, uploading it (once) when it has none. */
  private keyOf(compute: ComputeKeys, c: Chunk, uploads: [string, Buffer][]): string {
    const known = compute.held.get(c);
    if (known !== undefined) return known;
    const key = `${this.prefix}i${++this.seq}`;
    uploads.push([key, encodeBlob(c)]);
    this.keyring.hold(compute, c, key);
    return key;
  }

  /** A stand-in for a chunk that stays in Redis: empty, so it counts no main-thread bytes. */
  private placeholder(compute: ComputeKeys, key: string): Chunk {
    const p = new NDArray(new Uint8Array(0), [0], 'uint8');
    compute.remote.add(p);
    this.keyring.hold(compute, p, key);
    return p;
  }

  /** The chunks themselves for placeholders among `inputs` (for main-thread tasks). */
  private async fetched(compute: ComputeKeys, inputs: readonly Chunk[]): Promise<Chunk[]> {
    if (!inputs.some((c) => compute.remote.has(c))) return [...inputs];
    const { redis } = await this.conn;
    return Promise.all(
      inputs.map(async (c) => {
        if (!compute.remote.has(c)) return c;
        const key = compute.held.get(c)!;
        const blob = await redis.getBuffer(key);
        if (blob === null) {
          throw new WorkerCrashedError(key, `DistributedExecutor: chunk ${key} is not in Redis`);
        }
        return decodeChunkBlob(blob);
      }),
    );
  }

  private async runOnMain(
    compute: ComputeKeys,
    batch: readonly TaskPayload[],
    idx: number[],
    out: Chunk[],
    timing: BatchTiming | undefined,
  ): Promise<void> {
    this.mainRegistry ??= loadRegistry(this.registryModule);
    const registry = await this.mainRegistry;
    await this.resolver.preload(idx.flatMap((i) => findFnRefs(batch[i]!.params)));
    for (const i of idx) {
      const task = batch[i]!;
      const inputs = await this.fetched(compute, task.inputs);
      const start = timing ? epochNow() : 0;
      out[i] = await runTask({ ...task, inputs }, registry, this.resolver);
      if (timing) fillTiming(timing, 'main', Float64Array.of(start, epochNow()), [i], 0);
    }
  }

  /** Runs without a scheduler signal (direct run() calls) ended: delete their keys. */
  computeEnded(): void {
    this.keyring.endUnsignalled();
  }

  /**
   * Delete what the computes still hold in Redis, close the connections; runs still waiting
   * reject with CancelledError.
   */
  async shutdown(): Promise<void> {
    this.closed = true;
    const inFlight = this.cancel([...this.waiters.keys()]);
    for (const w of this.waiters.values()) {
      w.reject(new CancelledError('DistributedExecutor.shutdown: the executor was shut down'));
    }
    this.waiters.clear();
    const c = await this.conn.catch(() => undefined);
    await inFlight;
    if (c !== undefined) await this.keyring.endAll();
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
