// One worker thread of the pool: its comlink proxy, its control slots, the batches in flight
// on it, and what happens to them when it dies (the running batch fails, the rest retry).

import { type ResourceLimits, Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { CancelledError, WorkerCrashedError } from '../errors.ts';
import type { Chunk } from '../kernels/types.ts';
import { BatchJob, overrunError } from './batch-job.ts';
import { memberExecArgv, membersNeedTsx } from './exec-argv.ts';
import { type MemberContext, NotStartedError, type PoolMember } from './pool-executor.ts';
import type { TaskPayload } from './types.ts';
import { type BatchReply, CONTROL, toEndpoint, type WorkerInit } from './wire.ts';
import type { WorkerApi } from './worker.ts';

export interface PoolWorkerOptions {
  readonly registryModule?: string;
  /** Batches in flight on this worker (the pipelining depth). */
  readonly depth: number;
  readonly resourceLimits?: ResourceLimits;
}

const BOOTSTRAP = new URL('./bootstrap.mjs', import.meta.url);
// Under tsx and vitest this module is TypeScript, compiled it is JS: the worker matches it.
const ENTRY = new URL(
  import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js',
  import.meta.url,
).href;

/** A worker thread and the batches it is running. Unref'd whenever it is idle. */
export class PoolWorker implements PoolMember {
  private readonly worker: Worker;
  private readonly api: Comlink.Remote<WorkerApi>;
  private readonly control: Int32Array;
  private readonly jobs = new Map<number, BatchJob>();
  private readonly freeLanes: number[];
  private lastError: Error | undefined;
  private closing = false;
  /** The aborted batch whose task overran the grace period: the thread was terminated for it. */
  private overran: BatchJob | undefined;
  dead = false;

  constructor(
    opts: PoolWorkerOptions,
    private readonly ctx: MemberContext,
  ) {
    const control = new SharedArrayBuffer((CONTROL.LANES + opts.depth) * 4);
    this.control = new Int32Array(control);
    this.freeLanes = Array.from({ length: opts.depth }, (_, i) => i);
    const workerData: WorkerInit = {
      entry: ENTRY,
      tsx: membersNeedTsx(),
      registryModule: opts.registryModule,
      control,
    };
    this.worker = new Worker(BOOTSTRAP, {
      workerData,
      execArgv: memberExecArgv({ thread: true }),
      resourceLimits: opts.resourceLimits,
    });
    this.worker.unref();
    this.worker.on('error', (e) => {
      this.lastError = e;
    });
    this.worker.on('exit', this.handleExit);
    this.api = Comlink.wrap<WorkerApi>(nodeEndpoint(toEndpoint(this.worker)));
  }

  get pid(): number {
    return this.worker.threadId;
  }

  /** Batches in flight here. */
  get load(): number {
    return this.jobs.size;
  }

  /** Run `tasks` as batch `seq`; an abort of `signal` stops the batch between tasks. */
  run(
    tasks: readonly TaskPayload[],
    seq: number,
    signal?: AbortSignal,
    onTimes?: (lane: string, times: Float64Array) => void,
  ): Promise<Chunk[]> {
    if (this.dead) return Promise.reject(new NotStartedError());
    const lane = this.freeLanes.pop();
    if (lane === undefined) throw new Error('PoolWorker.run: no free lane (queue bound broken)');
    Atomics.store(this.control, CONTROL.LANES + lane, 0);
    const job: BatchJob = new BatchJob(
      seq,
      tasks,
      signal,
      () => {
        // the worker checks the flag between tasks; a task that never returns meets the watchdog
        Atomics.store(this.control, CONTROL.LANES + lane, 1);
        job.watch(this.ctx.graceMs(), () => this.endIfRunning(job));
      },
      () => this.freeLanes.push(lane),
    );
    const timed = onTimes !== undefined;
    if (timed) {
      const name = `thread ${this.worker.threadId}`;
      job.onTimes = (times) => onTimes(name, times);
    }
    this.jobs.set(seq, job);
    if (this.jobs.size === 1) this.worker.ref();
    Promise.resolve(
      this.api.runBatch(timed ? { seq, lane, tasks, timed } : { seq, lane, tasks }),
    ).then(
      (reply) => this.finish(job, reply),
      (e: unknown) => this.fail(job, e),
    );
    return job.promise;
  }

  private take(job: BatchJob): boolean {
    if (!this.jobs.delete(job.seq)) return false;
    if (this.jobs.size === 0) this.worker.unref();
    return true;
  }

  private finish(job: BatchJob, reply: BatchReply): void {
    if (this.take(job)) job.settle(reply, 'ThreadPoolExecutor');
  }

  private fail(job: BatchJob, e: unknown): void {
    if (this.take(job)) job.reject(e);
  }

  /** Terminate the thread when `job` is the batch it runs (a task overran the abort grace). */
  private endIfRunning(job: BatchJob): boolean {
    if (this.dead || !this.jobs.has(job.seq)) return true;
    if (Atomics.load(this.control, CONTROL.SEQ) !== job.seq) return false;
    this.overran = job;
    // dead now: the pool starts a replacement at once instead of waiting for the exit
    this.dead = true;
    void this.worker.terminate();
    return true;
  }

  private readonly handleExit = (code: number): void => {
    this.dead = true;
    const wasReady = Atomics.load(this.control, CONTROL.READY) === 1;
    const runningSeq = Atomics.load(this.control, CONTROL.SEQ);
    const index = Atomics.load(this.control, CONTROL.INDEX);
    const detail = this.lastError
      ? `${this.lastError.name}: ${this.lastError.message}`
      : `exit code ${code}`;
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of jobs) {
      if (this.closing) {
        job.reject(new CancelledError('ThreadPoolExecutor.shutdown: the pool was shut down'));
      } else if (job === this.overran) {
        job.reject(overrunError('ThreadPoolExecutor', job, this.ctx.graceMs()));
      } else if (this.overran !== undefined) {
        job.reject(new NotStartedError());
      } else if (!wasReady) {
        job.reject(new WorkerCrashedError(job.tasks[0]!.key, `worker failed to start: ${detail}`));
      } else if (job.seq === runningSeq) {
        const task = job.tasks[index] ?? job.tasks[0]!;
        job.reject(new WorkerCrashedError(task.key, detail));
      } else job.reject(new NotStartedError());
    }
    if (!this.closing) this.ctx.onExit(this, wasReady || this.overran !== undefined);
  };

  /** Stop the thread; batches still in flight reject with CancelledError. */
  async terminate(): Promise<void> {
    this.closing = true;
    if (this.dead) return;
    await this.worker.terminate();
  }
}
