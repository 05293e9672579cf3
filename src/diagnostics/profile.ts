// The task stream of a compute (Dask's performance_report data): per task its worker lane,
// start, end, kernel, bytes in and out and device; host memory and live chunk bytes over time.

import type { Chunk } from '../kernels/types.ts';
import { chunkBytes } from '../workers/scheduler.ts';
import { epochNow } from '../workers/task-timing.ts';
import type { TaskPayload, TaskTrace } from '../workers/types.ts';

/** One task of a profile; times are milliseconds since the profile's `startedAt`. */
export interface ProfileTask {
  readonly key: string;
  /** The operation it computes a block of ('add', 'multiply+add' when fused). */
  readonly op: string;
  readonly kernel: string;
  /** Index in `Profile.lanes`: the worker that ran it. */
  readonly lane: number;
  readonly start: number;
  readonly end: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
  /** Where it ran: 'cpu', 'gpu', 'gpu:1'. */
  readonly device: string;
  /** The executor did not time the task: start and end are those of its batch. */
  readonly spanOnly?: true;
}

/** Memory at one moment, `t` ms after `startedAt`. */
export interface MemorySample {
  readonly t: number;
  /** Resident set size of the computing process (worker threads included). */
  readonly rss: number;
  /** Bytes of the chunks the scheduler held. */
  readonly liveBytes: number;
}

/** What `compute(x, { profile })` records: plain JSON. */
export interface Profile {
  readonly version: 1;
  /** The executor's name: 'sync', 'threads', 'processes', 'distributed', … */
  readonly scheduler: string;
  /** Tasks it could run at once (its pool size). */
  readonly workers: number;
  /** Epoch ms when the run started. */
  readonly startedAt: number;
  readonly durationMs: number;
  /** The workers tasks ran on ('main', 'thread 3', 'process 1234'), in order of first use. */
  readonly lanes: readonly string[];
  /** Every task that ran, once, in the order they finished. */
  readonly tasks: readonly ProfileTask[];
  readonly memory: readonly MemorySample[];
}

/** Memory is sampled at most this often (ms), plus at the start and the end. */
const SAMPLE_MS = 10;

/**
 * Records a run's task stream as the scheduler reports it (a TaskTrace), in columns so a
 * hundred thousand tasks cost little; `profile()` gives the JSON.
 * @example
 * const rec = new ProfileRecorder('threads', 4);
 * await runTasks(table, executor, { priority, trace: rec });
 * const profile = rec.profile();
 */
export class ProfileRecorder implements TaskTrace {
  readonly startedAt = epochNow();
  private readonly laneIds = new Map<string, number>();
  readonly lanes: string[] = [];
  readonly keys: string[] = [];
  readonly ops: string[] = [];
  readonly kernels: string[] = [];
  readonly devices: string[] = [];
  readonly laneOf: number[] = [];
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  readonly bytesIn: number[] = [];
  readonly bytesOut: number[] = [];
  private readonly spanOnly: number[] = [];
  readonly memory: MemorySample[] = [];
  private lastSample = Number.NEGATIVE_INFINITY;
  private liveBytes = 0;
  private endedAt: number | undefined;

  /** `opOf(id)`: the operation of task `id` (its layer's op); the kernel name by default. */
  constructor(
    readonly scheduler: string,
    readonly workers: number,
    private readonly opOf?: (id: number) => string,
  ) {
    this.sample(this.startedAt, 0);
  }

  /** Milliseconds from the start to the end (or to now, while it runs). */
  get durationMs(): number {
    return (this.endedAt ?? epochNow()) - this.startedAt;
  }

  /** Tasks recorded so far. */
  get count(): number {
    return this.keys.length;
  }

  ran(
    task: TaskPayload,
    value: Chunk,
    lane: string,
    start: number,
    end: number,
    spanOnly: boolean,
  ): void {
    let id = this.laneIds.get(lane);
    if (id === undefined) {
      id = this.lanes.push(lane) - 1;
      this.laneIds.set(lane, id);
    }
    let inBytes = 0;
    for (const c of task.inputs) inBytes += chunkBytes(c);
    if (spanOnly) this.spanOnly.push(this.keys.length);
    this.keys.push(task.key);
    this.ops.push(this.opOf ? this.opOf(task.id) : task.kernel);
    this.kernels.push(task.kernel);
    this.devices.push(task.device ?? 'cpu');
    this.laneOf.push(id);
    this.starts.push(start - this.startedAt);
    this.ends.push(end - this.startedAt);
    this.bytesIn.push(inBytes);
    this.bytesOut.push(chunkBytes(value));
  }

  live(bytes: number): void {
    this.liveBytes = bytes;
    const now = epochNow();
    if (now - this.lastSample >= SAMPLE_MS) this.sample(now, bytes);
  }

  /** The run ended: take the last memory sample. */
  end(): void {
    if (this.endedAt !== undefined) return;
    this.endedAt = epochNow();
    this.sample(this.endedAt, this.liveBytes);
  }

  private sample(now: number, liveBytes: number): void {
    this.lastSample = now;
    this.memory.push({ t: now - this.startedAt, rss: process.memoryUsage.rss(), liveBytes });
  }

  /** Task `i` as JSON. */
  task(i: number, spanOnly = false): ProfileTask {
    return {
      key: this.keys[i]!,
      op: this.ops[i]!,
      kernel: this.kernels[i]!,
      lane: this.laneOf[i]!,
      start: this.starts[i]!,
      end: this.ends[i]!,
      bytesIn: this.bytesIn[i]!,
      bytesOut: this.bytesOut[i]!,
      device: this.devices[i]!,
      ...(spanOnly ? { spanOnly: true as const } : {}),
    };
  }

  /** The profile so far (complete once `end()` was called). */
  profile(): Profile {
    const approx = new Set(this.spanOnly);
    const tasks = new Array<ProfileTask>(this.count);
    for (let i = 0; i < tasks.length; i++) tasks[i] = this.task(i, approx.has(i));
    return {
      version: 1,
      scheduler: this.scheduler,
      workers: this.workers,
      startedAt: this.startedAt,
      durationMs: this.durationMs,
      lanes: [...this.lanes],
      tasks,
      memory: [...this.memory],
    };
  }
}
