// What every pool executor shares (worker threads or child processes): batches split over idle
// members under a p-queue bound, dead members replaced, main-thread tasks, abort and shutdown.

import { availableParallelism } from 'node:os';
import PQueue from 'p-queue';
import { config } from '../config.ts';
import { CancelledError, ValueError } from '../errors.ts';
import { createFnResolver, findFnRefs } from '../kernels/resolve.ts';
import { runTask } from '../kernels/run-task.ts';
import type { Chunk, KernelRegistry } from '../kernels/types.ts';
import { runIsolated } from './isolated.ts';
import { loadRegistry } from './registry.ts';
import { type BatchTiming, copyTiming, epochNow, fillTiming, newTiming } from './task-timing.ts';
import type { Executor, TaskPayload } from './types.ts';

/** A batch that was posted to a member which died before starting it: run it elsewhere. */
export class NotStartedError extends Error {
  override readonly name = 'NotStartedError';
}

/** One worker of a pool (a thread or a process) and the batches in flight on it. */
export interface PoolMember {
  /** Set once it exited; a dead member rejects new batches with NotStartedError. */
  readonly dead: boolean;
  /** Batches in flight here. */
  readonly load: number;
  /**
   * Run `tasks` as batch `seq`; an abort of `signal` stops the batch between tasks. With
   * `onTimes`, the member times each task and hands over the times (see BatchTiming), and a
   * process its resident set size.
   */
  run(
    tasks: readonly TaskPayload[],
    seq: number,
    signal?: AbortSignal,
    onTimes?: (lane: string, times: Float64Array, rss?: number) => void,
  ): Promise<Chunk[]>;
  /** Stop it; batches still in flight reject with CancelledError. */
  terminate(): Promise<void>;
  /** Its process or thread id, while it lives (tests check that stuck members are gone). */
  readonly pid?: number;
  /** Let go of data kept between batches (see Executor.computeEnded). */
  forget?(): void;
}

/** Called by a member when it exits on its own; `wasReady`: it had started serving. */
export type OnMemberExit = (member: PoolMember, wasReady: boolean) => void;

/**
 * What every member is started with: how long (ms) a batch may keep running after its abort
 * before the member is terminated (and replaced by the pool), read when the abort happens.
 */
export interface MemberContext {
  readonly onExit: OnMemberExit;
  readonly graceMs: () => number;
}

export interface PoolOptions {
  /** Pool members; default config.workers, or os.availableParallelism() when that is 0. */
  readonly workers?: number;
  /**
   * URL of a module exporting `registry` (a KernelRegistry) merged over the built-in
   * kernels, in every member and for main-thread tasks.
   */
  readonly registryModule?: string;
  /**
   * Batches in flight per member (default 1: a batch goes to the first member that is free).
   * More pipelines messages, but a batch may then wait behind a long task on a busy member.
   */
  readonly depth?: number;
  /**
   * After an abort (or a timeout), how long (ms) a member may keep running a task of the
   * aborted batch before it is terminated and replaced (default config.abortGraceMs, 1000):
   * a kernel that never returns cannot hold a member forever.
   */
  readonly abortGraceMs?: number;
}

function positiveInt(label: string, what: string, n: number): number {
  if (!Number.isInteger(n) || n < 1) {
    throw new ValueError(`${label}: ${what} ${JSON.stringify(n)} is not a positive integer`);
  }
  return n;
}

/**
 * Runs task batches on a pool of members made by `spawn`. Batches resolve in task order; a
 * kernel throw rejects with TaskError, a dying member with WorkerCrashedError (and is
 * replaced), an abort with CancelledError.
 */
export abstract class PoolExecutor implements Executor {
  abstract readonly name: string;
  readonly concurrency: number;
  protected readonly depth: number;
  private readonly members: (PoolMember | undefined)[];
  private readonly queue: PQueue;
  private readonly closing = new AbortController();
  private readonly resolver = createFnResolver({ inline: true });
  private mainRegistry: Promise<KernelRegistry> | undefined;
  private seq = 0;
  private readonly graceMs: () => number;

  constructor(
    /** Class name for messages. */
    private readonly label: string,
    protected readonly registryModule: string | undefined,
    opts: PoolOptions,
  ) {
    const n = opts.workers ?? (config.workers > 0 ? config.workers : availableParallelism());
    this.concurrency = positiveInt(label, 'workers', n);
    this.depth = positiveInt(label, 'depth', opts.depth ?? 1);
    const grace = opts.abortGraceMs;
    if (grace !== undefined && !(Number.isFinite(grace) && grace >= 0)) {
      throw new ValueError(
        `${label}: abortGraceMs ${JSON.stringify(grace)} is not a non-negative number`,
      );
    }
    this.graceMs = () => grace ?? config.abortGraceMs;
    this.members = new Array(n).fill(undefined);
    this.queue = new PQueue({ concurrency: n * this.depth });
  }

  /** Members are processes already: isolated tasks run here, not on the process pool. */
  protected readonly isolates: boolean = false;

  /** Start a member; it calls `ctx.onExit` when it dies on its own (or was ended for overrunning). */
  protected abstract spawn(ctx: MemberContext): PoolMember;

  /** Members alive now (started and not exited): never more than `concurrency`. */
  get liveMembers(): number {
    return this.members.filter((m) => m !== undefined && !m.dead).length;
  }

  /** Thread or process ids of the live members. */
  memberIds(): number[] {
    return this.members.flatMap((m) => (m && !m.dead && m.pid !== undefined ? [m.pid] : []));
  }

  async run(
    batch: readonly TaskPayload[],
    signal?: AbortSignal,
    timing?: BatchTiming,
  ): Promise<Chunk[]> {
    if (this.closing.signal.aborted) {
      throw new CancelledError(`${this.label}.run: the pool was shut down`);
    }
    if (signal?.aborted)
      throw new CancelledError(`${this.label}.run: cancelled by its AbortSignal`);
    const out = new Array<Chunk>(batch.length);
    const work: Promise<void>[] = [];
    const elsewhere = (t: TaskPayload): boolean =>
      t.mainThread === true || (t.isolated === true && !this.isolates);
    if (!batch.some(elsewhere)) this.dispatchAll(batch, null, out, work, signal, timing);
    else {
      const memberIdx: number[] = [];
      const mainIdx: number[] = [];
      const isolatedIdx: number[] = [];
      for (let i = 0; i < batch.length; i++) {
        const t = batch[i]!;
        (t.mainThread ? mainIdx : elsewhere(t) ? isolatedIdx : memberIdx).push(i);
      }
      this.dispatchAll(
        memberIdx.map((i) => batch[i]!),
        memberIdx,
        out,
        work,
        signal,
        timing,
      );
      if (mainIdx.length > 0) work.push(this.runOnMain(batch, mainIdx, out, timing));
      if (isolatedIdx.length > 0) {
        const tasks = isolatedIdx.map((i) => batch[i]!);
        const sub = timing ? newTiming(tasks.length) : undefined;
        work.push(
          runIsolated(tasks, signal, sub).then((r) => {
            for (let k = 0; k < r.length; k++) out[isolatedIdx[k]!] = r[k]!;
            if (timing && sub) copyTiming(sub, timing, isolatedIdx);
          }),
        );
      }
    }
    if (work.length === 0) return out;
    await this.untilSettled(work.length === 1 ? work[0]! : Promise.all(work), signal);
    return out;
  }

  /** Split `tasks` into pieces for the idle members; results land at `at[i]` (or i). */
  private dispatchAll(
    tasks: readonly TaskPayload[],
    at: number[] | null,
    out: Chunk[],
    work: Promise<void>[],
    signal: AbortSignal | undefined,
    timing: BatchTiming | undefined,
  ): void {
    const n = tasks.length;
    if (n === 0) return;
    const idle = this.concurrency - this.queue.pending - this.queue.size;
    const pieces = Math.max(1, Math.min(n, idle));
    for (let p = 0; p < pieces; p++) {
      const start = Math.floor((p * n) / pieces);
      const end = Math.floor(((p + 1) * n) / pieces);
      const piece = pieces === 1 ? tasks : tasks.slice(start, end);
      const onTimes = timing
        ? (lane: string, times: Float64Array, rss?: number) => {
            fillTiming(timing, lane, times, at, start);
            if (rss !== undefined) timing.workerRss.push([lane, rss]);
          }
        : undefined;
      work.push(
        this.dispatch(piece, signal, onTimes).then((results) => {
          for (let i = 0; i < results.length; i++)
            out[at ? at[start + i]! : start + i] = results[i]!;
        }),
      );
    }
  }

  private dispatch(
    tasks: readonly TaskPayload[],
    signal: AbortSignal | undefined,
    onTimes: ((lane: string, times: Float64Array, rss?: number) => void) | undefined,
  ): Promise<Chunk[]> {
    return this.queue.add(async () => {
      for (;;) {
        if (signal?.aborted || this.closing.signal.aborted) {
          throw new CancelledError(`${this.label}.run: cancelled before the batch started`);
        }
        // Batch numbers live in an Int32 control slot: they stay in 1 … 2^31 - 1.
        this.seq = (this.seq % 0x7fffffff) + 1;
        try {
          return await this.leastLoaded().run(tasks, this.seq, signal, onTimes);
        } catch (e) {
          if (!(e instanceof NotStartedError)) throw e;
        }
      }
    });
  }

  private leastLoaded(): PoolMember {
    let best = -1;
    for (let i = 0; i < this.members.length; i++) {
      const m = this.members[i];
      if (m === undefined || m.dead) {
        best = i;
        break;
      }
      if (best < 0 || m.load < this.members[best]!.load) best = i;
    }
    let m = this.members[best];
    if (m === undefined || m.dead) {
      m = this.start();
      this.members[best] = m;
    }
    return m;
  }

  private start(): PoolMember {
    const onExit: OnMemberExit = (dead, wasReady) => {
      const i = this.members.indexOf(dead);
      if (i < 0) return;
      // A member that served is replaced at once; one that failed to start is retried lazily.
      this.members[i] = wasReady && !this.closing.signal.aborted ? this.start() : undefined;
    };
    return this.spawn({ onExit, graceMs: this.graceMs });
  }

  private async runOnMain(
    batch: readonly TaskPayload[],
    idx: number[],
    out: Chunk[],
    timing: BatchTiming | undefined,
  ): Promise<void> {
    const registry = await this.registry();
    await this.resolver.preload(idx.flatMap((i) => findFnRefs(batch[i]!.params)));
    for (const i of idx) {
      const start = timing ? epochNow() : 0;
      out[i] = await runTask(batch[i]!, registry, this.resolver);
      if (timing) fillTiming(timing, 'main', Float64Array.of(start, epochNow()), [i], 0);
    }
  }

  private registry(): Promise<KernelRegistry> {
    this.mainRegistry ??= loadRegistry(this.registryModule);
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
        reject(new CancelledError(`${this.label}.run: ${why}`));
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

  computeEnded(): void {
    for (const m of this.members) m?.forget?.();
  }

  /** Stop every member; runs still in flight reject with CancelledError. */
  async shutdown(): Promise<void> {
    this.closing.abort();
    this.queue.clear();
    const live = this.members.filter((m): m is PoolMember => m !== undefined);
    this.members.fill(undefined);
    await Promise.all(live.map((m) => m.terminate()));
  }
}
