// Acceptance (issue 2): graph shape — fused chains give one task per input block before
// the reduction tree, slicing culls to the blocks it needs, and names are deterministic.

import { describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks, runnableCount, type TaskTable } from '../../src/graph/materialize.ts';
import type { LazyArray, NDArray } from '../../src/index.ts';
import * as t from '../../src/index.ts';
import { randomDense } from '../helpers/reference.ts';

const tableOf = (...xs: LazyArray[]): TaskTable =>
  materializeTasks(fuseLayers(xs.map((x) => x.layer)));

/** Runnable tasks per layer op of a (fused) table. */
function tasksByOp(table: TaskTable): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < table.count; i++) {
    if (table.isConstant[i]) continue;
    const op = table.layers[table.layerOf[i]!]!.op;
    out.set(op, (out.get(op) ?? 0) + 1);
  }
  return out;
}

describe('blockwise fusion: one task per input block before the reduction tree', () => {
  const sources: [string, () => LazyArray][] = [
    ['ones', () => t.ones([100, 100], { chunks: 10 })],
    ['fromArray', () => t.fromArray(randomDense([100, 100]), { chunks: 10 })],
    ['random.uniform', () => t.random.uniform([100, 100], { seed: 1, chunks: 10 })],
  ];

  test.each(sources)('%s: x.mul(2).add(1).sum()', (_, make) => {
    const x = make();
    const chained = tableOf(x.mul(2).add(1).sum());
    const plain = tableOf(x.sum());
    // the elementwise chain adds no task at all: it runs inside the per-block partials
    expect(runnableCount(chained)).toBe(runnableCount(plain));
    const byOp = tasksByOp(chained);
    const perBlock = [...byOp].filter(([op]) => op.includes('sum-partial'));
    expect(perBlock).toHaveLength(1);
    expect(perBlock[0]![0]).toMatch(/multiply\+add\+sum-partial$/);
    expect(perBlock[0]![1]).toBe(100);
    // the rest is the reduction tree: far fewer tasks than blocks
    expect(runnableCount(chained) - 100).toBeLessThanOrEqual(100 / 3 + 1);
    // without fusion the chain costs two more tasks per block
    const unfused = materializeTasks([x.mul(2).add(1).sum().layer]);
    expect(runnableCount(unfused) - runnableCount(materializeTasks([x.sum().layer]))).toBe(200);
  });

  test('a long elementwise chain is one task per block', () => {
    const x = t.ones([40, 40], { chunks: 10 });
    let y = x;
    for (let i = 0; i < 12; i++) y = y.mul(1.5).add(i).sqrt();
    expect(runnableCount(tableOf(y))).toBe(16);
  });

  test('values are the same fused or not', async () => {
    const x = t.fromArray(randomDense([30, 20], 'float64', 7), { chunks: [7, 6] });
    const y = x.mul(2).add(1).sum();
    const a = await t.compute(y, { scheduler: 'sync' });
    const b = await t.compute(y, { scheduler: 'sync', optimize: false });
    expect(a.data[0]).toBe(b.data[0]);
  });
});

describe('culling: only the blocks an output needs', () => {
  test('a slice of a chain touches only the blocks it overlaps', () => {
    const x = t.ones([100, 100], { chunks: 10 });
    const y = x.mul(2).add(1);
    expect(runnableCount(tableOf(y.get('0:10, 0:10')))).toBeLessThanOrEqual(2);
    const two = tasksByOp(tableOf(y.get('5:15, 95:')));
    const ew = [...two].filter(([op]) => op.includes('add'));
    expect(ew.reduce((n, [, c]) => n + c, 0)).toBe(2);
  });

  test('a reduction of one row reads one row of blocks', () => {
    const x = t.random.normal([100, 100], { seed: 2, chunks: 10 });
    const byOp = tasksByOp(tableOf(x.exp().get('42').sum()));
    const exp = [...byOp].filter(([op]) => op.includes('exp'));
    expect(exp.reduce((n, [, c]) => n + c, 0)).toBe(10);
  });
});

describe('deterministic names', () => {
  const x = (): LazyArray => t.fromArray(randomDense([6, 8], 'float64', 5), { chunks: [3, 4] });
  const m = (): LazyArray => x().greater(0);
  // [label, build(param), param, other param]
  const cases: [string, (p: never) => LazyArray, unknown, unknown][] = [
    ['ones shape', (s: number[]) => t.ones(s, { chunks: 2 }), [4, 4], [4, 5]],
    ['ones chunks', (c: number) => t.ones([8], { chunks: c }), 2, 4],
    ['ones dtype', (d: t.DType) => t.ones([8], { dtype: d }), 'float32', 'int8'],
    ['full value', (v: number) => t.full([8], v), 1, 2],
    ['arange', (n: number) => t.arange(n, { chunks: 3 }), 10, 11],
    ['linspace', (n: number) => t.linspace(0, 1, n), 5, 6],
    ['random seed', (s: number) => t.random.uniform([8], { seed: s }), 1, 2],
    ['random normal seed', (s: number) => t.random.normal([8], { seed: s, chunks: 3 }), 3, 4],
    ['fromArray data', (v: number) => t.fromArray([1, 2, v]), 3, 4],
    ['add scalar', (v: number) => x().add(v), 1, 2],
    ['add array', (s: number) => x().add(t.full([8], s)), 1, 2],
    ['astype', (d: t.DType) => x().astype(d), 'float32', 'int16'],
    ['clip', (v: number) => x().clip(-v, v), 1, 2],
    ['where', (v: number) => t.where(m(), x(), v), 0, 1],
    ['sum axis', (a: number) => x().sum({ axis: a }), 0, 1],
    ['sum keepdims', (k: boolean) => x().sum({ keepdims: k }), true, false],
    ['sum splitEvery', (s: number) => x().sum({ splitEvery: s }), 2, 3],
    ['std correction', (c: number) => x().std({ correction: c }), 0, 1],
    ['argmax axis', (a: number) => x().argmax({ axis: a }), 0, 1],
    ['cumsum axis', (a: number) => x().cumsum({ axis: a }), 0, 1],
    ['reshape', (s: number[]) => x().reshape(s), [8, 6], [4, 12]],
    [
      'permuteDims',
      (a: number[]) => x().expandDims({ axis: 0 }).permuteDims(a),
      [1, 0, 2],
      [2, 1, 0],
    ],
    ['moveaxis', (a: number) => x().expandDims({ axis: 0 }).moveaxis(0, a), 1, 2],
    ['flip', (a: number) => x().flip({ axis: a }), 0, 1],
    ['broadcastTo', (n: number) => x().broadcastTo([n, 6, 8]), 2, 3],
    ['concat axis', (a: number) => t.concat([x(), x()], { axis: a }), 0, 1],
    ['stack axis', (a: number) => t.stack([x(), x()], { axis: a }), 0, 1],
    ['take', (i: number[]) => x().take(i, { axis: 1 }), [0, 1], [1, 0]],
    ['tensordot', (n: number) => t.tensordot(x(), x(), { axes: n }), 0, 2],
    ['einsum', (s: string) => t.einsum(s, x()), 'ij->i', 'ij->j'],
    ['get', (s: string) => x().get(s), '1:5, ::-1', '1:5, ::2'],
    ['set', (v: number) => x().set('0', v), 1, 2],
    ['mask', (v: number) => x().mask(x().greater(v)), 0, 1],
    ['rechunk', (c: number) => x().rechunk(c), 2, 3],
    [
      'mapBlocks fn',
      (k: number) =>
        t.mapBlocks(
          k === 1 ? (b: NDArray) => b : (b: NDArray) => (b.data as NumberArray).map((v) => -v),
          x(),
          {
            dtype: 'float64',
          },
        ),
      1,
      2,
    ],
  ];

  test.each(cases)(
    '%s: same expression, same name; different parameter, different name',
    (_, build, p, q) => {
      const f = build as (v: unknown) => LazyArray;
      const a = f(p);
      expect(f(p).name).toBe(a.name);
      expect(f(q).name).not.toBe(a.name);
    },
  );

  test('names of a whole pipeline repeat; task keys repeat', () => {
    const build = () =>
      t.random
        .uniform([50, 40], { seed: 9, chunks: [20, 15] })
        .mul(2)
        .add(1)
        .rechunk([25, 20])
        .get('::-1, 3:')
        .mean({ axis: 0 });
    const a = tableOf(build());
    const b = tableOf(build());
    expect(a.layers.map((l) => l.name)).toEqual(b.layers.map((l) => l.name));
    expect(Array.from(a.blockOf)).toEqual(Array.from(b.blockOf));
  });
});
