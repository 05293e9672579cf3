// The task stream of a compute (Dask's performance_report data): per task its worker lane,
// start, end, kernel, bytes in and out and device; host memory and live chunk bytes over time.

import type { TaskTable } from '../graph/materialize.ts';
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

/**
 * The tasks of a profile as columns (one entry per task, in the order they finished): compact
 * JSON, and cheap to build for a hundred thousand tasks. `profileTasks` gives them as rows.
 */
export interface ProfileTasks {
  readonly key: readonly string[];
  readonly op: readonly string[];
  readonly kernel: readonly string[];
  /** Index in `Profile.lanes`. */
  readonly lane: readonly number[];
  /** Milliseconds since `Profile.startedAt`. */
  readonly start: readonly number[];
  readonly end: readonly number[];
  readonly bytesIn: readonly number[];
  readonly bytesOut: readonly number[];
  readonly device: readonly string[];
  /** Indices of the tasks whose executor did not time them (their batch's span instead). */
  readonly spanOnly: readonly number[];
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
  /** Every task that ran, once, in the order they finished (columns; see profileTasks). */
  readonly tasks: ProfileTasks;
  readonly memory: readonly MemorySample[];
}

/** Memory is sampled at most this often (ms), plus at the start and the end. */
const SAMPLE_MS = 10;

/** A column of numbers (times, byte counts), allocated for the expected count at once. */
class Column {
  data: Float64Array;
  constructor(capacity: number) {
    this.data = new Float64Array(Math.max(16, capacity));
  }
  set(i: number, v: number): void {
    if (i >= this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[i] = v;
  }
  /** The first `n` values as a JSON array (a loop: Array.from on typed arrays is slow). */
  values(n: number): number[] {
    const out = new Array<number>(n);
    const d = this.data;
    for (let i = 0; i < n; i++) out[i] = d[i]!;
    return out;
  }
}

/**
 * Records a run's task stream as the scheduler reports it (a TaskTrace), in columns so a
 * hundred thousand tasks cost little (numbers and keys only: ops come from the task table when
 * the JSON is built); `profile()` gives the JSON.
 * @example
 * const rec = new ProfileRecorder('threads', 4, table);
 * await runTasks(table, executor, { priority, trace: rec });
 * const profile = rec.profile();
 */
export class ProfileRecorder implements TaskTrace {
  readonly startedAt = epochNow();
  private readonly laneIds = new Map<string, number>();
  readonly lanes: string[] = [];
  /** Task ids (their ops are looked up only when the profile is built) and keys. */
  private readonly ids: Column;
  private readonly keys: string[];
  /** Kernel names, and each task's index among them. */
  private readonly kernelNames: string[] = [];
  private readonly kernelOf: Column;
  private lastKernel = '';
  private lastKernelId = -1;
  private n = 0;
  /** Devices of the tasks that ran off the host, by task index (most run on 'cpu'). */
  private readonly devices = new Map<number, string>();
  private readonly spanOnly = new Set<number>();
  private readonly laneOf: Column;
  private readonly starts: Column;
  private readonly ends: Column;
  private readonly bytesIn: Column;
  private readonly bytesOut: Column;
  readonly memory: MemorySample[] = [];
  private lastLane = '';
  private lastLaneId = -1;
  private lastEnd = 0;
  private lastSample = Number.NEGATIVE_INFINITY;
  private liveBytes = 0;
  private endedAt: number | undefined;

  /** `table`: the tasks of the run (their keys and ops); room is made for all of them at once. */
  constructor(
    readonly scheduler: string,
    readonly workers: number,
    private readonly table: TaskTable,
  ) {
    const expected = table.count;
    this.ids = new Column(expected);
    // allocated at once: a store by index costs less than a growing push
    this.keys = new Array<string>(expected);
    this.kernelOf = new Column(expected);
    this.laneOf = new Column(expected);
    this.starts = new Column(expected);
    this.ends = new Column(expected);
    this.bytesIn = new Column(expected);
    this.bytesOut = new Column(expected);
    this.sample(this.startedAt, 0);
  }

  /** Milliseconds from the start to the end (or to now, while it runs). */
  get durationMs(): number {
    return (this.endedAt ?? epochNow()) - this.startedAt;
  }

  /** Tasks recorded so far. */
  get count(): number {
    return this.n;
  }

  ran(
    task: TaskPayload,
    value: Chunk,
    lane: string,
    start: number,
    end: number,
    spanOnly: boolean,
  ): void {
    if (lane !== this.lastLane) {
      let id = this.laneIds.get(lane);
      if (id === undefined) {
        id = this.lanes.push(lane) - 1;
        this.laneIds.set(lane, id);
      }
      this.lastLane = lane;
      this.lastLaneId = id;
    }
    if (task.kernel !== this.lastKernel) {
      let k = this.kernelNames.indexOf(task.kernel);
      if (k < 0) k = this.kernelNames.push(task.kernel) - 1;
      this.lastKernel = task.kernel;
      this.lastKernelId = k;
    }
    const i = this.n++;
    const inputs = task.inputs;
    let inBytes = 0;
    for (let k = 0; k < inputs.length; k++) inBytes += chunkBytes(inputs[k]!);
    if (spanOnly) this.spanOnly.add(i);
    if (task.device !== undefined) this.devices.set(i, task.device);
    this.ids.set(i, task.id);
    this.keys[i] = task.key;
    this.kernelOf.set(i, this.lastKernelId);
    this.laneOf.set(i, this.lastLaneId);
    this.starts.set(i, start - this.startedAt);
    this.ends.set(i, end - this.startedAt);
    this.bytesIn.set(i, inBytes);
    this.bytesOut.set(i, chunkBytes(value));
    if (end > this.lastEnd) this.lastEnd = end;
  }

  live(bytes: number): void {
    this.liveBytes = bytes;
    // the clock of the last task's end: no clock read per task
    if (this.lastEnd - this.lastSample >= SAMPLE_MS) this.sample(this.lastEnd, bytes);
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
  task(i: number): ProfileTask {
    const id = this.ids.data[i]!;
    const { table } = this;
    const t: ProfileTask = {
      key: this.keys[i]!,
      op: table.layers[table.layerOf[id]!]!.op,
      kernel: this.kernelNames[this.kernelOf.data[i]!]!,
      lane: this.laneOf.data[i]!,
      start: this.starts.data[i]!,
      end: this.ends.data[i]!,
      bytesIn: this.bytesIn.data[i]!,
      bytesOut: this.bytesOut.data[i]!,
      device: this.devices.get(i) ?? 'cpu',
    };
    return this.spanOnly.has(i) ? { ...t, spanOnly: true } : t;
  }

  /** The profile so far (complete once `end()` was called). */
  profile(): Profile {
    const n = this.count;
    const { table } = this;
    const op = new Array<string>(n);
    const ids = this.ids.data;
    for (let i = 0; i < n; i++) op[i] = table.layers[table.layerOf[ids[i]!]!]!.op;
    // most runs use few kernels and only the host: filled, not looked up, where they can be
    const names = this.kernelNames;
    const kernel =
      names.length === 1
        ? new Array<string>(n).fill(names[0]!)
        : Array.from({ length: n }, (_, i) => names[this.kernelOf.data[i]!]!);
    const device = new Array<string>(n).fill('cpu');
    for (const [i, d] of this.devices) device[i] = d;
    const numbers = (c: Column): number[] => c.values(n);
    const tasks: ProfileTasks = {
      key: this.keys.slice(0, n),
      op,
      kernel,
      lane: numbers(this.laneOf),
      start: numbers(this.starts),
      end: numbers(this.ends),
      bytesIn: numbers(this.bytesIn),
      bytesOut: numbers(this.bytesOut),
      device,
      spanOnly: [...this.spanOnly],
    };
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

/**
 * The tasks of a profile as one object per task.
 * @example
 * const slowest = profileTasks(profile).sort((a, b) => b.end - b.start - (a.end - a.start))[0];
 */
export function profileTasks(profile: Profile): ProfileTask[] {
  const t = profile.tasks;
  const approx = new Set(t.spanOnly);
  return t.key.map((key, i) => ({
    key,
    op: t.op[i]!,
    kernel: t.kernel[i]!,
    lane: t.lane[i]!,
    start: t.start[i]!,
    end: t.end[i]!,
    bytesIn: t.bytesIn[i]!,
    bytesOut: t.bytesOut[i]!,
    device: t.device[i]!,
    ...(approx.has(i) ? { spanOnly: true as const } : {}),
  }));
}
