// GPU results against the CPU within float32 tolerance: elementwise chains, reductions (with
// combine levels), matmul across misaligned chunks, slicing, creation under withDevice, and
// random shapes and chunkings; GPU layers carry the webgpu backend and fuse into one task per
// block. Needs a WebGPU adapter.

import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import {
  abs,
  arange,
  compute,
  disableGuards,
  exp,
  fromArray,
  fromFunction,
  full,
  greater,
  type LazyArray,
  linspace,
  matmul,
  maximum,
  ndarray,
  ones,
  random,
  shutdown,
  sqrt,
  TransferGuardError,
  tanh,
  toDevice,
  where,
  withDevice,
  zeros,
} from '../../src/index.ts';
import { arbShapeAndChunks, rng } from '../helpers/reference.ts';
import { announceTier, expectClose, hasGpu } from './tier.ts';

announceTier('values-gpu');
afterAll(async () => {
  await shutdown();
}, 60_000);

const f32 = (shape: number[], seed: number, scale = 4): Float32Array => {
  const r = rng(seed);
  return Float32Array.from(
    { length: shape.reduce((a, b) => a * b, 1) },
    () => (r() * 2 - 1) * scale,
  );
};
const wrap = (d: Float32Array, shape: number[], chunks: unknown): LazyArray =>
  fromArray(ndarray(d, shape, 'float32'), { chunks: chunks as never });

/** `build` on the GPU and on the CPU: same shape and dtype, values within float32 tolerance. */
async function agree(
  what: string,
  x: LazyArray,
  build: (a: LazyArray) => LazyArray,
  rtol = 1e-5,
  atol = 1e-5,
): Promise<LazyArray> {
  const onGpu = build(toDevice(x, 'gpu'));
  const onCpu = build(x);
  expect(onGpu.device, what).toBe('gpu');
  expect(onGpu.layer.backend?.name, `${what} backend`).toBe('webgpu');
  const [g, c] = [await compute(onGpu, { allowTransfer: true }), await compute(onCpu)];
  expect(g.shape, what).toEqual(c.shape);
  expect(g.dtype, what).toBe(c.dtype);
  expectClose(g.data, c.data, rtol, atol, what);
  return onGpu;
}

const tasks = (y: LazyArray): number => runnableCount(materializeTasks(fuseLayers([y.layer])));

describe.runIf(hasGpu)('elementwise', () => {
  const x = wrap(f32([9, 10], 1), [9, 10], [4, 3]);
  const y = wrap(f32([9, 10], 2), [9, 10], [4, 3]);

  test.each<[string, (a: LazyArray) => LazyArray]>([
    ['x*2+1', (a) => a.mul(2).add(1)],
    ['sqrt(abs(x))', (a) => sqrt(abs(a))],
    ['exp(x/4) - tanh(x)', (a) => exp(a.div(4)).sub(tanh(a))],
    ['where(x > 0, x, -3x)', (a) => where(greater(a, 0), a, a.mul(-3))],
    ['maximum(x, 0.5) * x', (a) => maximum(a, 0.5).mul(a)],
    ['(x+1)^2 / (1+|x|)', (a) => a.add(1).mul(a.add(1)).div(abs(a).add(1))],
  ])('%s', async (what, f) => {
    await agree(what, x, f, 1e-5, 1e-5);
  });

  test('two GPU inputs', async () => {
    const gy = toDevice(y, 'gpu');
    const got = await compute(toDevice(x, 'gpu').mul(gy).add(gy), { allowTransfer: true });
    expectClose(got.data, (await compute(x.mul(y).add(y))).data);
  });

  test('a fused GPU chain is one webgpu task per block (the upload included)', () => {
    const g = toDevice(x, 'gpu');
    const chain = sqrt(abs(g.mul(2).add(1))).sub(0.5);
    const blocks = x.numBlocks.reduce((a, b) => a * b, 1);
    expect(blocks).toBe(12);
    // the upload fuses into the chain: no task is added per block
    expect(tasks(chain)).toBe(tasks(g));
    const [fused] = fuseLayers([chain.layer]);
    expect(fused!.backend?.name).toBe('webgpu');
    expect(fused!.device).toBe('gpu');
    const spec = fused!.task([0, 0]);
    const steps = (spec.params as { steps: { kernel: string }[] }).steps.map((st) => st.kernel);
    expect(steps).toEqual(['to-device', 'ew']); // one shader for the whole chain
  });
});

describe.runIf(hasGpu)('reductions', () => {
  // 16 blocks along axis 0 (and 3 along axis 1): the reduction tree has combine levels
  const shape = [64, 12];
  const x = wrap(f32(shape, 3, 1), shape, [4, 5]);
  const positive = wrap(
    Float32Array.from(f32(shape, 4, 0.05), (v) => 1 + v),
    shape,
    [4, 5],
  );

  test('16 blocks along the reduced axis', () => {
    expect(x.numBlocks).toEqual([16, 3]);
  });

  for (const op of ['sum', 'mean', 'min', 'max', 'prod'] as const) {
    const src = op === 'prod' ? positive : x;
    test(`${op} over all axes`, async () => {
      const y = await agree(op, src, (a) => a[op](), 1e-4, 1e-5);
      expect(y.shape).toEqual([]);
    });
    test(`${op} over axis 0 (16 blocks)`, async () => {
      const y = await agree(`${op} axis 0`, src, (a) => a[op]({ axis: 0 }), 1e-4, 1e-5);
      expect(y.shape).toEqual([12]);
    });
    test(`${op} over axis 1`, async () => {
      await agree(`${op} axis 1`, src, (a) => a[op]({ axis: 1 }), 1e-4, 1e-5);
    });
  }

  test('a reduction of a fused chain', async () => {
    await agree('sum(x*x + 1, axis 0)', x, (a) => a.mul(a).add(1).sum({ axis: 0 }), 1e-4, 1e-4);
  });
});

describe.runIf(hasGpu)('matmul', () => {
  const a = f32([12, 10], 5, 1);
  const b = f32([10, 6], 6, 1);

  test('aligned contraction chunks', async () => {
    const g = await compute(
      matmul(toDevice(wrap(a, [12, 10], [4, 5]), 'gpu'), toDevice(wrap(b, [10, 6], [5, 3]), 'gpu')),
      {
        allowTransfer: true,
      },
    );
    const c = await compute(matmul(wrap(a, [12, 10], [4, 5]), wrap(b, [10, 6], [5, 3])));
    expectClose(g.data, c.data, 1e-4, 1e-5);
  });

  test.each<[string, unknown, unknown]>([
    ['[4,5] @ [[3,7],3]', [4, 5], [[3, 7], 3]],
    ['[4,4] @ [3,3]', [4, 4], [3, 3]],
    [
      '[[5,7],[2,8]] @ [[6,4],[1,5]]',
      [
        [5, 7],
        [2, 8],
      ],
      [
        [6, 4],
        [1, 5],
      ],
    ],
  ])('misaligned contraction chunks (a rechunk on the GPU): %s', async (_what, ca, cb) => {
    const mk = (dev: boolean) => {
      const A = wrap(a, [12, 10], ca);
      const B = wrap(b, [10, 6], cb);
      return dev ? matmul(toDevice(A, 'gpu'), toDevice(B, 'gpu')) : matmul(A, B);
    };
    const onGpu = mk(true);
    expect(onGpu.device).toBe('gpu');
    expect(onGpu.layer.backend?.name).toBe('webgpu');
    const g = await compute(onGpu, { allowTransfer: true });
    expectClose(g.data, (await compute(mk(false))).data, 1e-4, 1e-5);
  });
});

describe.runIf(hasGpu)('slicing', () => {
  const x = wrap(f32([9, 10], 7), [9, 10], [4, 3]);

  test("x.get('1:5, ::2') runs the GPU slice kernel", async () => {
    const y = await agree('get', x, (a) => a.get('1:5, ::2'));
    expect(y.shape).toEqual([4, 5]);
    const kernels = fuseLayers([y.layer])
      .flatMap((l) => [l, ...l.deps])
      .map((l) => l.task(l.chunks.map(() => 0)).kernel);
    expect(kernels).toContain('slice');
  });

  test.each(['2:8, 1:9:3', '::-1', '-3:, ::-4', '::2, ::-2'])('get(%s) on the GPU', async (idx) => {
    await agree(idx, x, (a) => a.get(idx));
  });

  // integer indices drop axes ('getitem' kernel): where the GPU lacks it, the host runs it
  // behind the guard; either way the values match inside disableGuards
  test.each(['4', '::-1, 3', '1:5, 3', 'None, 2:4'])(
    'get(%s) inside disableGuards',
    async (idx) => {
      const g = toDevice(x, 'gpu');
      const y = disableGuards(() => g.get(idx));
      if (y.device === 'cpu') expect(() => g.get(idx)).toThrow(TransferGuardError);
      const got = await disableGuards(() => compute(y));
      const want = await compute(x.get(idx));
      expect(got.shape).toEqual(want.shape);
      expectClose(got.data, want.data);
    },
  );

  test('a slice of a chain, then arithmetic', async () => {
    await agree('chain', x, (a) => a.mul(2).get('1:7, ::3').add(1));
  });
});

describe.runIf(hasGpu)('withDevice creation', () => {
  const makers: [string, () => LazyArray][] = [
    ['zeros', () => zeros([5, 4], { chunks: 2, dtype: 'float32' })],
    ['ones', () => ones([5, 4], { chunks: 2, dtype: 'float32' })],
    ['full', () => full([5, 4], 2.5, { chunks: 2, dtype: 'float32' })],
    ['arange', () => arange(10, { chunks: 3, dtype: 'float32' })],
    ['linspace', () => linspace(0, 1, 11, { chunks: 3, dtype: 'float32' })],
    ['random.uniform', () => random.uniform([5, 4], { chunks: 2, dtype: 'float32', seed: 3 })],
    ['random.normal', () => random.normal([5, 4], { chunks: 2, dtype: 'float32', seed: 4 })],
    [
      'fromArray',
      () =>
        fromArray(ndarray(new Float32Array([1, 2, 3, 4, 5, 6]), [2, 3], 'float32'), { chunks: 2 }),
    ],
    [
      'fromFunction',
      () =>
        fromFunction((i: number, j: number) => i * 10 + j, {
          shape: [3, 4],
          chunks: 2,
          dtype: 'float32',
        }),
    ],
  ];

  test.each(makers)(
    '%s inside withDevice(gpu) is on the GPU with the CPU values',
    async (_n, make) => {
      const g = withDevice('gpu', make);
      expect(g.device).toBe('gpu');
      expect(g.dtype).toBe('float32');
      const c = make();
      expect(c.device).toBe('cpu');
      const [got, want] = [await compute(g, { allowTransfer: true }), await compute(c)];
      expect(got.shape).toEqual(want.shape);
      expectClose(got.data, want.data, 1e-6, 0);
      expectClose(
        (await compute(g.mul(2), { allowTransfer: true })).data,
        (await compute(c.mul(2))).data,
      );
    },
  );

  test("withDevice('cpu') inside withDevice('gpu') places on the host; the scope ends with fn", async () => {
    const [onGpu, onCpu, again] = withDevice('gpu', () => [
      ones([4], { dtype: 'float32' }),
      withDevice('cpu', () => ones([4], { dtype: 'float32' })),
      zeros([4], { dtype: 'float32' }),
    ]);
    expect(onGpu!.device).toBe('gpu');
    expect(onCpu!.device).toBe('cpu');
    expect(again!.device).toBe('gpu');
    expect(ones([4], { dtype: 'float32' }).device).toBe('cpu');
    expect(Array.from((await compute(onCpu!)).data as NumberArray)).toEqual([1, 1, 1, 1]);
  });

  test('the scope holds across awaits inside fn and is gone after a throw', async () => {
    const later = await withDevice('gpu', async () => {
      await new Promise((r) => setTimeout(r, 1));
      return ones([2], { dtype: 'float32' });
    });
    expect(later.device).toBe('gpu');
    expect(() =>
      withDevice('gpu', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(zeros([2], { dtype: 'float32' }).device).toBe('cpu');
  });

  test('operations on GPU creations stay on the GPU', () => {
    const x = withDevice('gpu', () =>
      random.uniform([8, 8], { chunks: 4, dtype: 'float32', seed: 1 }),
    );
    const y = x.mul(2).sum({ axis: 0 });
    expect(y.device).toBe('gpu');
    expect(y.layer.backend?.name).toBe('webgpu');
  });
});

describe.runIf(hasGpu)('random shapes and chunkings', () => {
  test('elementwise chain and sums agree with the CPU', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 9), async ({ shape, chunks, seed }) => {
        const x = wrap(f32(shape, seed), shape, chunks);
        await agree(`chain ${shape}/${JSON.stringify(chunks)}`, x, (a) =>
          sqrt(abs(a.mul(2).add(1))),
        );
        await agree(`sum ${shape}`, x, (a) => a.sum(), 1e-4, 1e-4);
        await agree(`max axis ${shape.length - 1}`, x, (a) => a.max({ axis: shape.length - 1 }));
        await agree(`mean axis 0 ${shape}`, x, (a) => a.mean({ axis: 0 }), 1e-4, 1e-4);
      }),
      { numRuns: 10, seed: 20240601 },
    );
  }, 120_000);

  test('slices agree with the CPU', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbShapeAndChunks(2, 12),
        fc.integer({ min: 1, max: 3 }),
        async ({ shape, chunks, seed }, step) => {
          const x = wrap(f32(shape, seed), shape, chunks);
          const idx = shape.map((n) => `${Math.floor(n / 3)}::${step}`).join(', ');
          await agree(`get(${idx}) of ${shape}/${JSON.stringify(chunks)}`, x, (a) => a.get(idx));
        },
      ),
      { numRuns: 10, seed: 7 },
    );
  }, 120_000);
});
