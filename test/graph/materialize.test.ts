import { describe, expect, test } from 'vitest';
import { defineLayer } from '../../src/graph/define-layer.ts';
import { materializeTasks, runnableCount, taskKey } from '../../src/graph/materialize.ts';
import { reduceLayer, sourceLayer, sumLayer } from './dag.ts';

describe('materializeTasks', () => {
  test('a chain over 4 blocks has 4 source blocks and 4 tasks per layer', () => {
    const s = sourceLayer('src', 4);
    const a = sumLayer([s], 4, 1);
    const b = sumLayer([a], 4, 2);
    const table = materializeTasks([b]);
    expect(table.count).toBe(12);
    expect(runnableCount(table)).toBe(8);
    expect(table.outputs[0]!.length).toBe(4);
  });

  test('culls blocks no output needs', () => {
    const s = sourceLayer('src', 10);
    const a = sumLayer([s], 10, 1);
    const pick = defineLayer({
      op: 'pick3',
      deps: [a],
      chunks: [[1]],
      dtype: 'float64',
      task: () => ({ kernel: 'test-sum', inputs: [[0, [3]]], params: { bias: 0 } }),
    });
    const table = materializeTasks([pick]);
    expect(runnableCount(table)).toBe(2);
    expect(table.count).toBe(3);
  });

  test('shared intermediates appear once', () => {
    const s = sourceLayer('src', 3);
    const a = sumLayer([s], 3, 1);
    const table = materializeTasks([reduceLayer(a), sumLayer([a, a], 3, 0)]);
    // 3 source + 3 a + 1 reduce + 3 sum
    expect(table.count).toBe(10);
  });

  test('keys name the layer and the block', () => {
    const s = sourceLayer('src', 2);
    const a = sumLayer([s], 2, 1);
    const table = materializeTasks([a]);
    expect(taskKey(table, table.outputs[0]![1]!)).toBe(`${a.name}:(1)`);
  });

  test('a million tasks materialize into flat arrays', () => {
    const s = sourceLayer('big', 1_000_000);
    const a = sumLayer([s], 1_000_000, 1);
    const table = materializeTasks([a]);
    expect(table.count).toBe(2_000_000);
    expect(table.deps).toBeInstanceOf(Int32Array);
  });
});
