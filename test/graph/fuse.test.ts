import { describe, expect, test } from 'vitest';
import type { NDArray } from '../../src/array/ndarray.ts';
import { builtinKernels } from '../../src/backends/cpu-js/registry.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { orderTasks } from '../../src/graph/order.ts';
import { createFnResolver } from '../../src/kernels/resolve.ts';
import { InlineExecutor } from '../../src/workers/inline.ts';
import { runTasks } from '../../src/workers/scheduler.ts';
import { reduceLayer, sourceLayer, sumLayer, testRegistry } from './dag.ts';

const registry = testRegistry();
registry.set('fused', builtinKernels.get('fused')!);
const sync = new InlineExecutor(createFnResolver(), registry);

async function values(layer: ReturnType<typeof sumLayer>) {
  const table = materializeTasks([layer]);
  const { outputs } = await runTasks(table, sync, { priority: orderTasks(table) });
  return outputs[0]!.map((c) => (c as NDArray).data[0]);
}

describe('fuseLayers', () => {
  test('a chain of blockwise layers becomes one task per block', async () => {
    const s = sourceLayer('src', 5);
    const chain = sumLayer([sumLayer([sumLayer([s], 5, 1)], 5, 2)], 5, 3);
    const [fused] = fuseLayers([chain]);
    expect(fused!.name).toBe(chain.name);
    expect(runnableCount(materializeTasks([chain]))).toBe(15);
    expect(runnableCount(materializeTasks([fused!]))).toBe(5);
    expect(await values(fused!)).toEqual(await values(chain));
  });

  test('a layer with two consumers is not fused (it runs once)', () => {
    const s = sourceLayer('src', 4);
    const shared = sumLayer([s], 4, 1);
    const out = sumLayer([sumLayer([shared], 4, 2), sumLayer([shared], 4, 3)], 4, 0);
    const [fused] = fuseLayers([out]);
    // shared (4) + the fused group of out and its two direct inputs (4)
    expect(runnableCount(materializeTasks([fused!]))).toBe(8);
  });

  test('fusion stops at a non-blockwise consumer and keeps requested outputs', () => {
    const s = sourceLayer('src', 4);
    const a = sumLayer([s], 4, 1);
    const b = sumLayer([a], 4, 2);
    const r = reduceLayer(b);
    const [fr] = fuseLayers([r]);
    expect(runnableCount(materializeTasks([fr!]))).toBe(5);
    const [fr2, fa] = fuseLayers([r, a]);
    expect(fa!.name).toBe(a.name);
    expect(runnableCount(materializeTasks([fr2!, fa!]))).toBe(9);
  });
});
