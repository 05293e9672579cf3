// WebGPU reductions against the CPU's reduce-partial / reduce-aggregate: every op over
// random axes of random shapes, the partial layout, and one 16M-element (64 MiB) buffer.

import { describe, expect, it } from 'vitest';
import { allocate, type DType, type NumberArray } from '../../../src/array/dtype.ts';
import { NDArray, shapeSize } from '../../../src/array/ndarray.ts';
import { reduceKernels } from '../../../src/backends/cpu-js/reduce/reduce.ts';
import type { Chunk, KernelContext } from '../../../src/kernels/types.ts';
import { expectClose, hasGpu, rng, useGpu } from './tier.ts';

const rand = rng(11);
const ctx = {} as KernelContext;
type Op = 'sum' | 'prod' | 'mean' | 'min' | 'max';

function cpu(kernel: string, inputs: Chunk[], p: object): Chunk {
  return (reduceKernels[kernel] as (i: Chunk[], p: object, c: KernelContext) => Chunk)(
    inputs,
    p,
    ctx,
  );
}

function randomBlock(dtype: DType, op: Op): NDArray {
  const nd = 1 + Math.floor(rand() * 4);
  const shape = Array.from({ length: nd }, () => 1 + Math.floor(rand() * 9));
  const n = shapeSize(shape);
  const data = allocate(dtype, n);
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (op === 'prod') data[i] = dtype === 'float32' ? 0.5 + r : r < 0.8 ? 1 : 2;
    else if (dtype === 'float32') data[i] = r * 20 - 10;
    else if (dtype === 'int32') data[i] = Math.floor(r * 2001) - 1000;
    else data[i] = Math.floor(r * 256);
  }
  return new NDArray(data, shape, dtype);
}

function randomAxes(nd: number): number[] {
  const axes = Array.from({ length: nd }, (_, i) => i).filter(() => rand() < 0.5);
  return axes.length > 0 ? axes : [Math.floor(rand() * nd)];
}

interface Case {
  name: string;
  x: NDArray;
  op: Op;
  axes: number[];
  keepdims: boolean;
}

const cases: Case[] = [];
for (const op of ['sum', 'prod', 'mean', 'min', 'max'] as Op[]) {
  for (const dtype of ['float32', 'int32', 'uint8'] as DType[]) {
    if (dtype !== 'float32' && op === 'prod') continue;
    for (let k = 0; k < 3; k++) {
      const x = randomBlock(dtype, op);
      const axes = k === 0 ? x.shape.map((_, i) => i) : randomAxes(x.ndim);
      cases.push({
        name: `${op} ${dtype} [${x.shape}] axes [${axes}]`,
        x,
        op,
        axes,
        keepdims: k === 1,
      });
    }
  }
}

// Short spans with many outputs take the one-invocation-per-output shader.
for (const [shape, axes] of [
  [[300, 7], [1]],
  [[7, 300], [0]],
  [
    [20, 3, 30],
    [0, 2],
  ],
] as [number[], number[]][]) {
  for (const op of ['sum', 'max'] as Op[]) {
    const x = new NDArray(
      Float32Array.from({ length: shapeSize(shape) }, () => rand() * 10 - 5),
      shape,
      'float32',
    );
    cases.push({
      name: `${op} float32 [${shape}] axes [${axes}] (short spans)`,
      x,
      op,
      axes,
      keepdims: false,
    });
  }
}

describe.skipIf(!hasGpu)('webgpu reductions', () => {
  const box = useGpu();

  it.each(cases)('$name', async ({ x, op, axes, keepdims }) => {
    const { gpu } = box;
    const outDtype = op === 'min' || op === 'max' ? x.dtype : 'float32';
    const p = { op, axes, dtype: outDtype, keepdims };
    const want = cpu('reduce-aggregate', [cpu('reduce-partial', [x], p)], p) as NDArray;
    const h = await gpu.upload(x);
    const [r] = await gpu.run('reduce-aggregate', [h], p);
    const got = await gpu.download(r!);
    gpu.release(h, r!);
    expect(got.shape).toEqual(want.shape);
    expect(got.dtype).toBe(outDtype);
    expectClose(got.data as NumberArray, want.data as NumberArray, 1e-5, 1e-4);
  });

  const argCases = ['argmin', 'argmax'].flatMap((op) =>
    (['float32', 'int32', 'uint8'] as DType[]).map((dtype) => {
      const x = randomBlock(dtype, 'sum');
      if (dtype === 'float32' && x.size > 3) x.data[2] = Number.NaN;
      const axis = Math.floor(rand() * x.ndim);
      return { name: `${op} ${dtype} [${x.shape}] axis ${axis}`, x, op, axis };
    }),
  );

  it.each(argCases)('$name', async ({ x, op, axis }) => {
    const { gpu } = box;
    const p = { op, axes: [axis], keepdims: false };
    const want = cpu('reduce-aggregate', [cpu('reduce-partial', [x], p)], p) as NDArray;
    const h = await gpu.upload(x);
    const [r] = await gpu.run('reduce-aggregate', [h], p);
    const [pv, pi] = await gpu.run('reduce-partial', [h], p);
    const got = await gpu.download(r!);
    const [wv, wi] = cpu('reduce-partial', [x], p) as NDArray[];
    expectClose((await gpu.download(pv!)).data as NumberArray, wv!.data as NumberArray, 0, 0);
    expectClose((await gpu.download(pi!)).data as NumberArray, wi!.data as NumberArray, 0, 0);
    gpu.release(h, r!, pv!, pi!);
    expect(got.shape).toEqual(want.shape);
    expect(got.dtype).toBe('int32');
    expectClose(got.data as NumberArray, want.data as NumberArray, 0, 0);
  });

  it.each([
    { sqrt: false, correction: 0 },
    { sqrt: true, correction: 1 },
  ])(
    'var/std (sqrt $sqrt, correction $correction) over random axes',
    async ({ sqrt, correction }) => {
      const { gpu } = box;
      for (let k = 0; k < 4; k++) {
        const x = randomBlock('float32', 'sum');
        for (let i = 0; i < x.size; i++)
          (x.data as NumberArray)[i] = (x.data as NumberArray)[i]! + 1000;
        const axes = randomAxes(x.ndim);
        const p = {
          op: 'var' as const,
          axes,
          correction,
          sqrt,
          dtype: 'float64' as DType,
          keepdims: false,
        };
        const want = cpu('reduce-aggregate', [cpu('reduce-partial', [x], p)], p) as NDArray;
        const h = await gpu.upload(x);
        const [r] = await gpu.run('reduce-aggregate', [h], p);
        const got = await gpu.download(r!);
        gpu.release(h, r!);
        expect(got.shape).toEqual(want.shape);
        expectClose(got.data as NumberArray, want.data as NumberArray, 1e-3, 1e-3);
      }
    },
  );

  it('reduce-partial gives the values of the CPU partial in keepdims shape', async () => {
    const { gpu } = box;
    const x = randomBlock('float32', 'sum');
    const p = { op: 'mean' as const, axes: [0], dtype: 'float32' as DType };
    const [values] = cpu('reduce-partial', [x], p) as NDArray[];
    const h = await gpu.upload(x);
    const [r] = await gpu.run('reduce-partial', [h], p);
    const got = await gpu.download(r!);
    gpu.release(h, r!);
    expect(got.shape).toEqual(values!.shape);
    expectClose(got.data as NumberArray, values!.data as NumberArray, 1e-5, 1e-4);
  });

  it('sums a 16M-element float32 buffer (64 MiB) and maps it elementwise', async () => {
    const { gpu } = box;
    const n = 16 * 1024 * 1024;
    const data = allocate('float32', n) as Float32Array;
    let want = 0;
    for (let i = 0; i < n; i++) {
      const v = Math.fround(((i * 7919) % 1000) / 1000 - 0.4);
      data[i] = v;
      want += 2 * v + 1;
    }
    const h = await gpu.upload(new NDArray(data, [n], 'float32'));
    expect(h.bytes).toBe(64 * 1024 * 1024);
    const f = 'float32' as const;
    const expr = {
      op: 'add',
      args: [{ op: 'multiply', args: [{ in: 0 }, { const: 2 }], dtype: f }, { const: 1 }],
      dtype: f,
    };
    const [y] = await gpu.run('ew', [h], { expr, dtype: f });
    const [s] = await gpu.run('reduce-aggregate', [y!], { op: 'sum', axes: [0] });
    const total = (await gpu.download(s!)).data[0] as number;
    expect(Math.abs(total - want) / Math.abs(want)).toBeLessThan(1e-4);
    const back = await gpu.download(y!);
    for (const i of [0, 1, 12345, n - 1]) expect(back.data[i]).toBe(Math.fround(2 * data[i]! + 1));
    gpu.release(h, y!, s!);
  }, 120_000);
});
