// The scheduler and its callers' signals: the sync scheduler checks the abort signal and
// reports progress after every task; a progress callback that throws rejects the compute
// (on every scheduler) instead of escaping as an unhandled error.

import { describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { isTesseraError } from '../../src/errors.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { orderTasks } from '../../src/graph/order.ts';
import { compute, fromArray, mapBlocks } from '../../src/index.ts';
import { createFnResolver } from '../../src/kernels/resolve.ts';
import type { Chunk, Kernel } from '../../src/kernels/types.ts';
import { InlineExecutor } from '../../src/workers/inline.ts';
import { abortError, runTasks } from '../../src/workers/scheduler.ts';
import type { Executor } from '../../src/workers/types.ts';
import { sourceLayer, sumLayer, testRegistry } from '../graph/dag.ts';
import { rejection } from '../helpers/rejection.ts';

const T = 30_000;

/** A registry whose 'test-sum' also calls `onCall` (to abort from inside a task). */
function counting(onCall: (n: number) => void) {
  const reg = testRegistry();
  const sum = reg.get('test-sum') as Kernel<never>;
  let n = 0;
  reg.set('test-sum', ((inputs: Chunk[], p: never, ctx) => {
    onCall(++n);
    return sum(inputs, p, ctx);
  }) as Kernel<never>);
  return { reg, calls: () => n };
}

const table = (n: number) => materializeTasks([sumLayer([sourceLayer('src', n)], n, 1)]);

describe('the sync scheduler', () => {
  test('reports progress after every task, done counting up by one', async () => {
    const t = table(30);
    const seen: number[] = [];
    const sync = new InlineExecutor(createFnResolver(), testRegistry());
    await runTasks(t, sync, {
      priority: orderTasks(t),
      onProgress: (done, total) => {
        expect(total).toBe(30);
        seen.push(done);
      },
    });
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  test('stops right after the task during which its signal aborted', async () => {
    const ac = new AbortController();
    const reason = new Error('enough');
    const { reg, calls } = counting((n) => {
      if (n === 5) ac.abort(reason);
    });
    const t = table(100);
    const err = await rejection(
      runTasks(t, new InlineExecutor(createFnResolver(), reg), {
        priority: orderTasks(t),
        signal: ac.signal,
      }),
    );
    expect(isTesseraError(err, 'CancelledError')).toBe(true);
    expect((err as Error).message).toBe('compute: cancelled by its AbortSignal');
    expect((err as Error).cause).toBe(reason);
    expect(calls()).toBe(5);
  });

  test(
    'a timeout fires during a long run of quick synchronous tasks',
    async () => {
      const spin = (ms: number) => {
        const end = performance.now() + ms;
        while (performance.now() < end) {
          // busy: a synchronous kernel that takes `ms`
        }
      };
      const { reg, calls } = counting(() => spin(2));
      const t = table(500);
      const started = performance.now();
      const timeout = AbortSignal.timeout(60);
      const err = await rejection(
        runTasks(t, new InlineExecutor(createFnResolver(), reg), {
          priority: orderTasks(t),
          signal: timeout,
        }),
      );
      expect(isTesseraError(err, 'TimeoutError')).toBe(true);
      expect((err as Error).cause).toBe(timeout.reason);
      expect(performance.now() - started).toBeLessThan(600);
      expect(calls()).toBeLessThan(500);
    },
    T,
  );
});

describe('abortError', () => {
  test.each([
    [
      new DOMException('The operation timed out.', 'TimeoutError'),
      'TimeoutError',
      'compute: timed out: The operation timed out.',
    ],
    [
      Object.assign(new Error('compute: timed out after 5 ms'), { name: 'TimeoutError' }),
      'TimeoutError',
      'compute: timed out after 5 ms',
    ],
    [new Error('stop'), 'CancelledError', 'compute: cancelled by its AbortSignal'],
    ['a string reason', 'CancelledError', 'compute: cancelled by its AbortSignal'],
  ] as const)('reason %s gives %s', (reason, tag, message) => {
    const e = abortError(reason, 'cancelled by its AbortSignal');
    expect(e._tag).toBe(tag);
    expect(e.message).toBe(message);
    expect(e.cause).toBe(reason);
  });
});

describe('a progress callback that throws', () => {
  const batched = (): Executor => {
    const sync = new InlineExecutor(createFnResolver(), testRegistry());
    return { name: 'batched', concurrency: 2, run: (b) => sync.run(b) };
  };

  test.each([
    ['sync', () => new InlineExecutor(createFnResolver(), testRegistry())],
    ['batched', batched],
  ] as const)('rejects runTasks with ValueError (%s)', async (_, make) => {
    const t = table(20);
    const bad = new TypeError('the bar broke');
    const err = await rejection(
      runTasks(t, make(), {
        priority: orderTasks(t),
        onProgress: (done) => {
          if (done >= 3) throw bad;
        },
      }),
    );
    expect(isTesseraError(err, 'ValueError')).toBe(true);
    expect((err as Error).message).toBe('compute: the progress callback threw: the bar broke');
    expect((err as Error).cause).toBe(bad);
  });

  test.each(['sync', 'threads'] as const)(
    'rejects compute with ValueError on %s, and the next compute runs',
    async (scheduler) => {
      const x = fromArray(new Float64Array(8).fill(1), { chunks: 2 });
      const y = mapBlocks((b: NDArray) => b, x, { dtype: 'float64' });
      const err = await rejection(
        compute(y, {
          scheduler,
          workers: 2,
          progress: () => {
            throw new Error('no bar today');
          },
        }),
      );
      expect(isTesseraError(err, 'ValueError')).toBe(true);
      expect(String(err)).toContain('compute: the progress callback threw: no bar today');
      const ok = await compute(y, { scheduler, workers: 2 });
      expect(ok).toBeInstanceOf(NDArray);
      expect(Array.from(ok.data as NumberArray)).toEqual(new Array(8).fill(1));
    },
    T,
  );
});
