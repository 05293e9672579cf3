import { threadId } from 'node:worker_threads';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { NDArray, ndarray } from '../../src/array/ndarray.ts';
import { builtinKernels } from '../../src/backends/cpu-js/registry.ts';
import { isTesseraError, KernelError, type TaskError } from '../../src/errors.ts';
import { createFnResolver } from '../../src/kernels/resolve.ts';
import { runTask } from '../../src/kernels/run-task.ts';
import { toFnRef } from '../../src/kernels/ship.ts';
import type { Chunk } from '../../src/kernels/types.ts';
import { ThreadPoolExecutor } from '../../src/workers/pool.ts';
import { kernels } from '../fixtures/defined-kernels.ts';
import { registryModule } from '../fixtures/test-kernels.ts';
import { task } from '../helpers/payload.ts';

const T = 20_000;
let pool: ThreadPoolExecutor;

beforeAll(() => {
  pool = new ThreadPoolExecutor({ workers: 2, registryModule });
});
afterAll(() => pool.shutdown());

const arr = (c: Chunk | undefined): NDArray => {
  expect(c).toBeInstanceOf(NDArray);
  return c as NDArray;
};

describe('ThreadPoolExecutor: results', () => {
  test(
    'slice batches equal runTask on the main thread',
    async () => {
      const resolve = createFnResolver({ inline: true });
      const sel = fc
        .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }))
        .chain(([r, c]) =>
          fc.record({
            shape: fc.constant([r, c]),
            start: fc.tuple(fc.integer({ min: 0, max: r - 1 }), fc.integer({ min: 0, max: c - 1 })),
            step: fc.tuple(fc.constantFrom(1, 2, -1), fc.constantFrom(1, 3, -1)),
          }),
        )
        .map(({ shape, start, step }) => {
          const count = start.map((s, ax) =>
            step[ax]! > 0
              ? Math.ceil((shape[ax]! - s) / step[ax]!)
              : Math.floor(s / -step[ax]!) + 1,
          );
          return { shape, sel: { start, step, count } };
        });
      await fc.assert(
        fc.asyncProperty(fc.array(sel, { minLength: 1, maxLength: 40 }), async (cases) => {
          const batch = cases.map(({ shape, sel: s }, i) => {
            const data = Float64Array.from({ length: shape[0]! * shape[1]! }, (_, k) => k * 10 + i);
            return task('slice', s, [ndarray(data, shape)]);
          });
          const got = await pool.run(batch);
          expect(got).toHaveLength(batch.length);
          batch.forEach((t, i) => {
            const want = arr(runTask(t, builtinKernels, resolve) as Chunk);
            expect(arr(got[i]).shape).toEqual(want.shape);
            expect(Array.from(arr(got[i]).data as NumberArray)).toEqual(
              Array.from(want.data as NumberArray),
            );
          });
        }),
        { numRuns: 25 },
      );
    },
    T,
  );

  test(
    'tuple inputs come back as NDArrays (pick)',
    async () => {
      const a = ndarray([1, 2]);
      const b = ndarray([3, 4, 5], [3], 'int32');
      const [y, z] = await pool.run([
        task('pick', { index: 1 }, [[a, b]]),
        task('pick', { index: 0 }, [[a, b]]),
      ]);
      expect(arr(y).dtype).toBe('int32');
      expect(Array.from(arr(y).data as NumberArray)).toEqual([3, 4, 5]);
      expect(arr(z).toNested()).toEqual([1, 2]);
    },
    T,
  );

  test(
    'tasks run on workers; mainThread tasks run here, each in its place',
    async () => {
      const batch = Array.from({ length: 8 }, (_, i) =>
        task('test-thread', null, [], i % 3 === 0 ? { mainThread: true } : {}),
      );
      const got = await pool.run(batch);
      got.forEach((c, i) => {
        const tid = arr(c).data[0];
        if (i % 3 === 0) expect(tid).toBe(threadId);
        else expect(tid).not.toBe(threadId);
      });
    },
    T,
  );

  test(
    'an empty batch resolves to []',
    async () => {
      expect(await pool.run([])).toEqual([]);
    },
    T,
  );

  test(
    'a 256 MiB chunk goes to a worker and back without a copy',
    async () => {
      const n = 32 * 2 ** 20;
      const x = ndarray(new Float64Array(new SharedArrayBuffer(n * 8)));
      (x.data as NumberArray).fill(1.5);
      const before = process.memoryUsage().rss;
      const [same, view] = await pool.run([
        task('test-identity', null, [x]),
        task('test-view', null, [x]),
      ]);
      const grown = process.memoryUsage().rss - before;
      expect(grown).toBeLessThan(64 * 2 ** 20);
      expect(arr(same).size).toBe(n);
      expect(arr(view).size).toBe(n / 2);
      // Both results share the input's memory: a write shows through.
      x.data[n - 1] = 7;
      expect(arr(same).data[n - 1]).toBe(7);
      expect(arr(view).data[n / 2 - 1]).toBe(7);
    },
    T,
  );

  test(
    'a result on an ordinary ArrayBuffer is moved back intact',
    async () => {
      const x = ndarray([1, 2, 3, 4], [2, 2]);
      const [y] = await pool.run([task('test-plain', null, [x])]);
      expect(arr(y).data.buffer).toBeInstanceOf(ArrayBuffer);
      expect(arr(y).toNested()).toEqual([
        [1, 2],
        [3, 4],
      ]);
    },
    T,
  );
});

describe('ThreadPoolExecutor: user kernels', () => {
  test(
    'an arrow function shipped by source runs on workers',
    async () => {
      const ref = toFnRef((v: number) => v * 2 + 1, 'test');
      const x = ndarray([0, 1, 2, 3]);
      const [y, where] = await pool.run([
        task('map-fn', { fn: ref }, [x]),
        task('test-thread', null, []),
      ]);
      expect(arr(y).toNested()).toEqual([1, 3, 5, 7]);
      expect(arr(where).data[0]).not.toBe(threadId);
    },
    T,
  );

  test(
    "a source with tsx's __name helper compiles on workers",
    async () => {
      const source =
        '(v) => { const f = __name(function twice(a) { return 2 * a; }, "twice"); return f(v) + f.name.length; }';
      const ref = { kind: 'source', source, name: 'withName' } as const;
      const [y] = await pool.run([task('map-fn', { fn: ref }, [ndarray([1, 2])])]);
      expect(arr(y).toNested()).toEqual([7, 9]);
    },
    T,
  );

  test(
    'defineKernels kernels use their imports and module state on a worker',
    async () => {
      const solo = new ThreadPoolExecutor({ workers: 1, registryModule });
      try {
        const x = ndarray([1, 2, 3], [3], 'int32');
        const square = { fn: toFnRef(kernels.squareAll, 'test') };
        const count = { fn: toFnRef(kernels.callCount, 'test') };
        const scale = { fn: toFnRef(kernels.scale, 'test'), kwargs: { factor: 0.5 } };
        const [a, b, c] = await solo.run([
          task('apply-fn', square, [x]),
          task('apply-fn', scale, [x]),
          task('apply-fn', square, [x]),
        ]);
        expect(arr(a).toNested()).toEqual([1, 4, 9]);
        expect(arr(b).toNested()).toEqual([0.5, 1, 1.5]);
        expect(arr(c).toNested()).toEqual([1, 4, 9]);
        const [n] = await solo.run([task('apply-fn', count, [])]);
        expect(arr(n).data[0]).toBe(2);
      } finally {
        await solo.shutdown();
      }
    },
    T,
  );

  test(
    'an inline closure runs on the main thread; on a worker it fails with KernelError',
    async () => {
      const offset = 100;
      const ref = toFnRef((v: number) => v + offset, 'test', { inline: true });
      const x = ndarray([1, 2]);
      const [y] = await pool.run([task('map-fn', { fn: ref }, [x], { mainThread: true })]);
      expect(arr(y).toNested()).toEqual([101, 102]);
      const err = await pool.run([task('map-fn', { fn: ref }, [x])]).catch((e: unknown) => e);
      expect(isTesseraError(err, 'TaskError')).toBe(true);
      expect((err as TaskError).cause).toBeInstanceOf(KernelError);
      expect(String((err as TaskError).cause)).toMatch(/runs only on the main thread/);
    },
    T,
  );
});
