// compute() copies each block of a multi-block output into its result as the block's task
// finishes (OutputSink), so the run drops it: results equal, outputs shared between arrays
// or read by other outputs still right, bounded live chunks, and bad blocks still fail.

import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { OutputSink } from '../../src/array/output-sink.ts';
import { compute, fromArray, ndarray, type RunStats, shutdown } from '../../src/index.ts';
import { expectArray, randomDense } from '../helpers/reference.ts';

afterAll(() => shutdown());

describe('output blocks copied into the result as they finish', () => {
  const dense = randomDense([37, 23], 'float64', 3);
  const x = fromArray(dense, { chunks: [8, 5] });

  test.each(['sync', 'threads'] as const)(
    'on %s: results equal the dense data',
    async (scheduler) => {
      let stats: RunStats | undefined;
      const y = x.mul(2).add(1);
      const [a, b, s] = await compute(y, y, y.sum({ axis: 0 }), {
        scheduler,
        onStats: (r) => {
          stats = r;
        },
      });
      const want = ndarray(
        (dense.data as NumberArray).map((v) => v * 2 + 1),
        [37, 23],
      );
      expectArray(a, want, 0);
      expectArray(b, want, 0);
      expect(a).not.toBe(b);
      const sums = new Float64Array(23);
      for (let i = 0; i < 37; i++)
        for (let j = 0; j < 23; j++) sums[j]! += (want.data as NumberArray)[i * 23 + j]!;
      expectArray(s, ndarray(sums, [23]), 1e-12);
      // y's 25 blocks were read by the sum and copied into both results, the sum's into its own
      expect(stats!.liveChunksAtEnd).toBe(0);
    },
  );

  test('a block whose shape disagrees with its chunks, or a tuple, is a ShapeError', () => {
    const sink = OutputSink.for([[2, 2], [3]], 'float64', 'x')!;
    expect(sink.take(0, ndarray(new Float64Array(6), [2, 3]))).toBe(true);
    expect(sink.take(1, ndarray(new Float64Array(4), [2, 2]))).toBe(false);
    expect(sink.error?.message).toBe(
      'compute: block (1,0) of x has shape [2,2], its chunks say [2,3]',
    );
    const t = OutputSink.for([[1, 1]], 'float64', 'y')!;
    expect(t.take(0, [ndarray([1]), ndarray([2])])).toBe(false);
    expect(t.error?.message).toBe('compute: block (0) of y is a tuple, not an array');
    expect(OutputSink.for([[4], [3]], 'float64', 'one block')).toBeUndefined();
    expect(OutputSink.for([[2, null]], 'float64', 'unknown')).toBeUndefined();
  });
});
