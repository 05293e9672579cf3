// A batch in flight on one pool member: its promise, the abort listener that asks the member
// to stop it, and how a member's reply settles it.

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
  private resolveFn!: (results: Chunk[]) => void;
  private rejectFn!: (e: unknown) => void;
  private readonly detach: () => void;

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
      release();
    };
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
      const results = reply.results;
      for (let i = 0; i < results.length; i++) results[i] = decodeChunk(results[i]);
      this.resolve(results);
    } else if ('cancelled' in reply) {
      this.reject(new CancelledError(`${executor}.run: cancelled by its AbortSignal`));
    } else this.reject(decodeError(reply.error));
  }
}
