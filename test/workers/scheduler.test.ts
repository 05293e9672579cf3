import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { NDArray } from '../../src/array/ndarray.ts';
import { CancelledError, TaskError } from '../../src/errors.ts';
import { defineLayer } from '../../src/graph/define-layer.ts';
import type { Layer } from '../../src/graph/layer.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { orderTasks } from '../../src/graph/order.ts';
import { createFnResolver } from '../../src/kernels/resolve.ts';
import type { Kernel } from '../../src/kernels/types.ts';
import { InlineExecutor } from '../../src/workers/inline.ts';
import { runTasks } from '../../src/workers/scheduler.ts';
import type { Executor } from '../../src/workers/types.ts';
import {
  arbDag,
  buildDag,
  referenceValues,
  sourceLayer,
  sumLayer,
  testRegistry,
} from '../graph/dag.ts';

const registry = testRegistry();
const sync = new InlineExecutor(createFnResolver({ inline: true }), registry);
/** The same executor without its synchronous path: exercises batching. */
const batched: Executor = { name: 'batched', concurrency: 2, run: (b) => sync.run(b) };

async function run(outputs: Layer[], executor: Executor = sync, extra = {}) {
  const table = materializeTasks(outputs);
  return runTasks(table, executor, { priority: orderTasks(table), ...extra });
}

const first = (c: unknown) => (c as NDArray).data[0];

describe('runTasks', () => {
  test.each([
    ['sync', sync],
    ['batched', batched],
  ])('random DAGs give the reference values (%s)', async (_, executor) => {
    await fc.assert(
      fc.asyncProperty(arbDag, async (r) => {
        const layers = buildDag(r, 'x');
        const { outputs } = await run([layers[layers.length - 1]!], executor);
        for (let b = 0; b < r.blocks; b++) {
          expect(first(outputs[0]![b])).toBe(referenceValues(r, b).at(-1));
        }
      }),
      { numRuns: 40 },
    );
  });

  test('intermediates are released after their last dependent', async () => {
    const s = sourceLayer('src', 100);
    const c = sumLayer([sumLayer([sumLayer([s], 100, 1)], 100, 2)], 100, 3);
    const { stats } = await run([c]);
    expect(stats.tasksRun).toBe(300);
    expect(stats.liveChunksAtEnd).toBe(100);
    // outputs accumulate; at most the two intermediates of the current block live besides
    expect(stats.peakLiveChunks).toBeLessThanOrEqual(102);
  });

  test.each([
    [
      'a progress callback throws',
      batched,
      {
        onProgress: () => {
          throw new Error('progress broke');
        },
      },
      /progress broke/,
    ],
    [
      'an executor answers a batch with no results',
      { name: 'short', concurrency: 2, run: async () => [] } satisfies Executor,
      {},
      /executor 'short' answered a batch of \d+ tasks with 0 results/,
    ],
  ])(
    'a throw while a batch completes rejects the run (%s)',
    async (_, executor, extra, message) => {
      const s = sourceLayer('src', 4);
      await expect(run([sumLayer([s], 4, 1)], executor, extra)).rejects.toThrow(message);
    },
  );

  test('shared intermediates run once', async () => {
    let calls = 0;
    const reg = testRegistry();
    reg.set('count', ((inputs: NDArray[]) => {
      calls++;
      return inputs[0]!;
    }) as Kernel<never>);
    const s = sourceLayer('src', 3);
    const shared = defineLayer({
      op: 'count',
      deps: [s],
      chunks: [[1, 1, 1]],
      dtype: 'float64',
      task: (b) => ({ kernel: 'count', inputs: [[0, b]] }),
    });
    const table = materializeTasks([sumLayer([shared], 3, 1), sumLayer([shared], 3, 2)]);
    const ex = new InlineExecutor(createFnResolver(), reg);
    await runTasks(table, ex, { priority: orderTasks(table) });
    expect(calls).toBe(3);
  });

  test('a kernel that throws surfaces as TaskError with key and cause', async () => {
    const reg = testRegistry();
    reg.set('boom', (() => {
      throw new RangeError('bad block');
    }) as Kernel<never>);
    const bad = defineLayer({
      op: 'boom',
      deps: [sourceLayer('src', 2)],
      chunks: [[1, 1]],
      dtype: 'float64',
      task: (b) => ({ kernel: 'boom', inputs: [[0, b]] }),
    });
    const table = materializeTasks([bad]);
    const err = await runTasks(table, new InlineExecutor(createFnResolver(), reg), {
      priority: orderTasks(table),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskError);
    expect((err as TaskError).key).toMatch(/^boom-.*:\(0\)$/);
    expect((err as TaskError).kernel).toBe('boom');
    expect((err as TaskError).cause).toBeInstanceOf(RangeError);
    expect(((err as TaskError).cause as Error).stack).toContain('scheduler.test.ts');
  });

  test('an aborted signal cancels a long synchronous run', async () => {
    // counts tasks rather than timing them, so a loaded machine cannot fail it
    const reg = testRegistry();
    const sum = reg.get('test-sum') as Kernel<{ bias: number }>;
    let ran = 0;
    let ranAtAbort = -1;
    const counted: Kernel<{ bias: number }> = (inputs, p, ctx) => {
      ran++;
      return sum(inputs, p, ctx);
    };
    reg.set('test-sum', counted as Kernel<never>);
    const counting = new InlineExecutor(createFnResolver({ inline: true }), reg);
    const n = 50_000;
    const table = materializeTasks([sumLayer([sumLayer([sourceLayer('src', n)], n, 1)], n, 2)]);
    const ac = new AbortController();
    setTimeout(() => {
      ranAtAbort = ran;
      ac.abort();
    }, 20);
    const err = await runTasks(table, counting, {
      priority: orderTasks(table),
      signal: ac.signal,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    // the abort fired during the run (the run yielded to timers) and well before its end
    expect(ranAtAbort).toBeGreaterThan(0);
    expect(ranAtAbort).toBeLessThan(2 * n);
    // once aborted, at most the task already running completes
    expect(ran - ranAtAbort).toBeLessThanOrEqual(1);
  });

  test('memoryLimit holds back new roots while live bytes exceed it', async () => {
    // 20 independent roots feeding one reduction; with a tiny limit, batched execution
    // must not start every root before combining
    const s = sourceLayer('src', 20);
    const a = sumLayer([s], 20, 1);
    const reduce = defineLayer({
      op: 'pairs',
      deps: [a],
      chunks: [Array(10).fill(1)],
      dtype: 'float64',
      task: (b) => ({
        kernel: 'test-sum',
        inputs: [
          [0, [2 * b[0]!]],
          [0, [2 * b[0]! + 1]],
        ],
        params: { bias: 0 },
      }),
    });
    const wide: Executor = { name: 'wide', concurrency: 8, run: (b) => sync.run(b) };
    const free = await run([reduce], wide);
    const held = await run([reduce], wide, { memoryLimit: 8 });
    expect(held.stats.peakLiveChunks).toBeLessThan(free.stats.peakLiveChunks);
  });
});
