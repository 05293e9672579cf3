// The thread-pool executor: batches of tasks run on worker_threads (comlink + p-queue), chunk
// data shared through SharedArrayBuffers; main-thread tasks run here through runTask.

import { availableParallelism } from 'node:os';
import type { ResourceLimits } from 'node:worker_threads';
import PQueue from 'p-queue';
import { config } from '../config.ts';
import { CancelledError, ValueError } from '../errors.ts';
import { builtinKernels } from '../kernels/builtins.ts';
import { createFnResolver, findFnRefs } from '../kernels/resolve.ts';
import { runTask } from '../kernels/run-task.ts';
import type { Chunk, KernelRegistry } from '../kernels/types.ts';
import { NotStartedError, PoolWorker } from './pool-worker.ts';
import type { Executor, TaskPayload } from './types.ts';

export interface ThreadPoolOptions {
  /** Worker threads; default config.workers, or os.availableParallelism() when that is 0. */
  readonly workers?: number;
  /**
   * URL of a module exporting `registry` (a KernelRegistry) merged over the built-in
   * kernels, in every worker and for main-thread tasks.
   */
  readonly registryModule?: string;
  /**
   * Batches in flight per worker (default 1: a batch goes to the first worker that is free).
   * More pipelines messages, but a batch may then wait behind a long task on a busy worker.
   */
  readonly depth?: number;
  /** Heap limits per worker: a worker over them dies with WorkerCrashedError. */
  readonly resourceLimits?: ResourceLimits;
}

/**
 * Runs task batches on a pool of worker threads. Batches resolve in task order; a kernel
 * throw rejects with TaskError, a dying worker with WorkerCrashedError (and is replaced),
 * an abort with CancelledError. Idle workers never keep the process alive.
 * @example
 * const pool = new ThreadPoolExecutor({ workers: 2 });
 * const [y] = await pool.run([{ id: 0, key: 'slice-0', kernel: 'slice', params, inputs: [x] }]);
 * await pool.shutdown();
 */
export class ThreadPoolExecutor implements Executor {
  readonly name = 'threads';
  readonly concurrency: number;
  private readonly workers: (PoolWorker | undefined)[];
  private readonly queue: PQueue;
  private readonly closing = new AbortController();
  private readonly resolver = createFnResolver({ inline: true });
  private mainRegistry: Promise<KernelRegistry> | undefined;
  private seq = 0;

  constructor(private readonly opts: ThreadPoolOptions = {}) {
    const n = opts.workers ?? (config.workers > 0 ? config.workers : availableParallelism());
    if (!Number.isInteger(n) || n < 1) {
      throw new ValueError(
        `ThreadPoolExecutor: workers ${JSON.stringify(n)} is not a positive integer`,
      );
    }
    const depth = opts.depth ?? 1;
    if (!Number.isInteger(depth) || depth < 1) {
      throw new ValueError(
        `ThreadPoolExecutor: depth ${JSON.stringify(depth)} is not a positive integer`,
      );
    }
    this.concurrency = n;
    this.workers = new Array(n).fill(undefined);
    this.queue = new PQueue({ concurrency: n * depth });
  }

  async run(batch: readonly TaskPayload[], signal?: AbortSignal): Promise<Chunk[]> {
    if (this.closing.signal.aborted) {
      throw new CancelledError('ThreadPoolExecutor.run: the pool was shut down');
    }
    if (signal?.aborted)
      throw new CancelledError('ThreadPoolExecutor.run: cancelled by its AbortSignal');
    const out = new Array<Chunk>(batch.length);
    const work: Promise<void>[] = [];
    const mainIdx: number[] = [];
    for (let i = 0; i < batch.length; i++) if (batch[i]!.mainThread) mainIdx.push(i);
    if (mainIdx.length === 0) this.dispatchAll(batch, null, out, work, signal);
    else {
      const workerIdx: number[] = [];
      for (let i = 0; i < batch.length; i++) if (!batch[i]!.mainThread) workerIdx.push(i);
      const tasks = workerIdx.map((i) => batch[i]!);
      this.dispatchAll(tasks, workerIdx, out, work, signal);
      work.push(this.runOnMain(batch, mainIdx, out));
    }
    if (work.length === 0) return out;
    await this.untilSettled(work.length === 1 ? work[0]! : Promise.all(work), signal);
    return out;
  }

  /** Split `tasks` into pieces for the idle workers; results land at `at[i]` (or i). */
  private dispatchAll(
    tasks: readonly TaskPayload[],
    at: number[] | null,
    out: Chunk[],
    work: Promise<void>[],
    signal: AbortSignal | undefined,
  ): void {
    const n = tasks.length;
    if (n === 0) return;
    const idle = this.concurrency - this.queue.pending - this.queue.size;
    const pieces = Math.max(1, Math.min(n, idle));
    for (let p = 0; p < pieces; p++) {
      const start = Math.floor((p * n) / pieces);
      const end = Math.floor(((p + 1) * n) / pieces);
      const piece = pieces === 1 ? tasks : tasks.slice(start, end);
      work.push(
        this.dispatch(piece, signal).then((results) => {
          for (let i = 0; i < results.length; i++)
            out[at ? at[start + i]! : start + i] = results[i]!;
        }),
      );
    }
  }

  private dispatch(
    tasks: readonly TaskPayload[],
    signal: AbortSignal | undefined,
  ): Promise<Chunk[]> {
    return this.queue.add(async () => {
      for (;;) {
        if (signal?.aborted || this.closing.signal.aborted) {
          throw new CancelledError('ThreadPoolExecutor.run: cancelled before the batch started');
        }
        // Batch numbers live in an Int32 control slot: they stay in 1 … 2^31 - 1.
        this.seq = (this.seq % 0x7fffffff) + 1;
        try {
          return await this.leastLoaded().run(tasks, this.seq, signal);
        } catch (e) {
          if (!(e instanceof NotStartedError)) throw e;
        }
      }
    });
  }

  private leastLoaded(): PoolWorker {
    let best = -1;
    for (let i = 0; i < this.workers.length; i++) {
      const w = this.workers[i];
      if (w === undefined || w.dead) {
        best = i;
        break;
      }
      if (best < 0 || w.load < this.workers[best]!.load) best = i;
    }
    let w = this.workers[best];
    if (w === undefined || w.dead) {
      w = this.spawn();
      this.workers[best] = w;
    }
    return w;
  }

  private spawn(): PoolWorker {
    const { registryModule, resourceLimits } = this.opts;
    return new PoolWorker(
      { registryModule, resourceLimits, depth: this.opts.depth ?? 1 },
      (dead, wasReady) => {
        const i = this.workers.indexOf(dead);
        if (i < 0) return;
        // A worker that served is replaced at once; one that failed to start is retried lazily.
        this.workers[i] = wasReady && !this.closing.signal.aborted ? this.spawn() : undefined;
      },
    );
  }

  private async runOnMain(
    batch: readonly TaskPayload[],
    idx: number[],
    out: Chunk[],
  ): Promise<void> {
    const registry = await this.registry();
    await this.resolver.preload(idx.flatMap((i) => findFnRefs(batch[i]!.params)));
    for (const i of idx) out[i] = runTask(batch[i]!, registry, this.resolver);
  }

  private registry(): Promise<KernelRegistry> {
    const url = this.opts.registryModule;
    this.mainRegistry ??=
      url === undefined
        ? Promise.resolve(builtinKernels)
        : import(/* @vite-ignore */ url).then(
            (m: { registry?: KernelRegistry }) =>
              new Map([...builtinKernels, ...(m.registry ?? [])]),
          );
    return this.mainRegistry;
  }

  /** Wait for `p`, but reject at once when `signal` aborts or the pool shuts down. */
  private untilSettled(p: Promise<unknown>, signal: AbortSignal | undefined): Promise<unknown> {
    const signals = signal ? [signal, this.closing.signal] : [this.closing.signal];
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const why = this.closing.signal.aborted
          ? 'the pool was shut down'
          : 'cancelled by its AbortSignal';
        reject(new CancelledError(`ThreadPoolExecutor.run: ${why}`));
      };
      for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
      const done = (): void => {
        for (const s of signals) s.removeEventListener('abort', onAbort);
      };
      p.then(
        (v) => {
          done();
          resolve(v);
        },
        (e: unknown) => {
          done();
          reject(e);
        },
      );
    });
  }

  /** Terminate every worker; runs still in flight reject with CancelledError. */
  async shutdown(): Promise<void> {
    this.closing.abort();
    this.queue.clear();
    const live = this.workers.filter((w): w is PoolWorker => w !== undefined);
    this.workers.fill(undefined);
    await Promise.all(live.map((w) => w.terminate()));
  }
}

let defaultPool: ThreadPoolExecutor | undefined;
const sizedPools = new Map<number, ThreadPoolExecutor>();

/**
 * The shared pool (config.workers threads), created on first use.
 * @example
 * const y = await getDefaultPool().run(batch);
 */
export function getDefaultPool(): ThreadPoolExecutor {
  defaultPool ??= new ThreadPoolExecutor();
  return defaultPool;
}

/**
 * The shared pool, or a shared pool of `workers` threads when a compute asks for a size.
 * @example
 * const pool = getPool(2);
 */
export function getPool(workers?: number): ThreadPoolExecutor {
  const pool = getDefaultPool();
  if (workers === undefined || workers === pool.concurrency) return pool;
  let sized = sizedPools.get(workers);
  if (sized === undefined) {
    sized = new ThreadPoolExecutor({ workers });
    sizedPools.set(workers, sized);
  }
  return sized;
}

/**
 * Shut the shared pools down (a later getDefaultPool() starts a new one).
 * @example
 * await shutdownDefaultPool();
 */
export async function shutdownDefaultPool(): Promise<void> {
  const pools = [...(defaultPool ? [defaultPool] : []), ...sizedPools.values()];
  defaultPool = undefined;
  sizedPools.clear();
  await Promise.all(pools.map((p) => p.shutdown()));
}
