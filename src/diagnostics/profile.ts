// The task stream of a compute (Dask's performance_report data): per task its worker lane,
// start, end, kernel, bytes in and out and device; host memory and live chunk bytes over time.

import { runnableCount, type TaskTable, unravel } from '../graph/materialize.ts';
import { chunkBytes } from '../workers/scheduler.ts';
import { epochNow, TIME_ORIGIN } from '../workers/task-timing.ts';
import type { TaskPayload, TaskTrace } from '../workers/types.ts';
import { addReader, endLease, type Lease, leaseColumns, takeColumns } from './profile-columns.ts';
import { residentBytes } from './resident.ts';

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
  /**
   * Resident set size of the worker processes ('processes', 'distributed'), summed over the
   * last size each told (with its replies); absent while none told one (threads and 'sync'
   * run in this process: `rss` holds them).
   */
  readonly workersRss?: number;
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
  /** Present when the compute failed: why (the tasks are those that ran before). */
  readonly error?: ProfileError;
}

/** Memory is sampled at most this often (ms), plus at the start and the end. */
const SAMPLE_MS = 10;

/** Why a compute failed, in its profile. */
export interface ProfileError {
  /** The error's class name ('TaskError', 'CancelledError', …). */
  readonly name: string;
  readonly message: string;
  /** The key of the task that failed, when one did. */
  readonly key?: string;
  readonly kernel?: string;
}

// The recorder's columns are typed arrays: a plain array of a hundred thousand numbers per
// compute cost more to allocate than recording into it (tens of ns an element, measured here),
// and did not spare the collector either (either kind set off a full mark-compact in about
// half of the profiled runs of 40,000 trivial tasks).

/** A typed array twice as long, holding `a`. */
function grown<T extends Float64Array | Int32Array>(a: T): T {
  const next = new (a.constructor as new (n: number) => T)(a.length * 2);
  next.set(a);
  return next;
}

/** The first `n` values of `a` as a JSON array (a loop: Array.from on typed arrays is slow). */
function values(a: Float64Array | Int32Array, n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = a[i]!;
  return out;
}

/**
 * Records a run's task stream as the scheduler reports it (a TaskTrace). A task costs a few
 * stores into preallocated typed-array columns: no object, string or closure is made
 * or kept per task (keeping a hundred thousand young strings made every scavenge slow), the
 * clock is the scheduler's, kernels and lanes are interned. Keys and ops come from the task
 * table, by task id, only when the profile is built; `profile()` gives the JSON.
 * @example
 * const rec = new ProfileRecorder('threads', 4, table);
 * await runTasks(table, executor, { priority, trace: rec });
 * const profile = rec.profile();
 */
export class ProfileRecorder implements TaskTrace {
  readonly startedAt = epochNow();
  /** `startedAt` on this thread's clock (performance.now()), the clock tasks are given in. */
  private readonly origin = this.startedAt - TIME_ORIGIN;
  private readonly laneIds = new Map<string, number>();
  readonly lanes: string[] = [];
  /** Kernel names, and each task's index among them. */
  private readonly kernelNames: string[] = [];
  private lastKernel = '';
  private lastKernelId = -1;
  private lastLane = '';
  private lastLaneId = -1;
  private n = 0;
  /** Columns, one entry per task in the order they finished: its task id, lane, kernel. */
  private ids: Int32Array;
  private laneOf: Int32Array;
  private kernelOf: Int32Array;
  /** Milliseconds since startedAt. */
  private starts: Float64Array;
  private ends: Float64Array;
  /**
   * Bytes of each task's value, by task id (a constant's when a task first reads it): a
   * task's bytes in are its inputs' entries, summed only when a profile is built.
   */
  private readonly bytesOf: Float64Array;
  /** The columns are reused by a later recorder once this and its profiles are collected. */
  private readonly lease: Lease;
  /** Devices of the tasks that ran off the host, by task index (most run on 'cpu'). */
  private readonly devices = new Map<number, string>();
  private readonly spanOnly = new Set<number>();
  readonly memory: MemorySample[] = [];
  private lastEnd = 0;
  private lastSample = Number.NEGATIVE_INFINITY;
  private liveBytes = 0;
  /** The last resident set size each worker process told, and their sum. */
  private readonly workerRss = new Map<string, number>();
  private workersRss = 0;
  private endedAt: number | undefined;
  private failure: ProfileError | undefined;
  /** Per layer of the table: the start of its tasks' keys and its grid (made when first used). */
  private keyParts: ([string, number[]] | undefined)[] = [];

  /** `table`: the tasks of the run (their keys and ops); room is made for all of them at once. */
  constructor(
    readonly scheduler: string,
    readonly workers: number,
    private readonly table: TaskTable,
  ) {
    const columns = takeColumns(Math.max(16, runnableCount(table)), table.count);
    this.ids = columns.ids;
    this.laneOf = columns.laneOf;
    this.kernelOf = columns.kernelOf;
    this.starts = columns.starts;
    this.ends = columns.ends;
    this.bytesOf = columns.bytesOf;
    this.lease = leaseColumns(this, columns);
    this.sample(this.origin, 0);
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
    bytes: number,
    lane: string,
    start: number,
    end: number,
    spanOnly: boolean,
  ): void {
    if (lane !== this.lastLane) this.internLane(lane);
    if (task.kernel !== this.lastKernel) this.internKernel(task.kernel);
    const i = this.n++;
    if (i === this.ids.length) this.grow();
    const id = task.id;
    // inputs were recorded as they ran (sizing a chunk is tens of ns): only constants, once
    const { table, bytesOf } = this;
    const s = table.depStart[id]!;
    for (let k = 0; k < table.depCount[id]!; k++) {
      const d = table.deps[s + k]!;
      if (table.isConstant[d] && bytesOf[d] === 0) bytesOf[d] = chunkBytes(task.inputs[k]!);
    }
    bytesOf[id] = bytes;
    this.ids[i] = id;
    this.laneOf[i] = this.lastLaneId;
    this.kernelOf[i] = this.lastKernelId;
    this.starts[i] = start - this.origin;
    this.ends[i] = end - this.origin;
    if (end > this.lastEnd) this.lastEnd = end;
    if (spanOnly) this.spanOnly.add(i);
    if (task.device !== undefined) this.devices.set(i, task.device);
  }

  private internLane(lane: string): void {
    let id = this.laneIds.get(lane);
    if (id === undefined) {
      id = this.lanes.push(lane) - 1;
      this.laneIds.set(lane, id);
    }
    this.lastLane = lane;
    this.lastLaneId = id;
  }

  private internKernel(kernel: string): void {
    let k = this.kernelNames.indexOf(kernel);
    if (k < 0) k = this.kernelNames.push(kernel) - 1;
    this.lastKernel = kernel;
    this.lastKernelId = k;
  }

  private grow(): void {
    endLease(this.lease);
    this.ids = grown(this.ids);
    this.laneOf = grown(this.laneOf);
    this.kernelOf = grown(this.kernelOf);
    this.starts = grown(this.starts);
    this.ends = grown(this.ends);
  }

  live(bytes: number): void {
    this.liveBytes = bytes;
    // the clock of the last task's end: no clock read per task
    if (this.lastEnd - this.lastSample >= SAMPLE_MS) this.sample(this.lastEnd, bytes);
  }

  workerMemory(worker: string, rss: number): void {
    this.workersRss += rss - (this.workerRss.get(worker) ?? 0);
    this.workerRss.set(worker, rss);
  }

  /** The run ended: take the last memory sample. */
  end(): void {
    if (this.endedAt !== undefined) return;
    this.endedAt = epochNow();
    this.sample(this.endedAt - TIME_ORIGIN, this.liveBytes);
  }

  /** The run failed with `e`: it ends, and its profile says why (`Profile.error`). */
  fail(e: unknown): void {
    this.end();
    if (this.failure !== undefined) return;
    const err = e as { name?: unknown; message?: unknown; key?: unknown; kernel?: unknown };
    const isObject = typeof e === 'object' && e !== null;
    this.failure = {
      name: isObject && typeof err.name === 'string' ? err.name : 'Error',
      message: isObject && typeof err.message === 'string' ? err.message : String(e),
      ...(isObject && typeof err.key === 'string' ? { key: err.key } : {}),
      ...(isObject && typeof err.kernel === 'string' ? { kernel: err.kernel } : {}),
    };
  }

  private sample(now: number, liveBytes: number): void {
    this.lastSample = now;
    const t = now - this.origin;
    const rss = residentBytes();
    this.memory.push(
      this.workerRss.size > 0
        ? { t, rss, liveBytes, workersRss: this.workersRss }
        : { t, rss, liveBytes },
    );
  }

  /** The key of task `id` of the table (as taskKey gives it), from its layer's cached parts. */
  private key(id: number): string {
    const { table } = this;
    const lid = table.layerOf[id]!;
    let parts = this.keyParts[lid];
    if (parts === undefined) {
      const layer = table.layers[lid]!;
      parts = [`${layer.name}:(`, layer.chunks.map((c) => c.length)];
      this.keyParts[lid] = parts;
    }
    const [head, grid] = parts;
    const flat = table.blockOf[id]!;
    // one cons of the layer's head and a short flat tail: 64 bytes a key kept, not 96 (a
    // template makes two cons strings), measured on a hundred thousand keys
    if (grid.length === 1) return head.concat(`${flat})`);
    return `${head}${unravel(flat, grid).join(',')})`;
  }

  /** The bytes of task `id`'s inputs. */
  private bytesIn(id: number): number {
    const { table, bytesOf } = this;
    const s = table.depStart[id]!;
    let bytes = 0;
    for (let k = 0; k < table.depCount[id]!; k++) bytes += bytesOf[table.deps[s + k]!]!;
    return bytes;
  }

  /** The op of task `id` of the table. */
  private op(id: number): string {
    return this.table.layers[this.table.layerOf[id]!]!.op;
  }

  /** Task `i` as JSON. */
  task(i: number): ProfileTask {
    const id = this.ids[i]!;
    const t: ProfileTask = {
      key: this.key(id),
      op: this.op(id),
      kernel: this.kernelNames[this.kernelOf[i]!]!,
      lane: this.laneOf[i]!,
      start: this.starts[i]!,
      end: this.ends[i]!,
      bytesIn: this.bytesIn(id),
      bytesOut: this.bytesOf[id]!,
      device: this.devices.get(i) ?? 'cpu',
    };
    return this.spanOnly.has(i) ? { ...t, spanOnly: true } : t;
  }

  /**
   * The profile so far (complete once `end()` was called; with `error` once `fail()` was).
   * Its task columns are made when first read (then kept): a caller that reads a few of them,
   * or none, does not pay for building all of a hundred thousand tasks' strings and arrays;
   * JSON.stringify, structured clone and spreading read them all, as for plain arrays.
   */
  profile(): Profile {
    const n = this.count;
    // the columns as they are now (a later grow() replaces them; entries below n never
    // change): a profile taken mid-run does not see later tasks
    const { ids, laneOf, kernelOf, starts, ends, bytesOf } = this;
    const names = [...this.kernelNames];
    const devices = [...this.devices].filter(([i]) => i < n);
    const spanOnly = [...this.spanOnly].filter((i) => i < n);
    const tasks = lazyColumns<ProfileTasks>({
      key: () => {
        const key = new Array<string>(n);
        for (let i = 0; i < n; i++) key[i] = this.key(ids[i]!);
        return key;
      },
      op: () => {
        const op = new Array<string>(n);
        for (let i = 0; i < n; i++) op[i] = this.op(ids[i]!);
        return op;
      },
      kernel: () => {
        // most runs use one kernel: filled, not looked up
        if (names.length === 1) return new Array<string>(n).fill(names[0]!);
        const kernel = new Array<string>(n);
        for (let i = 0; i < n; i++) kernel[i] = names[kernelOf[i]!]!;
        return kernel;
      },
      lane: () => values(laneOf, n),
      start: () => values(starts, n),
      end: () => values(ends, n),
      bytesIn: () => {
        const bytesIn = new Array<number>(n);
        for (let i = 0; i < n; i++) bytesIn[i] = this.bytesIn(ids[i]!);
        return bytesIn;
      },
      bytesOut: () => {
        const bytesOut = new Array<number>(n);
        for (let i = 0; i < n; i++) bytesOut[i] = bytesOf[ids[i]!]!;
        return bytesOut;
      },
      device: () => {
        const device = new Array<string>(n).fill('cpu');
        for (const [i, d] of devices) device[i] = d;
        return device;
      },
      spanOnly: () => spanOnly,
    });
    addReader(this.lease, tasks);
    return {
      version: 1,
      scheduler: this.scheduler,
      workers: this.workers,
      startedAt: this.startedAt,
      durationMs: this.durationMs,
      lanes: [...this.lanes],
      tasks,
      memory: [...this.memory],
      ...(this.failure !== undefined ? { error: this.failure } : {}),
    };
  }
}

/**
 * An object whose properties are made by `make` when first read, then kept as ordinary data
 * properties (enumerable, in `make`'s order, so JSON and equality see plain data).
 */
function lazyColumns<T extends object>(make: { [K in keyof T]: () => T[K] }): T {
  const out = {} as T;
  for (const name of Object.keys(make) as (keyof T)[]) {
    Object.defineProperty(out, name, {
      enumerable: true,
      configurable: true,
      get() {
        const value = make[name]();
        Object.defineProperty(out, name, { value, enumerable: true, configurable: true });
        return value;
      },
    });
  }
  return out;
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
