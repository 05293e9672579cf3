// { isolate: true }: a user function's tasks run in a pool process whatever the scheduler, so
// a native crash in it rejects the compute with WorkerCrashedError and the program (and the
// pool) carry on; everything else stays on threads.

import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import { isTesseraError, type WorkerCrashedError } from '../../src/errors.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { compute, fromArray, lazyApply, mapBlocks } from '../../src/index.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { rejection } from '../helpers/rejection.ts';

afterAll(() => shutdownDefaultPool());
const T = 30_000;

const data = Float64Array.from({ length: 60 }, (_, i) => i);
const x = () => fromArray(data, { shape: [6, 10], chunks: [2, 5] });

// Adds 1000 where it runs in a pool process, 0 anywhere else: the result says where it ran.
const whereRan = (b: NDArray) =>
  (b.data as NumberArray).map((v) => v + (process.env.TESSERA_PROCESS_MEMBER === '1' ? 1000 : 0));

describe.each(['threads', 'sync'] as const)('isolate on %s', (scheduler) => {
  const opts = { scheduler, workers: 2 } as const;

  test(
    'mapBlocks and lazyApply functions run in a pool process; the rest does not',
    async () => {
      const y = mapBlocks(whereRan, x().mul(2), { dtype: 'float64', isolate: true }).add(1);
      const got = await compute(y, opts);
      expect(Array.from(got.data as NumberArray)).toEqual(
        Array.from(data, (v) => v * 2 + 1000 + 1),
      );
      const z = lazyApply(whereRan, x(), { axis: 1, isolate: true });
      expect(Array.from((await compute(z, opts)).data as NumberArray)).toEqual(
        Array.from(data, (v) => v + 1000),
      );
      const plain = await compute(mapBlocks(whereRan, x(), { dtype: 'float64' }), opts);
      expect(Array.from(plain.data as NumberArray)).toEqual(Array.from(data));
    },
    T,
  );

  test(
    'a native crash in an isolated function fails the compute, not the program',
    async () => {
      const crashing = mapBlocks(
        function crashOnBlock3(b: NDArray) {
          // only ever crash a pool process, never the test runner
          if (b.data[0] === 25 && process.env.TESSERA_PROCESS_MEMBER === '1') {
            process.kill(process.pid, 'SIGSEGV');
          }
          return b.data;
        },
        x(),
        { dtype: 'float64', isolate: true },
      );
      const err = (await rejection(compute(crashing.sum(), opts))) as WorkerCrashedError;
      expect(isTesseraError(err, 'WorkerCrashedError')).toBe(true);
      expect(err.key).toMatch(/^crashOnBlock3-.*:\(1, ?1\)$/);
      expect(err.message).toMatch(/killed by SIGSEGV/);
      const again = await compute(
        mapBlocks(whereRan, x(), { dtype: 'float64', isolate: true }),
        opts,
      );
      expect(again.data[0]).toBe(1000);
    },
    T,
  );
});

describe('isolate: graph and options', () => {
  test('an isolated function is a task of its own, never fused', () => {
    const y = mapBlocks(whereRan, x().mul(2), { dtype: 'float64', isolate: true }).add(1);
    const table = materializeTasks(fuseLayers([y.layer]));
    const ops = table.layers.map((l) => l.op);
    expect(ops.some((op) => op === 'whereRan')).toBe(true);
  });

  test.each([
    [{ isolate: true, inline: true }, /isolate and inline exclude each other/],
    [{ isolate: 'yes' }, /isolate "yes" is not a boolean/],
  ])('bad options fail when the array is made: %o', (bad, message) => {
    expectThrow(
      () => mapBlocks(whereRan, x(), { dtype: 'float64', ...(bad as object) }),
      'ValueError',
      message,
    );
    expectThrow(() => lazyApply(whereRan, x(), bad as object), 'ValueError', message);
  });
});
