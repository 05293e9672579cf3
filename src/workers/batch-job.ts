// A batch in flight on one pool member: its promise, the abort listener that asks the member
// to stop it, the watchdog that ends the member when it does not, and how a reply settles it.

import { CancelledError } from '../errors.ts';
import type { Chunk } from '../kernels/types.ts';
import type { TaskPayload } from './types.ts';
import { type BatchReply, decodeChunk, decodeError } from './wire.ts';

/**
 * One batch on one member. Settling it (once) removes the abort listener and runs `release`.
 * @example
 * const job = new BatchJob(seq, tasks, signal, () => post({ t: 'cancel', seq }));
 * jobs.set(seq, job);
 * return job.promise;
 */
export class BatchJob {
  readonly promise: Promise<Chunk[]>;
  /** The task the member reported last (processes report it; threads keep it in shared slots). */
  index = 0;
  /**
   * Receives the member's task times of a timed batch, before the batch resolves, and the
   * member's resident set size when it is a process that told it.
   */
  onTimes: ((times: Float64Array, rss: number | undefined) => void) | undefined;
  private resolveFn!: (results: Chunk[]) => void;
  private rejectFn!: (e: unknown) => void;
  private readonly detach: () => void;
  private watchdog: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly seq: number,
    readonly tasks: readonly TaskPayload[],
    signal: AbortSignal | undefined,
    onAbort: () => void,
    release: () => void = () => {},
  ) {
    this.promise = new Promise<Chunk[]>((resolve, reject) => {
      this.resolveFn = resolve;
      this.rejectFn = reject;
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    this.detach = () => {
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(this.watchdog);
      release();
    };
  }

  /**
   * After an abort: unless the batch settles within `ms`, call `overrun`, which ends the
   * member when this batch is the one running there (true) or declines (false: the batch
   * still waits behind another, so the watch starts over).
   */
  watch(ms: number, overrun: () => boolean): void {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      if (!overrun()) this.watch(ms, overrun);
    }, ms);
    // the member is ref'd while the batch is in flight: the timer need not keep the process up
    this.watchdog.unref();
  }

  resolve(results: Chunk[]): void {
    this.detach();
    this.resolveFn(results);
  }

  reject(e: unknown): void {
    this.detach();
    this.rejectFn(e);
  }

  /** Settle from a member's reply: results restored to NDArrays, or the error it carries. */
  settle(reply: BatchReply, executor: string): void {
    if (reply.ok) {
      if (reply.times !== undefined) this.onTimes?.(reply.times, reply.rss);
      const results = reply.results;
      for (let i = 0; i < results.length; i++) results[i] = decodeChunk(results[i]);
      this.resolve(results);
    } else if ('cancelled' in reply) {
      this.reject(new CancelledError(`${executor}.run: cancelled by its AbortSignal`));
    } else this.reject(decodeError(reply.error));
  }
}

/**
 * What an aborted batch rejects with when its member was ended for running past the grace
 * period (its caller already got the abort's error; this frees the member's queue slot).
 * @example
 * job.reject(overrunError('ThreadPoolExecutor', job, 1000));
 */
export function overrunError(executor: string, job: BatchJob, graceMs: number): CancelledError {
  const task = job.tasks[job.index] ?? job.tasks[0];
  return new CancelledError(
    `${executor}.run: cancelled; a task of the batch${task ? ` (${task.key})` : ''} ran ${graceMs} ms past the abort, so its worker was terminated and replaced`,
  );
}
