// Fusion around views: fromArray blocks read in place by elementwise and reducing tasks,
// rechunks and transposes of fromArray data inlined as slices and views; task kernels and
// counts pinned, values bit-identical to the unoptimized graph.

import { describe, expect, test } from 'vitest';
import { compute } from '../../src/array/compute.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { type FusedStep, foldViews, ViewFolder } from '../../src/graph/fuse-views.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import '../../src/index.ts';
import { randomDense } from '../helpers/reference.ts';

// randomDense floats sum exactly in any order, so fused and unfused graphs compare bit for
// bit here even where a fused sum adds in an order of its own (see backends/cpu-js/elementwise/ew-rows.ts)

/** Kernel name → number of tasks, after fusion. */
function kernels(y: LazyArray): Record<string, number> {
  const t = materializeTasks(fuseLayers([y.layer]));
  const out: Record<string, number> = {};
  for (let i = 0; i < t.count; i++) {
    if (t.isConstant[i]) continue;
    const layer = t.layers[t.layerOf[i]!]!;
    const grid = layer.chunks.map((c) => c.length);
    const block = grid.map(() => 0);
    let flat = t.blockOf[i]!;
    for (let ax = grid.length - 1; ax >= 0; ax--) {
      block[ax] = flat % grid[ax]!;
      flat = Math.floor(flat / grid[ax]!);
    }
    const k = layer.task(block).kernel;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

function expectBits(a: NDArray, b: NDArray): void {
  expect(a.shape).toEqual(b.shape);
  expect(a.dtype).toBe(b.dtype);
  for (let i = 0; i < a.size; i++) expect(Object.is(a.data[i], b.data[i])).toBe(true);
}

const data = randomDense([60, 50], 'float64', 5);
const x = () => fromArray(data, { chunks: [20, 25] });

describe('fused views', () => {
  test.each<[string, () => LazyArray, Record<string, number>]>([
    ['(x*2+1).sum()', () => x().mul(2).add(1).sum(), { 'ew-reduce': 6, 'reduce-aggregate': 1 }],
    ['x.sum()', () => x().sum(), { 'ew-reduce': 6, 'reduce-aggregate': 1 }],
    [
      '(x + x.T).mean(0) on a square grid',
      () => {
        const s = fromArray(randomDense([40, 40], 'float64', 6), { chunks: 10 });
        return s.add(s.T).mean({ axis: 0 });
      },
      { 'ew-reduce': 16, 'reduce-aggregate': 4 },
    ],
    ['x*2+1', () => x().mul(2).add(1), { 'ew-view': 6 }],
    ['x.T alone', () => x().T, { view: 6 }],
    ['rechunk(x)', () => x().rechunk([30, 10]), { slice: 10 }],
    ['rechunk(x) * 2', () => x().rechunk([60, 10]).mul(2), { 'ew-view': 5 }],
    ['x.max(1)', () => x().max({ axis: 1 }), { 'ew-reduce': 6, 'reduce-aggregate': 3 }],
    // not fused: variance, arg reductions and a dtype-cast sum keep their own kernels
    ['x.std()', () => x().std(), { fused: 6, 'reduce-aggregate': 1 }],
    ['x.argmax()', () => x().argmax(), { fused: 6, 'reduce-aggregate': 1 }],
    ['x.sum(float32)', () => x().sum({ dtype: 'float32' }), { fused: 6, 'reduce-aggregate': 1 }],
  ])('%s: kernels after fusion, values as unoptimized', async (_, build, expected) => {
    expect(kernels(build())).toEqual(expected);
    const fused = await compute(build(), { scheduler: 'sync' });
    const plain = await compute(build(), { scheduler: 'sync', optimize: false });
    expectBits(fused, plain);
  });

  test('a slice read twice stays a step; one read by a non-elementwise step stays too', () => {
    const steps = foldViews([
      { kernel: 'slice', params: { start: [0], step: [1], count: [2] }, inputs: [0] },
      { kernel: 'ew', params: { expr: { in: 0 }, dtype: 'float64' }, inputs: [-1] },
      { kernel: 'transpose', params: { axes: [0] }, inputs: [-1] },
    ]);
    expect(steps.map((s) => s.kernel)).toEqual(['slice', 'ew', 'transpose']);
  });

  test('per-block params are replayed through one plan', () => {
    const step = (start: number) => [
      { kernel: 'slice', params: { start: [start], step: [1], count: [2] }, inputs: [0] },
      {
        kernel: 'reduce-partial',
        params: { op: 'sum', axes: [0], dtype: 'float64' },
        inputs: [-1],
      },
    ];
    const folder = new ViewFolder();
    const start = (s: FusedStep[]) =>
      (s[0]!.params as { views: { start: number[] }[] }).views[0]!.start;
    const first = folder.fold(step(0));
    expect(first.map((s) => s.kernel)).toEqual(['ew-reduce']);
    expect(start(first)).toEqual([0]);
    expect(start(folder.fold(step(4)))).toEqual([4]);
    expect(start(first)).toEqual([0]);
  });
});
