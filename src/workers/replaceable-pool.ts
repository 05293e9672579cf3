// The thread pool of a `tessera worker`, replaced when an aborted job's kernel keeps running:
// its threads are terminated (the runaway kernel with them), a fresh pool takes new jobs, and
// the other batches that were on the old pool start again on the new one.

import { CancelledError } from '../errors.ts';
import type { Chunk } from '../kernels/types.ts';
import type { BatchTiming } from './task-timing.ts';
import type { Executor, TaskPayload } from './types.ts';

/** An executor that can be shut down (ThreadPoolExecutor). */
export interface PoolLike extends Executor {
  shutdown(): Promise<void>;
}

interface Run {
  readonly tasks: readonly TaskPayload[];
  readonly signal: AbortSignal;
  readonly timing: BatchTiming | undefined;
  readonly resolve: (r: Chunk[]) => void;
  readonly reject: (e: unknown) => void;
}

interface Generation {
  readonly pool: PoolLike;
  /** Batches on it that are not settled yet. */
  readonly runs: Set<Run>;
}

const cancelled = (): CancelledError => new CancelledError('tessera worker: the job was cancelled');

/**
 * Runs batches on the current pool. A batch whose `signal` aborts is given `graceMs` to end;
 * past that its pool is shut down and replaced (`replaced` counts how often).
 * @example
 * const pool = new ReplaceablePool(() => new ThreadPoolExecutor({ workers: 2 }), 1000);
 * const results = await pool.run(tasks, signal);
 */
export class ReplaceablePool {
  private current: Generation;
  replaced = 0;

  constructor(
    private readonly make: () => PoolLike,
    private readonly graceMs: number,
  ) {
    this.current = { pool: make(), runs: new Set() };
  }

  get concurrency(): number {
    return this.current.pool.concurrency;
  }

  /**
   * Run `tasks`. The pool gets no signal, so the promise settles only when a thread is done
   * with them (the caller races it against `signal`); an abort starts the grace period.
   */
  run(tasks: readonly TaskPayload[], signal: AbortSignal, timing?: BatchTiming): Promise<Chunk[]> {
    return new Promise<Chunk[]>((resolve, reject) => {
      this.start({ tasks, signal, timing, resolve, reject });
    });
  }

  private start(run: Run): void {
    const gen = this.current;
    gen.runs.add(run);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => {
      timer = setTimeout(() => {
        if (gen.runs.has(run)) this.retire(gen);
      }, this.graceMs);
    };
    const settle = (ok: boolean, value: unknown): void => {
      if (timer !== undefined) clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      if (!gen.runs.delete(run)) return; // moved to a new pool, or given up
      if (ok) run.resolve(value as Chunk[]);
      else run.reject(value);
    };
    gen.pool.run(run.tasks, undefined, run.timing).then(
      (v) => settle(true, v),
      (e: unknown) => settle(false, e),
    );
    if (run.signal.aborted) onAbort();
    else run.signal.addEventListener('abort', onAbort, { once: true });
  }

  /** Shut `gen` down now; its aborted runs end cancelled, the others start on a fresh pool. */
  private retire(gen: Generation): void {
    const runs = [...gen.runs];
    gen.runs.clear();
    if (this.current === gen) {
      this.current = { pool: this.make(), runs: new Set() };
      this.replaced++;
    }
    gen.pool.shutdown().catch(() => {});
    for (const r of runs) {
      if (r.signal.aborted) r.reject(cancelled());
      else this.start(r);
    }
  }

  async shutdown(): Promise<void> {
    const gen = this.current;
    for (const r of gen.runs) r.reject(cancelled());
    gen.runs.clear();
    await gen.pool.shutdown();
  }
}
