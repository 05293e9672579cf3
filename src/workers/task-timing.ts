// When and where the tasks of a batch ran, for profiles: executors that time their tasks fill
// it (workers send start/end pairs back with their results); the scheduler reads it.

/** Per task of a batch: the worker it ran on and its start and end (epoch ms). */
export interface BatchTiming {
  /** Per task: the worker that ran it ('thread 3', 'process 1234', 'main'); '' until known. */
  readonly lanes: string[];
  readonly start: Float64Array;
  /** 0 for a task the executor did not time (the scheduler then uses the batch's own span). */
  readonly end: Float64Array;
  /**
   * Worker processes that ran tasks of the batch and told their memory: [worker, resident set
   * size in bytes when their part ended]. Threads share this process's memory and tell none.
   */
  readonly workerRss: [string, number][];
}

/**
 * Milliseconds since the epoch with sub-millisecond precision, comparable across threads
 * and processes of one machine.
 * @example
 * const t0 = epochNow();
 */
export function epochNow(): number {
  return TIME_ORIGIN + performance.now();
}

/** This thread's performance.timeOrigin (a getter call each time otherwise). */
export const TIME_ORIGIN = performance.timeOrigin;

/**
 * Fill in the ends a worker left open in `times` (start, end pairs): each task ends when the
 * next one starts (the worker's loop between them is a few checks), the last one now. An
 * asynchronous task's end, read when its promise settled, is kept.
 * @example
 * reply.times = endTimes(times);
 */
export function endTimes(times: Float64Array): Float64Array {
  const n = times.length / 2;
  for (let i = 0; i < n - 1; i++) if (times[2 * i + 1] === 0) times[2 * i + 1] = times[2 * i + 2]!;
  if (n > 0 && times[2 * n - 1] === 0) times[2 * n - 1] = epochNow();
  return times;
}

/**
 * An empty timing for a batch of `n` tasks.
 * @example
 * const timing = newTiming(batch.length);
 */
export function newTiming(n: number): BatchTiming {
  return {
    lanes: new Array<string>(n).fill(''),
    start: new Float64Array(n),
    end: new Float64Array(n),
    workerRss: [],
  };
}

/**
 * Copy a worker's `times` (start, end pairs for tasks 0 … k-1 of what it ran) into `timing`:
 * its task i is the batch's task `at[i]` (or `offset + i`).
 * @example
 * fillTiming(timing, 'thread 2', reply.times, null, 0);
 */
export function fillTiming(
  timing: BatchTiming,
  lane: string,
  times: Float64Array,
  at: readonly number[] | null,
  offset: number,
): void {
  for (let i = 0; i < times.length / 2; i++) {
    const k = at ? at[offset + i]! : offset + i;
    timing.lanes[k] = lane;
    timing.start[k] = times[2 * i]!;
    timing.end[k] = times[2 * i + 1]!;
  }
}

/**
 * Copy what `sub` (the timing of a sub-batch) holds into `timing`: sub-task k is task `at[k]`.
 * @example
 * copyTiming(sub, timing, hostIdx);
 */
export function copyTiming(sub: BatchTiming, timing: BatchTiming, at: readonly number[]): void {
  for (let k = 0; k < at.length; k++) {
    const i = at[k]!;
    timing.lanes[i] = sub.lanes[k]!;
    timing.start[i] = sub.start[k]!;
    timing.end[i] = sub.end[k]!;
  }
  timing.workerRss.push(...sub.workerRss);
}
