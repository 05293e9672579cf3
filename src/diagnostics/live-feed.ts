// One compute's feed to the live channel: its start, then every FEED_MS the tasks finished
// and memory sampled since the last report, then its end or its error (with the task's key).

import { nextComputeId, publishLive } from './live-bus.ts';
import type { ProfileRecorder } from './profile.ts';

/** How often (ms) a running compute reports to listeners. */
const FEED_MS = 100;

/**
 * Publishes what `recorder` records while a compute runs.
 * @example
 * const feed = new LiveFeed(recorder, total);
 * // … run with trace: recorder …
 * feed.end();
 */
export class LiveFeed {
  readonly id = nextComputeId();
  private sentTasks = 0;
  private sentMemory = 0;
  private readonly timer: ReturnType<typeof setInterval>;
  private ended = false;

  constructor(
    private readonly recorder: ProfileRecorder,
    total: number,
  ) {
    publishLive({
      type: 'compute-start',
      pid: process.pid,
      id: this.id,
      scheduler: recorder.scheduler,
      workers: recorder.workers,
      total,
      startedAt: recorder.startedAt,
    });
    this.timer = setInterval(() => this.flush(), FEED_MS);
    this.timer.unref();
  }

  /** Publish the tasks and memory samples recorded since the last flush. */
  flush(): void {
    const r = this.recorder;
    const count = r.count;
    if (count === this.sentTasks && r.memory.length === this.sentMemory) return;
    const tasks = [];
    for (let i = this.sentTasks; i < count; i++) tasks.push(r.task(i));
    publishLive({
      type: 'tasks',
      pid: process.pid,
      id: this.id,
      done: count,
      lanes: [...r.lanes],
      tasks,
      memory: r.memory.slice(this.sentMemory),
    });
    this.sentTasks = count;
    this.sentMemory = r.memory.length;
  }

  /** The compute finished. */
  end(): void {
    if (this.stop()) return;
    this.flush();
    const durationMs = this.recorder.durationMs;
    publishLive({ type: 'compute-end', pid: process.pid, id: this.id, durationMs });
  }

  /** The compute failed with `e`: listeners see the message and the failing task's key. */
  fail(e: unknown): void {
    if (this.stop()) return;
    this.flush();
    const err = e as { message?: unknown; key?: unknown; kernel?: unknown } | null;
    const message = typeof err?.message === 'string' ? err.message : String(e);
    publishLive({
      type: 'compute-error',
      pid: process.pid,
      id: this.id,
      message,
      ...(typeof err?.key === 'string' ? { key: err.key } : {}),
      ...(typeof err?.kernel === 'string' ? { kernel: err.kernel } : {}),
    });
  }

  private stop(): boolean {
    if (this.ended) return true;
    this.ended = true;
    clearInterval(this.timer);
    this.recorder.end();
    return false;
  }
}
