// compute(): fuse, materialize, order and run the graph of one or more arrays, then
// assemble each into an NDArray. Shared intermediates run once.

import { config, type SchedulerName } from '../config.ts';
import { DeviceRouter } from '../devices/device-router.ts';
import { moveLayer } from '../devices/device-scope.ts';
import { guardTransfer, readAllowTransfer } from '../devices/guards.ts';
import type { Profile } from '../diagnostics/profile.ts';
import { ValueError } from '../errors.ts';
import { fuseLayers } from '../graph/fuse.ts';
import type { Layer } from '../graph/layer.ts';
import { materializeTasks, type TaskTable } from '../graph/materialize.ts';
import { orderTasks } from '../graph/order.ts';
import type { Chunk } from '../kernels/types.ts';
import { type RunStats, runTasks } from '../workers/scheduler.ts';
import type { Executor } from '../workers/types.ts';
import { assembleBlocks } from './assemble.ts';
import { checkComputeOptions } from './compute-options.ts';
import { resolveExecutor } from './executors.ts';
import { LazyArray } from './lazy-array.ts';
import type { NDArray } from './ndarray.ts';
import type { OutputPlace } from './output-place.ts';
import { OutputSink } from './output-sink.ts';
import { profileSession } from './profile-option.ts';
import { type ProgressOption, progressReporter } from './progress-option.ts';

/** Options of `compute` and `persist`: the scheduler and its workers, cancellation (`signal`, `timeout`), progress and the memory bound. */
export interface ComputeOptions {
  /**
   * Where tasks run: 'sync' (inline), 'threads' (worker threads, shared memory), 'processes'
   * (child processes: a native crash in a kernel is a WorkerCrashedError), or any Executor.
   */
  scheduler?: SchedulerName | Executor;
  /** Pool size for 'threads' and 'processes'. */
  workers?: number;
  /**
   * Cancels the compute: it rejects with CancelledError (TimeoutError for a timeout reason),
   * the abort reason as `cause`. Pool workers still running one of its tasks after
   * config.abortGraceMs are terminated and replaced.
   */
  signal?: AbortSignal;
  /** Milliseconds the compute may run: past them it rejects with TimeoutError, as an abort. */
  timeout?: number;
  /** true: a progress bar on a TTY; a function: progress events. */
  progress?: ProgressOption;
  /** Hold back new input tasks while live chunk bytes exceed this. */
  memoryLimit?: number;
  /** Blockwise fusion (default true). */
  optimize?: boolean;
  /** Receives scheduler statistics (peak live chunks and bytes, tasks run). */
  onStats?: (stats: RunStats) => void;
  /** Allow bringing GPU arrays to the host (a guarded transfer otherwise). */
  allowTransfer?: boolean;
  /**
   * Record the task stream: per worker lane, when each task ran, its kernel, bytes in and
   * out and device, plus host memory and live chunk bytes over time. A path (such as
   * 'profile.html') also writes a self-contained HTML report there (timeline, per-kernel
   * table, memory, the graph's picture). The profile itself reaches `onProfile`; `true`
   * without `onProfile` is a ValueError (the profile would go nowhere).
   */
  profile?: boolean | string;
  /**
   * Receives the profile (JSON; `profileTasks(p)` gives its tasks as rows) when the compute
   * has ended, before it resolves or rejects; implies `profile: true`. A failed compute
   * delivers the tasks that ran before it failed and `profile.error` (its message, and the
   * failing task's key and kernel when a task failed), then rejects with its own error.
   */
  onProfile?: (profile: Profile) => void;
}

/** `x`, on the host: a GPU array is a guarded device → host transfer. */
function toHost(fn: string, x: LazyArray, allow: boolean): LazyArray {
  if (x.device === 'cpu') return x;
  guardTransfer(fn, x.name, x.device, 'cpu', x.nbytes, allow);
  return moveLayer(x, 'cpu');
}

/**
 * The signal a run obeys: `signal`, aborted also after `timeout` ms with a TimeoutError
 * reason; `clear` stops the timer.
 */
function runSignal(
  signal: AbortSignal | undefined,
  timeout: number | undefined,
): { signal: AbortSignal | undefined; clear: () => void } {
  if (timeout === undefined) return { signal, clear: () => {} };
  if (typeof timeout !== 'number' || !(timeout > 0) || timeout === Number.POSITIVE_INFINITY) {
    throw new ValueError(`compute: timeout ${String(timeout)} is not a positive number of ms`);
  }
  const ac = new AbortController();
  const onAbort = (): void => ac.abort(signal!.reason);
  if (signal?.aborted) ac.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    const reason = new Error(`compute: timed out after ${timeout} ms`);
    reason.name = 'TimeoutError';
    ac.abort(reason);
  }, timeout);
  return {
    signal: ac.signal,
    clear: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** Run the graphs of `layers`; resolves with each output's blocks (C order). */
export async function computeBlocks(
  layers: readonly Layer[],
  opts: ComputeOptions = {},
): Promise<Chunk[][]> {
  return (await computeInto(layers, opts, [])) as Chunk[][];
}

/**
 * As computeBlocks, but an output with a sink has its blocks copied there as they finish,
 * its slots left undefined.
 */
async function computeInto(
  layers: readonly Layer[],
  opts: ComputeOptions,
  sinks: readonly (OutputSink | undefined)[],
): Promise<(Chunk | undefined)[][]> {
  const run = runSignal(opts.signal, opts.timeout);
  try {
    return await runLayers(layers, opts, run.signal, sinks);
  } finally {
    run.clear();
  }
}

/**
 * The scheduler's onOutput for `sinks`: a task whose every use as an output block has a sink
 * is copied into each and then belongs to the run alone.
 */
function takeOutputs(
  table: TaskTable,
  sinks: readonly (OutputSink | undefined)[],
):
  | {
      onOutput: (task: number, value: Chunk, written: boolean) => boolean;
      placesOf: (task: number) => OutputPlace[] | undefined;
    }
  | undefined {
  if (!sinks.some((s) => s !== undefined)) return undefined;
  const uses = new Map<number, [OutputSink | undefined, number][]>();
  table.outputs.forEach((ids, i) => {
    ids.forEach((t, b) => {
      const list = uses.get(t) ?? [];
      if (list.length === 0) uses.set(t, list);
      list.push([sinks[i], b]);
    });
  });
  const sunk = (task: number) => {
    const list = uses.get(task);
    return list === undefined || list.some(([sink]) => sink === undefined) ? undefined : list;
  };
  return {
    onOutput: (task, value, written) => {
      const list = sunk(task);
      if (list === undefined) return false;
      let taken = true;
      for (const [sink, b] of list) taken = sink!.take(b, value, written) && taken;
      return taken;
    },
    placesOf: (task) => sunk(task)?.map(([sink, b]) => sink!.place(b)),
  };
}

async function runLayers(
  layers: readonly Layer[],
  opts: ComputeOptions,
  signal: AbortSignal | undefined,
  sinks: readonly (OutputSink | undefined)[],
): Promise<(Chunk | undefined)[][]> {
  const optimized = opts.optimize === false ? [...layers] : fuseLayers(layers);
  const table = materializeTasks(optimized);
  const taking = takeOutputs(table, sinks);
  const host = await resolveExecutor(opts.scheduler ?? config.scheduler, opts.workers);
  // a graph with device layers runs through the router: device tasks go to their GPU worker
  const executor = table.layers.some((l) => l.device !== undefined) ? new DeviceRouter(host) : host;
  const progress = progressReporter(opts.progress, table);
  const profile = profileSession(opts, optimized, table, executor);
  let outputs: (Chunk | undefined)[][];
  try {
    const run = await runTasks(table, executor, {
      priority: orderTasks(table),
      ...(signal ? { signal } : {}),
      ...(opts.memoryLimit !== undefined ? { memoryLimit: opts.memoryLimit } : {}),
      ...(progress ? { onProgress: progress.update } : {}),
      ...(profile ? { trace: profile.recorder } : {}),
      ...(taking ? { onOutput: taking.onOutput, outputPlaces: taking.placesOf } : {}),
    });
    opts.onStats?.(run.stats);
    outputs = run.outputs;
  } catch (e) {
    await profile?.fail(e);
    try {
      progress?.finish();
    } catch {
      // the run's own error is the one to report
    }
    throw e;
  } finally {
    executor.computeEnded?.();
  }
  try {
    progress?.finish();
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new ValueError(`compute: the progress callback threw: ${why}`, { cause: e });
  }
  await profile?.end();
  return outputs;
}

function splitArgs(fn: string, args: readonly (LazyArray | ComputeOptions)[]) {
  const arrays: LazyArray[] = [];
  let opts: ComputeOptions = {};
  args.forEach((a, i) => {
    if (a instanceof LazyArray) arrays.push(a);
    else if (i === args.length - 1 && a !== null && typeof a === 'object') opts = a;
    else throw new ValueError(`${fn}: argument ${i} is not a LazyArray: ${String(a)}`);
  });
  if (arrays.length === 0) throw new ValueError(`${fn}: no arrays given`);
  return { arrays, opts: checkComputeOptions(fn, opts) };
}

/** One NDArray per array of `T`: `[LazyArray, LazyArray]` gives `[NDArray, NDArray]`. */
export type Computed<T extends readonly LazyArray[]> = { -readonly [K in keyof T]: NDArray };

/** Two or more arrays: what `compute(a, b, …)` takes before its optional options. */
type Several = readonly [LazyArray, LazyArray, ...LazyArray[]];

/**
 * Compute arrays: one array gives an NDArray, several give a tuple of NDArrays of the same
 * length (shared work runs once).
 * @example
 * const x = ones([1000, 1000], { chunks: 250 });
 * const total = await compute(x.sum()); // NDArray, total.item() === 1e6
 * const [a, b] = await compute(x.sum(), x.mean()); // [NDArray, NDArray]
 */
export function compute(x: LazyArray, opts?: ComputeOptions): Promise<NDArray>;
export function compute<T extends Several>(...arrays: T): Promise<Computed<T>>;
export function compute<T extends Several>(...args: [...T, ComputeOptions]): Promise<Computed<T>>;
export async function compute(
  ...args: (LazyArray | ComputeOptions | undefined)[]
): Promise<NDArray | NDArray[]> {
  const { arrays, opts } = splitArgs(
    'compute',
    args.filter((a) => a !== undefined),
  );
  const allow = readAllowTransfer('compute', opts.allowTransfer);
  const layers = arrays.map((a) => toHost('compute', a, allow).layer);
  const sinks = layers.map((l, i) => OutputSink.for(l.chunks, arrays[i]!.dtype, arrays[i]!.name));
  const blocks = await computeInto(layers, opts, sinks);
  const results = arrays.map((a, i) => {
    const sink = sinks[i];
    if (sink === undefined)
      return assembleBlocks(blocks[i] as Chunk[], a.numBlocks, a.dtype, a.name);
    if (sink.error !== undefined) throw sink.error;
    return sink.result;
  });
  return arrays.length === 1 ? results[0]! : results;
}

export { splitArgs };
