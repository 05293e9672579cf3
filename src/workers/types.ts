// What schedulers hand to executors: tasks as plain data with their input blocks resolved.
// Executors (inline, thread pool, distributed) know tasks and chunks, never LazyArray.

import type { OutputPlace } from '../array/output-place.ts';
import type { BackendRef, Chunk } from '../kernels/types.ts';
import type { BatchTiming } from './task-timing.ts';

/** One runnable task: its kernel, static params and the values of its input blocks. */
export interface TaskPayload {
  /** Index in the task table. */
  readonly id: number;
  /** Human-readable key: `layerName-i,j,…`. */
  readonly key: string;
  readonly kernel: string;
  readonly params: unknown;
  /** The backend whose kernels run it (absent: the reference kernels, cpu-js). */
  readonly backend?: BackendRef;
  /** The device it runs on and its value lives on ('gpu', 'gpu:1'; absent: the host). */
  readonly device?: string;
  readonly inputs: Chunk[];
  /** Must run on the main thread ({ inline: true } user functions). */
  readonly mainThread?: boolean;
  /** Must run in a separate process ({ isolate: true } user functions): see runIsolated. */
  readonly isolated?: boolean;
  /**
   * Its value is a result of the compute, needed on the main thread; other values are only
   * inputs of later tasks (an executor may keep those where they were made).
   */
  readonly output?: boolean;
  /**
   * A free shared buffer (data bytes + trailer, see array/buffer-pool.ts) of the size the
   * task's block should take: the thread that runs it reuses it instead of fresh memory.
   */
  readonly spare?: SharedArrayBuffer;
  /**
   * Where its block goes in the compute's results (shared memory): the thread that runs it
   * copies the block there when it fits (see array/output-place.ts).
   */
  readonly into?: readonly OutputPlace[];
}

/** Receives, as a run goes, where and when each task ran and the live chunk bytes (profiles). */
export interface TaskTrace {
  /**
   * `task` ran on `lane` from `start` to `end` (ms on this thread's clock, performance.now():
   * epoch ms less performance.timeOrigin) and gave a value of `bytes` (as
   * chunkBytes counts them); `spanOnly`: the executor did not time it, so the span is its
   * batch's, from dispatch to reply.
   */
  ran(
    task: TaskPayload,
    bytes: number,
    lane: string,
    start: number,
    end: number,
    spanOnly: boolean,
  ): void;
  /** Bytes of the chunks held now (called as tasks finish). */
  live(bytes: number): void;
  /** Worker process `worker` (not this one) told its resident set size: `rss` bytes. */
  workerMemory?(worker: string, rss: number): void;
}

/** Runs tasks somewhere: inline, on worker threads, on a cluster. */
export interface Executor {
  readonly name: string;
  /** Tasks it can usefully run at the same time. */
  readonly concurrency: number;
  /**
   * Run a batch; resolves with one result per task in order, rejects with TaskError
   * (a kernel threw) or WorkerCrashedError. With `timing` (a profile is recorded), an
   * executor that can time its tasks fills in where and when each ran.
   */
  run(batch: readonly TaskPayload[], signal?: AbortSignal, timing?: BatchTiming): Promise<Chunk[]>;
  /**
   * A synchronous path for inline executors, so a task costs no promise (a promise only
   * for an asynchronous kernel).
   */
  runSync?(task: TaskPayload): Chunk | Promise<Chunk>;
  /**
   * A compute that ran on this executor ended: let go of what was kept for it (the process
   * pool's copies of wrapped data, which the next compute must read afresh).
   */
  computeEnded?(): void;
  /**
   * Whether blocks it makes may reuse the memory of released ones (array/buffer-pool.ts):
   * 'inline' runs tasks on the scheduler's thread, which allocates from its free list
   * directly; 'spares' runs them on threads sharing memory, each task handed a free buffer.
   */
  readonly recycles?: 'inline' | 'spares';
  /** A device-resident value is no longer needed: free its buffers. */
  release?(value: Chunk): void;
}
