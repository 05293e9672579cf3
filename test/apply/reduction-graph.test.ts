// Graph-shape tests of reduction trees: task counts per layer (partial, combine levels,
// aggregate), fusion of elementwise chains into the partials, and the fan-in of every task.

import { describe, expect, test } from 'vitest';
import { add, multiply } from '../../src/apply/elementwise-arith.ts';
import { argmax, mean, std, sum } from '../../src/apply/reductions.ts';
import { compute } from '../../src/array/compute.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks, runnableCount, type TaskTable } from '../../src/graph/materialize.ts';
import { randomDense } from '../helpers/reference.ts';

/** Tasks per layer label, e.g. { 'sum-partial': 16, 'sum-combine': 4, … } (sources excluded). */
function countsByOp(table: TaskTable): Record<string, number> {
  const out: Record<string, number> = {};
  for (let t = 0; t < table.count; t++) {
    if (table.isConstant[t]) continue;
    const op = table.layers[table.layerOf[t]!]!.op;
    out[op] = (out[op] ?? 0) + 1;
  }
  return out;
}

/** Fan-in of every task of layers labelled `op`. */
function fanIns(table: TaskTable, op: string): number[] {
  const out: number[] = [];
  for (let t = 0; t < table.count; t++) {
    if (table.layers[table.layerOf[t]!]!.op === op) out.push(table.depCount[t]!);
  }
  return out.sort((a, b) => a - b);
}

const blocks = (shape: number[], chunks: number | number[]): LazyArray =>
  fromArray(randomDense(shape), { chunks });

describe('reduction trees', () => {
  test.each([
    // 1-d, 16 blocks, split 4: 16 partials, one combine level of 4, one aggregate.
    [[16], 1, {}, { partial: 16, combine: 4, aggregate: 1 }],
    [[16], 1, { splitEvery: 2 }, { partial: 16, combine: 8 + 4 + 2, aggregate: 1 }],
    [[16], 1, { splitEvery: 16 }, { partial: 16, combine: 0, aggregate: 1 }],
    [[17], 1, {}, { partial: 17, combine: 5 + 2, aggregate: 1 }],
    [[5], 5, {}, { partial: 1, combine: 0, aggregate: 1 }],
    // 8 x 8 blocks over both axes, split 2 per axis: 8x8 -> 4x4 -> 2x2 -> aggregate.
    [[8, 8], 1, { splitEvery: 2 }, { partial: 64, combine: 16 + 4, aggregate: 1 }],
    // along axis 0 of an 8 x 3 grid: combine per column, one aggregate per column.
    [[8, 3], 1, { axis: 0 }, { partial: 24, combine: 2 * 3, aggregate: 3 }],
    // per-axis fan-in: every level merges along both axes: 8x8 -> 4x1 -> 2x1 -> aggregate.
    [[8, 8], 1, { splitEvery: { 0: 2, 1: 8 } }, { partial: 64, combine: 4 + 2, aggregate: 1 }],
    [[9, 6], 3, { axis: 1, keepdims: true }, { partial: 6, combine: 0, aggregate: 3 }],
  ] as const)('sum of %j in chunks of %j with %j', (shape, chunks, opts, want) => {
    const y = sum(blocks([...shape], chunks), opts);
    const c = countsByOp(materializeTasks([y.layer]));
    expect(c['sum-partial']).toBe(want.partial);
    expect(c['sum-combine'] ?? 0).toBe(want.combine);
    expect(c['sum-aggregate']).toBe(want.aggregate);
  });

  test('every combine task merges at most splitEvery blocks per reduced axis', () => {
    const table = materializeTasks([sum(blocks([10, 7], 1), { splitEvery: 3 }).layer]);
    // level 1: 10x7 -> 4x3 groups of (3|1) x (3|1); level 2: 4x3 -> 2x1; aggregate 2x1.
    expect(countsByOp(table)['sum-combine']).toBe(12 + 2);
    const fan = fanIns(table, 'sum-combine');
    expect(Math.max(...fan)).toBe(9);
    expect(fan.reduce((a, b) => a + b, 0)).toBe(70 + 12);
    expect(fanIns(table, 'sum-aggregate')).toEqual([2]);
  });

  test('mean, std and argmax build the same tree shape', () => {
    for (const [f, op] of [
      [mean, 'mean'],
      [std, 'std'],
      [argmax, 'argmax'],
    ] as const) {
      const c = countsByOp(materializeTasks([f(blocks([16], 1)).layer]));
      expect([c[`${op}-partial`], c[`${op}-combine`], c[`${op}-aggregate`]]).toEqual([16, 4, 1]);
    }
  });

  test('an elementwise chain fuses into the partials: one task per input block', async () => {
    const dense = randomDense([16, 4]);
    const x = fromArray(dense, { chunks: [1, 4] });
    const y = sum(add(multiply(x, 2), 1));
    const unfused = materializeTasks([y.layer]);
    const fused = materializeTasks(fuseLayers([y.layer]));
    // from-array getter + multiply + add + partial = 4 layers of 16 tasks before fusion.
    expect(runnableCount(unfused)).toBe(16 * 4 + 4 + 1);
    expect(runnableCount(fused)).toBe(16 + 4 + 1);
    let expected = 0;
    for (const v of dense.data as NumberArray) expected += v * 2 + 1;
    expect((await compute(y)).data[0]).toBeCloseTo(expected, 9);
  });
});
