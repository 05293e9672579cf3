// Progress of a compute: a cli-progress bar on an interactive stderr, or events for a callback
// (at most ten a second, plus the final one). Nothing is printed when stderr is not a TTY.

import cliProgress from 'cli-progress';

/** One progress report. */
export interface ProgressEvent {
  /** Tasks finished. */
  readonly done: number;
  /** Tasks in the compute. */
  readonly total: number;
  /** Bytes of chunk data held so far (as the scheduler counts them). */
  readonly bytes: number;
  readonly elapsedMs: number;
  /** Estimated time left, from the mean rate so far; Infinity before the first task. */
  readonly etaMs: number;
}

/** What the scheduler drives: cumulative updates, then one finish. */
export interface ProgressSink {
  update(done: number, bytes: number): void;
  finish(): void;
}

/** The stream a bar is drawn on (stderr by default; tests pass their own). */
export type ProgressStream = NodeJS.WritableStream & { isTTY?: boolean };

const MIN_INTERVAL_MS = 100;

/**
 * A progress sink for a compute's `progress` option: `true` draws a bar on stderr when it is
 * a TTY (nothing otherwise), a function receives ProgressEvents.
 * @example
 * const p = createProgress((e) => console.log(`${e.done}/${e.total}`), 100);
 * p.update(50, 4096);
 * p.finish();
 */
export function createProgress(
  opt: boolean | ((p: ProgressEvent) => void) | undefined,
  total: number,
  stream: ProgressStream = process.stderr,
): ProgressSink {
  if (typeof opt === 'function') return callbackSink(opt, total);
  if (opt === true && stream.isTTY === true) return barSink(stream, total);
  return { update() {}, finish() {} };
}

function callbackSink(fn: (p: ProgressEvent) => void, total: number): ProgressSink {
  const start = performance.now();
  let done = 0;
  let bytes = 0;
  let lastAt = Number.NEGATIVE_INFINITY;
  let sentDone = -1;
  let sentBytes = -1;
  let finished = false;
  const emit = (now: number): void => {
    lastAt = now;
    sentDone = done;
    sentBytes = bytes;
    const elapsedMs = now - start;
    const etaMs = done === 0 ? Number.POSITIVE_INFINITY : (elapsedMs / done) * (total - done);
    fn({ done, total, bytes, elapsedMs, etaMs });
  };
  return {
    update(d, b) {
      if (finished) return;
      done = d;
      bytes = b;
      const now = performance.now();
      if (now - lastAt >= MIN_INTERVAL_MS) emit(now);
    },
    finish() {
      if (finished) return;
      finished = true;
      if (done !== sentDone || bytes !== sentBytes) emit(performance.now());
    },
  };
}

function barSink(stream: ProgressStream, total: number): ProgressSink {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: 'compute |{bar}| {value}/{total} tasks | {bytes} | ETA {eta_formatted}',
      barsize: 30,
      hideCursor: false,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { bytes: formatBytes(0) });
  let finished = false;
  return {
    update(done, bytes) {
      if (!finished) bar.update(done, { bytes: formatBytes(bytes) });
    },
    finish() {
      if (finished) return;
      finished = true;
      bar.stop();
    },
  };
}

/**
 * Bytes for people: binary units, three significant digits.
 * @example
 * formatBytes(3 * 2 ** 30); // '3.00 GiB'
 */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return u === 0 ? `${n} B` : `${n.toPrecision(3)} ${units[u]}`;
}
