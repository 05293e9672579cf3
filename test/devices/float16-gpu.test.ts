// float16 arrays on the GPU against the same graphs on the CPU: uploads and downloads keep
// the bits, elementwise chains agree (bit for bit for + - * on float16 values), reductions and
// matmul widen to float32 on the device and round once. Needs a WebGPU adapter.

import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { float16Bits, float16Value } from '../../src/array/float16.ts';
import { checkDeviceDType } from '../../src/devices/device-scope.ts';
import {
  abs,
  astype,
  compute,
  exp,
  fromArray,
  greater,
  type LazyArray,
  matmul,
  max,
  ndarray,
  rechunk,
  shutdown,
  sqrt,
  sum,
  toDevice,
  transpose,
} from '../../src/index.ts';
import { near16 } from '../apply/float16-reference.ts';
import { rng } from '../helpers/reference.ts';
import { announceTier, hasGpu } from './tier.ts';

announceTier('float16-gpu');
afterAll(async () => {
  await shutdown();
}, 60_000);

function half(shape: number[], seed: number, chunks: number[]): LazyArray {
  const r = rng(seed);
  const n = shape.reduce((a, b) => a * b, 1);
  const bits = Uint16Array.from({ length: n }, () => float16Bits((r() * 2 - 1) * 6));
  return fromArray(ndarray(bits, shape, 'float16'), { chunks });
}
const values = (d: ArrayLike<number>): number[] => Array.from(d, float16Value);

/** `build` on the GPU and on the CPU; float16 results within `ulps`, compared as values. */
async function agree(x: LazyArray, build: (a: LazyArray) => LazyArray, ulps: number) {
  const onGpu = build(toDevice(x, 'gpu'));
  expect(onGpu.device).toBe('gpu');
  const [g, c] = [await compute(onGpu, { allowTransfer: true }), await compute(build(x))];
  expect(g.dtype).toBe(c.dtype);
  expect(g.shape).toEqual(c.shape);
  const [gv, cv] = [values(g.data as NumberArray), values(c.data as NumberArray)];
  const bad = cv.flatMap((w, i) => (near16(gv[i]!, w, ulps) ? [] : [[i, gv[i], w]]));
  expect(bad).toEqual([]);
}

describe('float16 device dtype check', () => {
  test('checkDeviceDType accepts float16 on the GPU (no shader-f16 needed)', () => {
    expect(() => checkDeviceDType('toDevice', 'float16', 'gpu')).not.toThrow();
    expect(() => checkDeviceDType('toDevice', 'float64', 'gpu')).toThrow(/^toDevice: dtype/);
  });
});

describe.runIf(hasGpu)('float16 on the GPU', () => {
  const x = half([9, 11], 1, [4, 5]);
  const y = half([9, 11], 2, [4, 5]);

  test('a round trip through the device keeps every bit (odd block sizes)', async () => {
    const back = toDevice(toDevice(x, 'gpu'), 'cpu');
    const [got, want] = [await compute(back, { allowTransfer: true }), await compute(x)];
    expect(got.dtype).toBe('float16');
    expect(Array.from(got.data as NumberArray)).toEqual(Array.from(want.data as NumberArray));
  });

  test.each<[string, (a: LazyArray) => LazyArray]>([
    ['x*2+1', (a) => a.mul(2).add(1)],
    [
      '(x - y) * x + y',
      (a) => {
        const b = a.device === 'gpu' ? toDevice(y, 'gpu') : y;
        return a.sub(b).mul(a).add(b);
      },
    ],
    ['transpose(x) * 3', (a) => transpose(a).mul(3)],
  ])('%s agrees bit for bit', async (_what, f) => {
    await agree(x, (a) => f(a), 0);
  });

  test.each<[string, (a: LazyArray) => LazyArray]>([
    ['sqrt(abs(x)) / (1 + x*x)', (a) => sqrt(abs(a)).div(a.mul(a).add(1))],
    ['exp(x / 4)', (a) => exp(a.div(4))],
  ])('%s agrees within one ulp', async (_what, f) => {
    await agree(x, f, 1);
  });

  test.each<[string, (a: LazyArray) => LazyArray]>([
    ['x.get("1:8:3, ::-2")', (a) => a.get('1:8:3, ::-2')],
    ['x.get("..., 3")', (a) => a.get('..., 3')],
    ['rechunk to [2, 3]', (a) => rechunk(a, [2, 3])],
    ['x[2:7] of uint8', (a) => astype(a.mul(10), 'uint8').get('2:7')],
    ['rechunk of bool', (a) => rechunk(greater(a, 0), [3, 4])],
  ])('%s moves the bits on the device', async (_what, f) => {
    const onGpu = f(toDevice(x, 'gpu'));
    expect(onGpu.device).toBe('gpu');
    expect(onGpu.layer.backend?.name).toBe('webgpu');
    const [g, c] = [await compute(onGpu, { allowTransfer: true }), await compute(f(x))];
    expect(g.dtype).toBe(c.dtype);
    expect(g.shape).toEqual(c.shape);
    expect(Array.from(g.data as NumberArray)).toEqual(Array.from(c.data as NumberArray));
  });

  test('sum and max over an axis, and matmul, run on the device in float32', async () => {
    await agree(x, (a) => sum(a, { axis: 0 }), 1);
    await agree(x, (a) => max(a, { axis: 1 }), 0);
    const w = half([11, 6], 3, [5, 6]);
    const onGpu = matmul(toDevice(x, 'gpu'), toDevice(w, 'gpu'));
    expect(onGpu.dtype).toBe('float16');
    const [g, c] = [await compute(onGpu, { allowTransfer: true }), await compute(matmul(x, w))];
    const bad = values(c.data as NumberArray).flatMap((v, i) =>
      near16(values(g.data as NumberArray)[i]!, v, 1) ? [] : [[i, v]],
    );
    expect(bad).toEqual([]);
  });
});
