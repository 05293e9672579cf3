// The executor-agnostic scheduler: runs a task table in static priority order on any
// Executor, releasing each intermediate as soon as its last dependent has run.
//
// State (all indexed by task id):
//   waiting[t]  inputs of t not yet computed; t is ready when it reaches 0
//   refs[t]     dependents of t not yet run, +1 while t is an output; t's value is freed at 0
//   values[t]   the computed block (or source block), undefined once released
//   ready       tasks whose inputs exist, two heaps by priority: roots (no computed inputs,
//               held back while live bytes exceed memoryLimit) and the rest
//   inflight    batches handed to the executor and not yet returned
//   liveBytes   bytes of all values held; the peak is reported in stats
//   stop        aborted when the run fails or is cancelled, so executors drop what is queued
//               (and pools terminate a worker whose task overruns the abort grace period)
// Released and allocated shared bytes are counted toward an explicit collection
// (collect.ts): V8 does not see shared memory as GC pressure.

import { setMaxListeners } from 'node:events';
import { takeFreeBuffer } from '../array/buffer-pool.ts';
import { itemsize } from '../array/dtype.ts';
import { NDArray } from '../array/ndarray.ts';
import type { OutputPlace } from '../array/output-place.ts';
import { CancelledError, TimeoutError, ValueError } from '../errors.ts';
import { type TaskTable, taskKey, unravel } from '../graph/materialize.ts';
import type { Chunk } from '../kernels/types.ts';
import { collectGarbage, noteDropped } from './collect.ts';
import { deviceBytes } from './device-chunk.ts';
import { ReadyQueue } from './ready-queue.ts';
import { exposeChunk, Recycler } from './recycler.ts';
import { type BatchTiming, newTiming, TIME_ORIGIN } from './task-timing.ts';
import type { Executor, TaskPayload, TaskTrace } from './types.ts';

/** Released blocks up to this size live on shared slabs: not worth counting for GC. */
const SMALL_BLOCK = 4096;

/** A batch is dispatched once building its payloads took this many ms (see pump). */
const BATCH_BUILD_MS = 1;
/** A batch is dispatched once its tasks' blocks add up to this many bytes (see pump). */
const BATCH_BYTES = 8 * 2 ** 20;

export interface RunOptions {
  /** Static priorities (orderTasks); lower runs first. */
  priority: Int32Array;
  signal?: AbortSignal;
  /** Hold back new root tasks while live chunk bytes exceed this. */
  memoryLimit?: number;
  /**
   * Called as tasks finish (done and total count runnable tasks): after every task inline,
   * after every batch on pools. A throw fails the run with ValueError.
   */
  onProgress?: (done: number, total: number, bytes: number) => void;
  /** Receives each task's worker, start and end, and the live bytes (a profile). */
  trace?: TaskTrace;
  /**
   * Offered each output task's value as it completes; returning true means the caller took
   * it (copied it into a result of its own), so the run drops it as soon as no task needs it
   * and its slot in `outputs` is undefined. Must not throw.
   */
  onOutput?: (task: number, value: Chunk, written: boolean) => boolean;
  /**
   * Where an output task's block goes in its result (undefined: nowhere): tasks on other
   * threads are handed these places and copy their block there themselves, and onOutput is
   * then told `written`.
   */
  outputPlaces?: (task: number) => readonly OutputPlace[] | undefined;
}

/** Synchronous runs yield to the event loop this often (ms), so timers and aborts fire. */
const SYNC_YIELD_MS = 50;

/**
 * The error a run rejects with when its signal aborts: TimeoutError for a TimeoutError
 * reason (compute's `timeout`, AbortSignal.timeout), CancelledError otherwise; the reason is
 * kept as `cause`.
 * @example
 * abortError(AbortSignal.timeout(0).reason, 'cancelled by its AbortSignal');
 */
export function abortError(reason: unknown, what: string): CancelledError | TimeoutError {
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    const message = reason.message.startsWith('compute: ')
      ? reason.message
      : `compute: timed out: ${reason.message}`;
    return new TimeoutError(message, { cause: reason });
  }
  return new CancelledError(`compute: ${what}`, { cause: reason });
}

/** Figures of one compute: tasks run, peak memory and live chunk bytes, time. */
export interface RunStats {
  tasksRun: number;
  peakLiveChunks: number;
  peakLiveBytes: number;
  /** Peak bytes of blocks held on devices (GPU buffers), counted apart from host bytes. */
  peakDeviceBytes: number;
  /** Live chunks after the run: only the outputs' blocks. */
  liveChunksAtEnd: number;
  /**
   * Bytes of released block buffers the run kept for reuse by later blocks instead of
   * letting them go (0 where the executor does not reuse memory, or with `bufferPool: 0`).
   */
  recycledBytes: number;
}

export interface RunResult {
  /** Per output layer, its blocks in C order. */
  outputs: Chunk[][];
  stats: RunStats;
}

/** Bytes held by a chunk. */
export function chunkBytes(c: Chunk): number {
  if (c instanceof NDArray) return c.data.byteLength;
  if (!Array.isArray(c)) return 0; // a device block: counted in device bytes
  let n = 0;
  for (let i = 0; i < c.length; i++) n += chunkBytes(c[i]!);
  return n;
}

/**
 * Run every task of `table` on `executor`; resolves with the outputs' blocks.
 * @example
 * const table = materializeTasks([y.layer]);
 * const { outputs } = await runTasks(table, inlineExecutor(), { priority: orderTasks(table) });
 */
export function runTasks(
  table: TaskTable,
  executor: Executor,
  opts: RunOptions,
): Promise<RunResult> {
  return new Run(table, executor, opts).start();
}

class Run {
  private readonly waiting: Int32Array;
  private readonly refs: Int32Array;
  private readonly values: (Chunk | undefined)[];
  private readonly dependents: Int32Array;
  private readonly dependentsStart: Int32Array;
  private readonly isRoot: Uint8Array;
  private readonly roots: ReadyQueue;
  private readonly others: ReadyQueue;
  private readonly grids: number[][];
  private readonly total: number;
  private done = 0;
  private inflight = 0;
  private liveChunks = 0;
  private liveBytes = 0;
  /** Nominal bytes of the blocks dispatched and not yet returned. */
  private pendingBytes = 0;
  private readonly stats: RunStats = {
    tasksRun: 0,
    peakLiveChunks: 0,
    peakLiveBytes: 0,
    peakDeviceBytes: 0,
    liveChunksAtEnd: 0,
    recycledBytes: 0,
  };
  /**
   * Output tasks of the batch being completed whose values onOutput has not yet seen: copying
   * a block into its result can take as long as a task (fresh memory), so workers get their
   * next batches first (pool executors only; undefined for inline runs).
   */
  private outputsDue: number[] | undefined;
  private offerScheduled = false;
  /** Output tasks handed their places in the results (spares executors only). */
  private readonly placed: Set<number> | undefined;
  /** Counts of reusable buffers, on executors whose blocks can reuse freed memory. */
  private readonly recycler: Recycler | undefined;
  /** Bytes of the blocks held on devices. */
  private liveDeviceBytes = 0;
  private failed = false;
  /** How many of the outputs' blocks each task is (0 for the rest). */
  private readonly isOutput: Uint8Array;
  /**
   * Aborted when the run ends: on failure or cancel the executor drops its queued batches; on
   * success (nothing is in flight then) it lets go of what it kept for the run (Redis keys).
   */
  private readonly stop = new AbortController();
  private resolve!: (r: RunResult) => void;
  private reject!: (e: unknown) => void;

  constructor(
    private readonly table: TaskTable,
    private readonly executor: Executor,
    private readonly opts: RunOptions,
  ) {
    // every batch in flight listens to it: as many as 2 × the executor's concurrency
    setMaxListeners(0, this.stop.signal);
    const n = table.count;
    this.waiting = table.depCount.slice();
    this.refs = new Int32Array(n);
    this.values = new Array(n);
    this.isRoot = new Uint8Array(n);
    this.roots = new ReadyQueue(opts.priority);
    this.others = new ReadyQueue(opts.priority);
    this.grids = table.layers.map((l) => l.chunks.map((c) => c.length));
    const counts = new Int32Array(n + 1);
    for (let i = 0; i < table.deps.length; i++) counts[table.deps[i]! + 1]!++;
    for (let i = 0; i < n; i++) counts[i + 1]! += counts[i]!;
    this.dependentsStart = counts;
    this.dependents = new Int32Array(table.deps.length);
    const fill = counts.slice(0, n);
    let runnable = 0;
    for (let t = 0; t < n; t++) {
      const s = table.depStart[t]!;
      let computedInputs = 0;
      for (let i = 0; i < table.depCount[t]!; i++) {
        const d = table.deps[s + i]!;
        this.dependents[fill[d]!++] = t;
        this.refs[d]!++;
        if (!table.isConstant[d]) computedInputs++;
      }
      if (!table.isConstant[t]) {
        runnable++;
        if (computedInputs === 0) this.isRoot[t] = 1;
      }
    }
    this.isOutput = new Uint8Array(n);
    for (const out of table.outputs) {
      for (const t of out) {
        this.refs[t]!++;
        this.isOutput[t] = Math.min(255, this.isOutput[t]! + 1);
      }
    }
    this.total = runnable;
    this.recycler = executor.recycles ? new Recycler() : undefined;
    this.outputsDue = executor.runSync || opts.onOutput === undefined ? undefined : [];
    this.placed =
      executor.recycles === 'spares' && opts.outputPlaces !== undefined ? new Set() : undefined;
  }

  start(): Promise<RunResult> {
    const promise = new Promise<RunResult>((res, rej) => {
      this.resolve = res;
      this.reject = rej;
    });
    const { signal } = this.opts;
    if (signal?.aborted) {
      this.fail(abortError(signal.reason, 'cancelled before it started'));
      return promise;
    }
    signal?.addEventListener('abort', this.onAbort, { once: true });
    for (let t = 0; t < this.table.count; t++) {
      if (!this.table.isConstant[t]) continue;
      const v = this.constantValue(t);
      // the caller's data: a task that returns a view of it must never free its memory
      if (this.recycler) exposeChunk(v);
      this.complete(t, v);
    }
    for (let t = 0; t < this.table.count; t++) {
      if (!this.table.isConstant[t] && this.table.depCount[t] === 0) this.enqueue(t);
    }
    if (this.total === 0) this.finish();
    else if (this.executor.runSync) void this.runSyncLoop();
    else this.pump();
    return promise;
  }

  private readonly onAbort = (): void => {
    this.fail(abortError(this.opts.signal?.reason, 'cancelled by its AbortSignal'));
  };

  /** Report progress; a callback that throws fails the run (it must not end the process). */
  private report(): boolean {
    const { onProgress } = this.opts;
    if (onProgress === undefined) return true;
    try {
      onProgress(this.done, this.total, this.liveBytes);
      return true;
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      this.fail(new ValueError(`compute: the progress callback threw: ${why}`, { cause: e }));
      return false;
    }
  }

  private constantValue(t: number): Chunk {
    const layer = this.table.layers[this.table.layerOf[t]!]!;
    return layer.constant!(unravel(this.table.blockOf[t]!, this.grids[this.table.layerOf[t]!]!));
  }

  private enqueue(t: number): void {
    if (this.isRoot[t]) this.roots.push(t);
    else this.others.push(t);
  }

  /**
   * Next ready task by priority; roots wait while memory is over the limit, unless nothing
   * else would run (`batched`: tasks already taken into the batch being built).
   */
  private next(batched = 0): number {
    const limit = this.opts.memoryLimit;
    const rootsHeld =
      limit !== undefined &&
      (this.liveBytes + this.pendingBytes > limit || this.liveDeviceBytes > limit) &&
      this.inflight + this.others.size + batched > 0;
    if (this.others.size === 0 && (rootsHeld || this.roots.size === 0)) return -1;
    if (rootsHeld || this.others.peekKey() < this.roots.peekKey()) return this.others.pop();
    return this.roots.pop();
  }

  /** The payload of task t; `spareBytes`: hand it a free buffer of that size, if one is kept. */
  private payload(t: number, spareBytes = 0): TaskPayload {
    const { table } = this;
    const output = this.isOutput[t]! > 0;
    const lid = table.layerOf[t]!;
    const layer = table.layers[lid]!;
    const spec = layer.task(unravel(table.blockOf[t]!, this.grids[lid]!));
    const backend = layer.backend;
    const s = table.depStart[t]!;
    const inputs = new Array<Chunk>(table.depCount[t]!);
    for (let i = 0; i < inputs.length; i++) inputs[i] = this.values[table.deps[s + i]!]!;
    // a child process (isolated) shares no memory with this one
    const spare =
      spareBytes > SMALL_BLOCK && !spec.isolated ? takeFreeBuffer(spareBytes) : undefined;
    const into = output && this.placed && !spec.isolated ? this.opts.outputPlaces!(t) : undefined;
    if (into !== undefined) this.placed!.add(t);
    return {
      id: t,
      key: taskKey(table, t),
      kernel: spec.kernel,
      params: spec.params,
      inputs,
      ...(backend !== undefined && backend.module !== undefined ? { backend } : {}),
      ...(layer.device !== undefined ? { device: layer.device } : {}),
      ...(spec.mainThread ? { mainThread: true } : {}),
      ...(spec.isolated ? { isolated: true } : {}),
      ...(output ? { output } : {}),
      ...(spare !== undefined ? { spare } : {}),
      ...(into !== undefined ? { into } : {}),
    };
  }

  /** Bytes a task's block should take, from its layer's chunks (unknown sizes count 0). */
  private nominalBytes(t: number): number {
    const lid = this.table.layerOf[t]!;
    const layer = this.table.layers[lid]!;
    const block = unravel(this.table.blockOf[t]!, this.grids[lid]!);
    let n = itemsize(layer.dtype);
    for (let ax = 0; ax < block.length; ax++) n *= layer.chunks[ax]![block[ax]!] ?? 0;
    return n;
  }

  /** Task t gave `value`: its dependents may run. Returns its bytes (0 for a constant). */
  private complete(t: number, value: Chunk): number {
    this.values[t] = value;
    const { table } = this;
    let bytes = 0;
    // source blocks live in their layer anyway: they do not count against memory
    if (!table.isConstant[t]) {
      bytes = chunkBytes(value);
      this.liveChunks++;
      this.liveBytes += bytes;
      if (this.liveChunks > this.stats.peakLiveChunks) this.stats.peakLiveChunks = this.liveChunks;
      if (this.liveBytes > this.stats.peakLiveBytes) this.stats.peakLiveBytes = this.liveBytes;
      const onDevice = deviceBytes(value);
      if (onDevice > 0) {
        this.liveDeviceBytes += onDevice;
        if (this.liveDeviceBytes > this.stats.peakDeviceBytes)
          this.stats.peakDeviceBytes = this.liveDeviceBytes;
      }
      this.recycler?.hold(value);
      this.done++;
      this.stats.tasksRun++;
      const s = table.depStart[t]!;
      for (let i = 0; i < table.depCount[t]!; i++) this.release(table.deps[s + i]!);
    }
    for (let i = this.dependentsStart[t]!; i < this.dependentsStart[t + 1]!; i++) {
      const d = this.dependents[i]!;
      if (--this.waiting[d]! === 0) this.enqueue(d);
    }
    if (this.isOutput[t]! > 0 && this.opts.onOutput !== undefined) {
      if (this.outputsDue) this.outputsDue.push(t);
      else this.offerOutput(t);
    }
    return bytes;
  }

  /** Offer output task t's value to onOutput; taken, it is released like an intermediate. */
  private offerOutput(t: number): void {
    const uses = this.isOutput[t]!;
    const value = this.values[t];
    const written = this.placed?.has(t) === true;
    if (value === undefined || this.opts.onOutput?.(t, value, written) !== true) return;
    // taken: the outputs' references go, so its last dependent (or this) releases it
    this.isOutput[t] = 0;
    for (let i = 0; i < uses; i++) this.release(t);
  }

  /** Offer the outputs a returned batch made, once the next batches are on their way. */
  private offerDueOutputs(): void {
    const due = this.outputsDue;
    if (due === undefined || due.length === 0) return;
    this.outputsDue = [];
    for (const t of due) this.offerOutput(t);
  }

  private release(t: number): void {
    if (--this.refs[t]! > 0) return;
    const v = this.values[t];
    if (v === undefined) return;
    this.values[t] = undefined;
    if (this.table.isConstant[t]) return;
    this.liveChunks--;
    const bytes = chunkBytes(v);
    this.liveBytes -= bytes;
    const dropped = bytes - (this.recycler?.drop(v) ?? 0);
    if (dropped > SMALL_BLOCK) noteDropped(dropped);
    const onDevice = deviceBytes(v);
    if (onDevice > 0) {
      this.liveDeviceBytes -= onDevice;
      this.executor.release?.(v);
    }
  }

  private async runSyncLoop(): Promise<void> {
    const runSync = this.executor.runSync!.bind(this.executor);
    const { signal, trace } = this.opts;
    let lastYield = performance.now();
    // The clock is read once per task (the yield check needs it anyway): a traced task spans
    // from the previous read to the next, its scheduling on this thread included.
    let clock = lastYield;
    while (!this.failed) {
      const t = this.next();
      if (t < 0) break;
      let value: Chunk;
      let task: TaskPayload;
      try {
        task = this.payload(t);
        const out = runSync(task);
        value = out instanceof Promise ? await out : out;
      } catch (e) {
        this.fail(e);
        return;
      }
      if (this.failed) return; // aborted while an asynchronous kernel ran
      const bytes = this.complete(t, value);
      collectGarbage();
      const now = performance.now();
      if (trace) {
        // the clock's values as read: the call is not inlined, and a sum would be a new number
        trace.ran(task, bytes, 'main', clock, now, false);
        trace.live(this.liveBytes);
      }
      clock = now;
      if (signal?.aborted) {
        this.onAbort();
        return;
      }
      if (this.done < this.total && !this.report()) return;
      if (now - lastYield > SYNC_YIELD_MS) {
        // let timers (a timeout) and abort signals fire during long synchronous runs
        await new Promise<void>((r) => setImmediate(r));
        lastYield = performance.now();
        clock = lastYield;
      }
    }
    if (!this.failed) this.finish();
  }

  private batchSize(): number {
    const ready = this.roots.size + this.others.size;
    const per = Math.ceil(ready / (2 * this.executor.concurrency));
    return Math.max(1, Math.min(512, per));
  }

  private pump(): void {
    const maxInflight = 2 * this.executor.concurrency;
    while (!this.failed && this.inflight < maxInflight) {
      const size = this.batchSize();
      const batch: TaskPayload[] = [];
      let bytes = 0;
      const started = performance.now();
      try {
        while (batch.length < size) {
          // specs built only now (fuse-tree's coarse tasks) can be slow: a batch that took
          // BATCH_BUILD_MS to build goes out as it is, so idle workers start sooner
          if (batch.length > 0 && performance.now() - started > BATCH_BUILD_MS) break;
          // large blocks gain nothing from batching, and a batch of them dispatched at once
          // runs roots far ahead of the tasks that free them (memory)
          if (bytes >= BATCH_BYTES) break;
          const t = this.next(batch.length);
          if (t < 0) break;
          const nominal = this.nominalBytes(t);
          bytes += nominal;
          this.pendingBytes += nominal;
          // a spec may be built only now (fuse-tree's lazy specs): a throw fails the run
          batch.push(this.payload(t, this.executor.recycles === 'spares' ? nominal : 0));
        }
      } catch (e) {
        this.fail(e);
        return;
      }
      if (batch.length === 0) break;
      this.inflight++;
      const timing = this.opts.trace ? newTiming(batch.length) : undefined;
      const sent = timing ? performance.now() : 0;
      this.executor.run(batch, this.stop.signal, timing).then(
        (results) => this.onBatch(batch, results, bytes, timing, sent),
        (e) => this.fail(e),
      );
    }
  }

  /**
   * Complete a returned batch's tasks; with `timing`, hand the trace where and when each ran
   * (the batch's own span, from `sent` to now, for tasks nobody timed).
   */
  private completeBatch(
    batch: TaskPayload[],
    results: Chunk[],
    timing: BatchTiming | undefined,
    sent: number,
  ): void {
    const trace = this.opts.trace;
    if (timing === undefined || trace === undefined) {
      for (let i = 0; i < batch.length; i++) this.complete(batch[i]!.id, results[i]!);
      return;
    }
    const now = performance.now();
    for (let i = 0; i < batch.length; i++) {
      const bytes = this.complete(batch[i]!.id, results[i]!);
      const timed = timing.end[i]! > 0;
      const lane = timing.lanes[i] || this.executor.name;
      // workers' times are epoch ms; the trace takes this thread's clock
      const start = timed ? timing.start[i]! - TIME_ORIGIN : sent;
      const end = timed ? timing.end[i]! - TIME_ORIGIN : now;
      trace.ran(batch[i]!, bytes, lane, start, end, !timed);
    }
    for (const [worker, rss] of timing.workerRss) trace.workerMemory?.(worker, rss);
  }

  private onBatch(
    batch: TaskPayload[],
    results: Chunk[],
    bytes: number,
    timing: BatchTiming | undefined,
    sent: number,
  ): void {
    if (this.failed) return;
    // Runs in a promise reaction: a throw here (a malformed result, a progress callback) must
    // reject the compute, not escape as an unhandled rejection.
    try {
      this.inflight--;
      this.pendingBytes -= bytes;
      if (results.length !== batch.length) {
        throw new Error(
          `runTasks: executor '${this.executor.name}' answered a batch of ${batch.length} tasks with ${results.length} results`,
        );
      }
      this.completeBatch(batch, results, timing, sent);
      this.opts.trace?.live(this.liveBytes);
      if (this.done === this.total) {
        this.offerDueOutputs();
        collectGarbage();
        this.finish();
      } else if (this.report()) {
        this.pump();
        // after the promise reactions that hand queued batches to the freed workers
        if (this.outputsDue !== undefined && this.outputsDue.length > 0 && !this.offerScheduled) {
          this.offerScheduled = true;
          setImmediate(() => {
            this.offerScheduled = false;
            if (!this.failed) this.offerDueOutputs();
          });
        }
        collectGarbage();
      }
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.stop.abort();
    this.opts.signal?.removeEventListener('abort', this.onAbort);
    this.values.fill(undefined);
    this.recycler?.end();
    this.reject(e);
  }

  private finish(): void {
    if (!this.report()) return;
    this.opts.signal?.removeEventListener('abort', this.onAbort);
    // nothing is in flight now: the executor learns that the compute has ended
    this.stop.abort();
    this.stats.liveChunksAtEnd = this.liveChunks;
    const outputs = this.table.outputs.map((ids) => Array.from(ids, (t) => this.values[t]!));
    if (this.recycler) {
      // the caller keeps the results: their memory is never reused
      for (const blocks of outputs) for (const b of blocks) if (b !== undefined) exposeChunk(b);
      this.recycler.end();
      this.stats.recycledBytes = this.recycler.recycledBytes;
    }
    this.resolve({ outputs, stats: this.stats });
  }
}
