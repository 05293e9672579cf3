// A `tessera worker`: takes batch jobs from the BullMQ queue, checks each job's signature and
// the code its tasks name against the worker's policy, reads input chunks from Redis, runs the
// batch on this machine's thread pool and writes the results back.

import { hostname } from 'node:os';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { config } from '../config.ts';
import { CancelledError, TaskError } from '../errors.ts';
import { type CodePolicy, checkTasksCode, createCodePolicy } from '../kernels/code-policy.ts';
import type { Chunk } from '../kernels/types.ts';
import { ChunkCache } from './chunk-cache.ts';
import { type JobSecret, loadSecret, verifyBatch, verifyCancel } from './distributed-auth.ts';
import { writeResults } from './distributed-results.ts';
import {
  type BatchJobData,
  type BatchJobResult,
  cancelChannel,
  decodeBatchBlob,
  decodeChunkBlob,
  REFUSED,
} from './distributed-wire.ts';
import { importBullmq, importIoredis } from './optional-packages.ts';
import { ThreadPoolExecutor } from './pool.ts';
import {
  checkRedis,
  type RedisTlsOptions,
  redactRedisUrl,
  redisConnection,
} from './redis-connection.ts';
import { ReplaceablePool } from './replaceable-pool.ts';
import { type BatchTiming, newTiming } from './task-timing.ts';
import type { Executor, TaskPayload } from './types.ts';
import { encodeError } from './wire.ts';

/** Options of a distributed worker: the Redis connection, the queue, concurrency, the secret and the code policy. */
export interface DistributedWorkerOptions {
  /** Redis URL (default: config.redis, from env TESSERA_REDIS_URL). */
  readonly redis?: string;
  /** TLS settings for a rediss:// URL. */
  readonly tls?: RedisTlsOptions;
  /** BullMQ queue (default 'tessera'). */
  readonly queue?: string;
  /** Worker threads of this machine's pool (default: config.workers or every core). */
  readonly workers?: number;
  /** Kernels merged over the built-ins (see ThreadPoolOptions.registryModule). */
  readonly registryModule?: string;
  /** Run batches here instead of on a new thread pool (an abort is then only cooperative). */
  readonly executor?: Executor;
  /** Bytes of chunks kept between jobs so later jobs skip Redis for them (default 1 GiB). */
  readonly cacheBytes?: number;
  /**
   * How long a job's lock lasts without renewal (default 10 s): when a worker dies, its jobs
   * go to another worker about this long after. A job that kills its worker twice fails the
   * compute with WorkerCrashedError.
   */
  readonly lockMs?: number;
  /** The secret jobs must be signed with (default: env TESSERA_SECRET). */
  readonly secret?: string;
  /** A file holding the secret (default: env TESSERA_SECRET_FILE). */
  readonly secretFile?: string;
  /** Accept unsigned jobs: anyone who can write to the Redis then runs tasks here. */
  readonly insecure?: boolean;
  /** Folders or packages whose modules may hold kernels (defineKernels, backends). */
  readonly kernels?: readonly string[];
  /** Run kernels shipped by source text: this runs arbitrary code sent by any client. */
  readonly allowSource?: boolean;
  /** After an abort, how long a kernel may keep running before its pool is replaced (ms, default 1000). */
  readonly abortGraceMs?: number;
}

/** A running worker: close() stops taking jobs and shuts its pool down. */
export interface DistributedWorker {
  /** Stop taking jobs, finish the running ones and shut the worker's pool down. */
  close(): Promise<void>;
  /** How often a runaway kernel's pool was replaced after an abort. */
  readonly poolsReplaced: number;
}

interface WorkerContext {
  readonly redis: Redis;
  readonly run: (
    tasks: TaskPayload[],
    signal: AbortSignal,
    timing: BatchTiming,
  ) => Promise<Chunk[]>;
  readonly cache: ChunkCache;
  readonly secret: JobSecret | undefined;
  readonly policy: CodePolicy;
  /** Jobs running here, by id: a cancel message aborts them. */
  readonly running: Map<string, AbortController>;
}

/** A job's data checked for shape: anything else is refused before it is looked at further. */
function jobData(data: unknown): BatchJobData | undefined {
  const d = data as Partial<BatchJobData> | null;
  if (typeof d !== 'object' || d === null) return undefined;
  const ok =
    typeof d.batchKey === 'string' &&
    typeof d.computeId === 'string' &&
    Array.isArray(d.resultKeys) &&
    d.resultKeys.every((k) => typeof k === 'string') &&
    typeof d.ttlMs === 'number' &&
    d.ttlMs > 0 &&
    typeof d.issuedAt === 'number' &&
    (d.sig === undefined || typeof d.sig === 'string');
  return ok ? (d as BatchJobData) : undefined;
}

class Refused extends Error {}

/** The job's batch blob, once its data and signature are checked (never deserialized before). */
async function authenticated(ctx: WorkerContext, job: Job): Promise<[BatchJobData, Buffer]> {
  const data = jobData(job.data);
  if (data === undefined) throw new Refused('malformed job data (not a tessera batch)');
  if (ctx.secret !== undefined && data.sig === undefined) {
    throw new Refused('missing signature (a client without the secret, or a hand-made job)');
  }
  const blob = await ctx.redis.getBuffer(data.batchKey);
  if (blob === null) {
    throw new Error(
      `tessera worker: batch ${data.batchKey} is not in Redis (its compute ended, or it expired)`,
    );
  }
  if (ctx.secret !== undefined) {
    const fields = { ...data, jobId: String(job.id) };
    if (!verifyBatch(ctx.secret, fields, blob, data.sig)) {
      throw new Refused(
        "bad signature (the client's TESSERA_SECRET differs from the worker's, or the job was altered)",
      );
    }
    if (Date.now() > data.issuedAt + data.ttlMs)
      throw new Refused('expired (signed longer ago than its key TTL)');
  }
  return [data, blob];
}

async function readInputs(ctx: WorkerContext, keys: Iterable<string>): Promise<Map<string, Chunk>> {
  const values = new Map<string, Chunk>();
  const missing: string[] = [];
  for (const k of new Set(keys)) {
    const held = ctx.cache.get(k);
    if (held === undefined) missing.push(k);
    else values.set(k, held);
  }
  const blobs = missing.length > 0 ? await ctx.redis.mgetBuffer(...missing) : [];
  for (let i = 0; i < missing.length; i++) {
    const b = blobs[i];
    if (b == null) throw new Error(`tessera worker: input chunk ${missing[i]} is not in Redis`);
    const value = decodeChunkBlob(b);
    values.set(missing[i]!, value);
    ctx.cache.set(missing[i]!, value);
  }
  return values;
}

const failure = (tasks: readonly { key: string }[], e: unknown): BatchJobResult => {
  const key = (e as { key?: unknown }).key;
  const index = Math.max(
    0,
    tasks.findIndex((t) => t.key === key),
  );
  return { ok: false, index, error: encodeError(e) };
};

/** Run one job's batch: its failure (a kernel threw, the policy refused) comes back as data. */
async function runJob(ctx: WorkerContext, job: Job): Promise<BatchJobResult> {
  const [data, blob] = await authenticated(ctx, job);
  const remote = decodeBatchBlob(blob);
  try {
    checkTasksCode(ctx.policy, remote as unknown as TaskPayload[], 'tessera worker');
  } catch (e) {
    if (e instanceof TaskError) return failure(remote, e);
    throw e;
  }
  const values = await readInputs(
    ctx,
    remote.flatMap((t) => t.inputs),
  );
  const tasks: TaskPayload[] = remote.map((t) => ({
    ...t,
    inputs: t.inputs.map((k) => values.get(k)!),
  }));
  const ac = new AbortController();
  const jobId = String(job.id);
  ctx.running.set(jobId, ac);
  let results: Chunk[];
  // every job is timed (a few clock reads per task): the client's profile shows them
  const timing = newTiming(tasks.length);
  try {
    results = await untilCancelled(ctx.run(tasks, ac.signal, timing), ac.signal);
  } catch (e) {
    if (e instanceof CancelledError && ac.signal.aborted) return { ok: false, cancelled: true };
    return failure(tasks, e);
  } finally {
    ctx.running.delete(jobId);
  }
  const written = await writeResults(ctx.redis, data, results);
  for (let i = 0; i < results.length && written; i++)
    ctx.cache.set(data.resultKeys[i]!, results[i]!);
  if (!written) return { ok: false, cancelled: true };
  const host = hostname();
  const times: number[] = [];
  for (let i = 0; i < tasks.length; i++) times.push(timing.start[i]!, timing.end[i]!);
  const lanes = timing.lanes.map((l) => `${host} ${l || 'worker'}`);
  // the client's profile shows the workers' memory: this process's, and its pool's processes'
  let rss = process.memoryUsage.rss();
  for (const r of new Map(timing.workerRss).values()) rss += r;
  return { ok: true, times, lanes, worker: `${host} process ${process.pid}`, rss };
}

function untilCancelled<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new CancelledError('tessera worker: the job was cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Report a dropped job once (its id quoted and cut short: it is whatever the sender chose). */
function reportDropped(job: Job, why: string): void {
  console.error(
    `tessera worker: dropped job ${JSON.stringify(String(job.id).slice(0, 120))}: ${why}`,
  );
}

/**
 * Start a worker of the 'distributed' scheduler on this machine.
 * @example
 * const worker = await startDistributedWorker({ redis: 'redis://10.0.0.5:6379', kernels: ['./kernels'] });
 * // … later
 * await worker.close();
 */
export async function startDistributedWorker(
  opts: DistributedWorkerOptions = {},
): Promise<DistributedWorker> {
  const caller = 'tessera worker';
  const secret = loadSecret(opts, caller);
  const policy = createCodePolicy(
    { ...(opts.kernels ? { kernels: opts.kernels } : {}), allowSource: opts.allowSource === true },
    caller,
  );
  const url = opts.redis ?? config.redis;
  const connection = redisConnection(url, opts.tls, caller);
  await checkRedis(caller, url, opts.tls);
  const [{ Worker, UnrecoverableError }, { Redis }] = await Promise.all([
    importBullmq(caller),
    importIoredis(caller),
  ]);
  const redis = new Redis(connection);
  const sub = new Redis(connection);
  const pool =
    opts.executor === undefined
      ? new ReplaceablePool(
          () =>
            new ThreadPoolExecutor({
              ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
              ...(opts.registryModule !== undefined ? { registryModule: opts.registryModule } : {}),
            }),
          opts.abortGraceMs ?? 1000,
        )
      : undefined;
  const executor = opts.executor;
  const ctx: WorkerContext = {
    redis,
    run: (tasks, signal, timing) =>
      pool ? pool.run(tasks, signal, timing) : executor!.run(tasks, signal, timing),
    cache: new ChunkCache(opts.cacheBytes ?? 2 ** 30),
    secret,
    policy,
    running: new Map(),
  };
  const queue = opts.queue ?? 'tessera';
  const lockMs = opts.lockMs ?? 10_000;
  const worker = new Worker<BatchJobData, BatchJobResult>(
    queue,
    async (job) => {
      try {
        return await runJob(ctx, job);
      } catch (e) {
        if (!(e instanceof Refused)) throw e;
        reportDropped(job, e.message);
        throw new UnrecoverableError(REFUSED + e.message);
      }
    },
    {
      connection,
      // two batches per core in flight keep the pool busy while results move
      concurrency: 2 * (pool?.concurrency ?? executor!.concurrency),
      lockDuration: lockMs,
      stalledInterval: Math.max(500, lockMs / 2),
      maxStalledCount: 1,
    },
  );
  sub.on('message', (_channel: string, text: string) => {
    let msg: { jobId?: unknown; sig?: unknown };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return;
    }
    if (typeof msg.jobId !== 'string') return;
    if (secret !== undefined && !verifyCancel(secret, msg.jobId, msg.sig)) return;
    ctx.running.get(msg.jobId)?.abort();
  });
  // Redis going away is reported once per outage; the clients reconnect on their own.
  let down = false;
  const shown = redactRedisUrl(url);
  const onError = (e: Error): void => {
    if (down) return;
    down = true;
    console.error(`tessera worker: Redis at ${shown}: ${e.message} (reconnecting)`);
  };
  for (const r of [redis, sub]) r.on('error', onError);
  worker.on('error', onError);
  redis.on('ready', () => {
    down = false;
  });
  await Promise.all([worker.waitUntilReady(), sub.subscribe(cancelChannel(queue))]);
  return {
    get poolsReplaced() {
      return pool?.replaced ?? 0;
    },
    async close() {
      await worker.close();
      await pool?.shutdown();
      redis.disconnect();
      sub.disconnect();
    },
  };
}
