// One child process of the process pool: its IPC channel, the batches queued on it, and what
// happens to them when it dies (the running batch fails naming its task, the rest retry).

import { type ChildProcess, fork } from 'node:child_process';
import type { Socket } from 'node:net';
import { CancelledError, WorkerCrashedError } from '../errors.ts';
import type { CodePolicy } from '../kernels/code-policy.ts';
import type { Chunk } from '../kernels/types.ts';
import { BatchJob, overrunError } from './batch-job.ts';
import { BufferCache } from './buffer-cache.ts';
import { memberExecArgv, membersNeedTsx } from './exec-argv.ts';
import { type MemberContext, NotStartedError, type PoolMember } from './pool-executor.ts';
import { type FromProcess, PROCESS_MEMBER_ENV, type ToProcess } from './process-wire.ts';
import type { TaskPayload } from './types.ts';
import { decodeError } from './wire.ts';

export interface PoolProcessOptions {
  readonly registryModule?: string;
  /** V8 old-space limit of the process (--max-old-space-size); over it, it dies. */
  readonly maxOldGenerationSizeMb?: number;
  /** Bytes of large shared input buffers the process keeps during a compute (buffer-cache.ts). */
  readonly cacheBytes: number;
  /** Checked in the process before any import (see ProcessPoolOptions.codePolicy). */
  readonly codePolicy?: CodePolicy | undefined;
}

const BOOTSTRAP = new URL('./bootstrap.mjs', import.meta.url);
const ENTRY = new URL(
  import.meta.url.endsWith('.ts') ? './process-worker.ts' : './process-worker.js',
  import.meta.url,
).href;
// After 'exit', wait this long for the IPC channel to deliver what the process sent last.
const DRAIN_MS = 200;
const STDERR_TAIL = 4096;
// What Node prints when it dies natively: V8's fatal errors and failed checks.
const FATAL_LINE = /^(FATAL ERROR: .*|# Fatal error.*)$/m;

/** A child process and the batches queued on it. Unref'd whenever it is idle. */
export class PoolProcess implements PoolMember {
  private readonly child: ChildProcess;
  private readonly cache: BufferCache;
  /** In arrival order: the process runs them in this order, the first one is running. */
  private readonly jobs = new Map<number, BatchJob>();
  private ready = false;
  private startError: string | undefined;
  private exit: string | undefined;
  private stderrTail = '';
  /** IPC channel and stderr pipe: once both closed, everything the process sent is here. */
  private open = 2;
  private closing = false;
  /** The aborted batch whose task overran the grace period: the process was killed for it. */
  private overran: BatchJob | undefined;
  dead = false;

  constructor(
    opts: PoolProcessOptions,
    private readonly ctx: MemberContext,
  ) {
    const execArgv = memberExecArgv({ thread: false });
    if (opts.maxOldGenerationSizeMb !== undefined) {
      execArgv.push(`--max-old-space-size=${opts.maxOldGenerationSizeMb}`);
    }
    const policy = opts.codePolicy === undefined ? '' : JSON.stringify(opts.codePolicy);
    this.child = fork(BOOTSTRAP, [ENTRY, opts.registryModule ?? '', policy], {
      execArgv,
      serialization: 'advanced',
      stdio: ['inherit', 'inherit', 'pipe', 'ipc'],
      env: {
        ...process.env,
        [PROCESS_MEMBER_ENV]: '1',
        TESSERA_MEMBER_TSX: membersNeedTsx() ? '1' : '0',
      },
    });
    this.cache = new BufferCache(opts.cacheBytes, (m) => {
      if (!this.dead && this.child.connected) this.child.send(m);
    });
    this.child.on('message', this.handleMessage);
    this.child.on('exit', this.handleExit);
    this.child.on('disconnect', () => this.closed('ipc'));
    // Kernel output goes on to our stderr; its tail explains a crash (V8's FATAL ERROR line).
    this.child.stderr!.on('data', (d: Buffer) => {
      process.stderr.write(d);
      this.stderrTail = (this.stderrTail + d.toString()).slice(-STDERR_TAIL);
    });
    this.child.stderr!.on('close', () => this.closed('stderr'));
    this.child.on('error', (e) => {
      this.startError ??= `${e.name}: ${e.message}`;
    });
    this.idle();
  }

  get load(): number {
    return this.jobs.size;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  run(
    tasks: readonly TaskPayload[],
    seq: number,
    signal?: AbortSignal,
    onTimes?: (lane: string, times: Float64Array, rss?: number) => void,
  ): Promise<Chunk[]> {
    if (this.dead || this.closing || this.overran !== undefined) {
      return Promise.reject(new NotStartedError());
    }
    const job: BatchJob = new BatchJob(seq, tasks, signal, () => {
      if (!this.jobs.has(seq)) return;
      if (!this.ready) {
        // not posted yet (the process is still starting): settle it here, it is never sent
        this.take(seq)?.reject(
          new CancelledError('ProcessPoolExecutor.run: cancelled by its AbortSignal'),
        );
        return;
      }
      // the process checks for a cancel between tasks; a task that never returns meets the watchdog
      this.post({ t: 'cancel', seq });
      job.watch(this.ctx.graceMs(), () => this.endIfRunning(job));
    });
    if (onTimes !== undefined) {
      const name = `process ${this.child.pid}`;
      job.onTimes = (times, rss) => onTimes(name, times, rss);
    }
    this.jobs.set(seq, job);
    if (this.jobs.size === 1) this.busy();
    if (this.ready) this.post(this.batchMessage(job));
    return job.promise;
  }

  private batchMessage(job: BatchJob): ToProcess {
    const { seq, tasks } = job;
    return job.onTimes ? { t: 'batch', seq, tasks, timed: true } : { t: 'batch', seq, tasks };
  }

  private post(m: ToProcess): void {
    try {
      this.child.send(m.t === 'batch' ? { ...m, tasks: this.cache.encode(m.tasks) } : m);
    } catch (e) {
      // Unserializable params, or the channel closed under us.
      const job = m.t === 'batch' ? this.take(m.seq) : undefined;
      job?.reject(e);
    }
  }

  private busy(): void {
    this.child.ref();
    this.child.channel?.ref();
    (this.child.stderr as Socket).ref();
  }

  private idle(): void {
    this.child.unref();
    this.child.channel?.unref();
    (this.child.stderr as Socket).unref();
  }

  private take(seq: number): BatchJob | undefined {
    const job = this.jobs.get(seq);
    if (job === undefined) return undefined;
    this.jobs.delete(seq);
    if (this.jobs.size === 0) this.idle();
    return job;
  }

  private readonly handleMessage = (m: FromProcess): void => {
    if (m.t === 'ready') {
      this.ready = true;
      for (const job of this.jobs.values()) this.post(this.batchMessage(job));
    } else if (m.t === 'failed') {
      const e = decodeError(m.error);
      this.startError = `${e.name}: ${e.message}`;
    } else if (m.t === 'at') {
      const job = this.jobs.get(m.seq);
      if (job !== undefined) job.index = m.index;
    } else {
      const job = this.take(m.seq);
      job?.settle(m.reply, 'ProcessPoolExecutor');
    }
  };

  /** Kill the process when `job` is the batch it runs (a task overran the abort grace). */
  private endIfRunning(job: BatchJob): boolean {
    if (this.dead || this.exit !== undefined || !this.jobs.has(job.seq)) return true;
    // batches run in arrival order: the first one is running
    if (!this.ready || this.jobs.keys().next().value !== job.seq) return false;
    this.overran = job;
    this.child.kill('SIGKILL');
    return true;
  }

  private readonly handleExit = (code: number | null, signal: NodeJS.Signals | null): void => {
    this.exit =
      signal !== null
        ? `the process was killed by ${signal}`
        : `the process ended with exit code ${code}`;
    if (this.open === 0) this.die();
    else setTimeout(() => this.die(), DRAIN_MS).unref();
  };

  private closed(_: 'ipc' | 'stderr'): void {
    this.open--;
    if (this.open === 0 && this.exit !== undefined) this.die();
  }

  private die(): void {
    if (this.dead) return;
    this.dead = true;
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    const fatal = FATAL_LINE.exec(this.stderrTail)?.[1];
    const exit = this.exit ?? 'the process disconnected';
    const detail = fatal === undefined ? exit : `${exit} (${fatal.trim()})`;
    let first = true;
    for (const job of jobs) {
      if (this.closing) {
        job.reject(new CancelledError('ProcessPoolExecutor.shutdown: the pool was shut down'));
      } else if (job === this.overran) {
        job.reject(overrunError('ProcessPoolExecutor', job, this.ctx.graceMs()));
      } else if (this.overran !== undefined) {
        job.reject(new NotStartedError());
      } else if (!this.ready) {
        const why = this.startError ? `${this.startError} (${detail})` : detail;
        job.reject(new WorkerCrashedError(job.tasks[0]!.key, `process failed to start: ${why}`));
      } else if (first) {
        const task = job.tasks[job.index] ?? job.tasks[0]!;
        job.reject(new WorkerCrashedError(task.key, detail));
      } else job.reject(new NotStartedError());
      first = false;
    }
    if (!this.closing) this.ctx.onExit(this, this.ready);
  }

  /** Drop the buffers the process holds: data wrapped in place may change before the next compute. */
  forget(): void {
    this.cache.clear();
  }

  /** Kill the process; batches still in flight reject with CancelledError. */
  async terminate(): Promise<void> {
    this.closing = true;
    if (this.dead) return;
    if (this.exit !== undefined) {
      this.die(); // exited already, still draining its channel
      return;
    }
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.ref(); // until it has exited
    this.child.kill();
    await exited;
    this.die();
  }
}
