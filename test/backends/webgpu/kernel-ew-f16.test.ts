// float16 in the WebGPU 'ew' kernel: the WGSL bit decoder and encoder against the host's on
// every pattern, and fused float16 chains against the CPU (bit for bit where WGSL's f32
// arithmetic is exact: + - *). Skipped without an adapter.

import { describe, expect, it } from 'vitest';
import { allocate, type DType, type NumberArray } from '../../../src/array/dtype.ts';
import { float16Bits, float16Value } from '../../../src/array/float16.ts';
import { NDArray, shapeSize } from '../../../src/array/ndarray.ts';
import { evaluateExpr } from '../../../src/backends/cpu-js/elementwise/elementwise.ts';
import type { EwParams, Expr } from '../../../src/backends/cpu-js/elementwise/expr.ts';
import { near16 } from '../../apply/float16-reference.ts';
import { hasGpu, rng, useGpu } from './tier.ts';

const H: DType = 'float16';
const node = (op: string, args: Expr[], dtype: DType = H): Expr => ({ op, args, dtype });
const x0: Expr = { in: 0 };
const x1: Expr = { in: 1 };
const rand = rng(16);

/** Random float16 bits of values in [-scale, scale), with a few specials mixed in. */
function randomHalf(shape: number[], scale = 8): NDArray {
  const n = shapeSize(shape);
  const data = allocate(H, n);
  const specials = [0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x7bff, 0x03ff];
  for (let i = 0; i < n; i++) {
    data[i] = i % 17 === 5 ? specials[i % specials.length]! : float16Bits((rand() * 2 - 1) * scale);
  }
  return new NDArray(data, shape, H);
}

const decoded = (a: NDArray): number[] => Array.from(a.data as NumberArray, float16Value);

describe.skipIf(!hasGpu)('webgpu float16 ew', () => {
  const box = useGpu();

  async function run(params: EwParams, inputs: NDArray[]): Promise<NDArray> {
    const { gpu } = box;
    const hs = await Promise.all(inputs.map((x) => gpu.upload(x)));
    const [h] = await gpu.run('ew', hs, params);
    const got = await gpu.download(h!);
    gpu.release(...hs, h!);
    return got;
  }

  it('decodes all 65536 patterns exactly and re-encodes them (NaN as 0x7e00 with sign)', async () => {
    const bits = new NDArray(
      Uint16Array.from({ length: 65536 }, (_, i) => i),
      [65536],
      H,
    );
    const f = await run({ expr: node('astype', [x0], 'float32'), dtype: 'float32' }, [bits]);
    const bad = Array.from(f.data as NumberArray).flatMap((v, h) => {
      const want = float16Value(h);
      return Object.is(v, want) || (Number.isNaN(v) && Number.isNaN(want)) ? [] : [h];
    });
    expect(bad).toEqual([]);
    const back = await run({ expr: node('astype', [x0], H), dtype: H }, [f]);
    const want = Array.from(f.data as NumberArray, (v) => float16Bits(v));
    expect(Array.from(back.data as NumberArray)).toEqual(want);
    // A float16 input passed through keeps its bits, NaN payloads included.
    const same = await run({ expr: x0, dtype: H }, [bits]);
    expect(Array.from(same.data as NumberArray)).toEqual(Array.from(bits.data as NumberArray));
  });

  it('encodes float32 ties, their neighbours, subnormals and overflow to nearest-even', async () => {
    const vals: number[] = [];
    const f32 = new Float32Array(1);
    const u32 = new Uint32Array(f32.buffer);
    for (let h = 0; h < 0x7c00; h += 7) {
      const mid = (float16Value(h) + float16Value(h + 1)) / 2; // exact in float32
      f32[0] = mid;
      for (const d of [-1, 0, 1]) {
        const u = u32[0]!;
        u32[0] = u + d;
        vals.push(f32[0]!, -f32[0]!);
        u32[0] = u;
      }
    }
    for (let k = 0; k < 4000; k++) {
      u32[0] = Math.floor(rand() * 2 ** 32);
      vals.push(f32[0]!);
    }
    vals.push(65504, 65519.996, 65520, 1e9, 2 ** -25, 2 ** -24, 3 * 2 ** -26, 1e-30, -0);
    const x = new NDArray(Float32Array.from(vals), [vals.length], 'float32');
    const got = await run({ expr: node('astype', [x0], H), dtype: H }, [x]);
    const want = Array.from(x.data as NumberArray, (v) => float16Bits(v));
    const bad = want.flatMap((w, i) => (got.data[i] === w ? [] : [[x.data[i], got.data[i], w]]));
    expect(bad).toEqual([]);
  });

  const exactCases: [string, Expr, number[][]][] = [
    ['a + b', node('add', [x0, x1]), [[33], [33]]],
    [
      'a - b * a (odd length, packed pairs)',
      node('subtract', [x0, node('multiply', [x1, x0])]),
      [
        [7, 5],
        [7, 5],
      ],
    ],
    [
      '(a + 0.1) * b broadcast [5,1] with [1,6]',
      node('multiply', [node('add', [x0, { const: 0.1 }]), x1]),
      [
        [5, 1],
        [1, 6],
      ],
    ],
    [
      'a * a * a * a overflows to inf',
      node('multiply', [node('multiply', [x0, x0]), node('multiply', [x0, x0])]),
      [[64], [1]],
    ],
    [
      'maximum(a, b) - minimum(a, b)',
      node('subtract', [node('maximum', [x0, x1]), node('minimum', [x0, x1])]),
      [[9, 9], [9]],
    ],
    [
      'where(a > b, a, b)',
      node('where', [node('greater', [x0, x1], 'bool'), x0, x1]),
      [[31], [31]],
    ],
    [
      'where(a == 0.1, b, a)',
      node('where', [node('equal', [x0, { const: 0.1 }], 'bool'), x1, x0]),
      [[31], [31]],
    ],
  ];
  it.each(exactCases)('%s matches the CPU bit for bit', async (_name, expr, shapes) => {
    const inputs = shapes.map((s) => randomHalf(s, 30));
    // Values a weak 0.1 compares equal to once rounded to float16.
    inputs[0]!.data[1] = float16Bits(0.1);
    inputs[0]!.data[2] = float16Bits(0.1) + 1;
    const params = { expr, dtype: H };
    const want = evaluateExpr(inputs, params);
    const got = await run(params, inputs);
    expect(got.dtype).toBe(H);
    expect(got.shape).toEqual(want.shape);
    expect(decoded(got)).toEqual(decoded(want));
  });

  const ulpCases: [string, Expr][] = [
    ['a / b', node('divide', [x0, x1])],
    ['sqrt(a * a + b)', node('sqrt', [node('add', [node('multiply', [x0, x0]), x1])])],
    ['exp(a) - 1', node('subtract', [node('exp', [x0]), { const: 1 }])],
    ['sin(a)', node('sin', [x0])],
    ['tanh(a)', node('tanh', [x0])],
    ['log(abs(a))', node('log', [node('abs', [x0])])],
  ];
  // WGSL allows f32 division 2.5 ulp and sqrt/exp/sin some more, so after one rounding to
  // float16 a result may sit one float16 ulp from the CPU's correctly rounded one.
  it.each(ulpCases)('%s is within one float16 ulp of the CPU', async (_name, expr) => {
    const inputs = [randomHalf([257], 4), randomHalf([257], 4)];
    const params = { expr, dtype: H };
    const want = decoded(evaluateExpr(inputs, params));
    const got = decoded(await run(params, inputs));
    const bad = want.flatMap((w, i) => (near16(got[i]!, w, 1) ? [] : [[i, got[i], w]]));
    expect(bad).toEqual([]);
  });

  it('mixed dtypes: float16 with float32 computes in float32, int32 to float16 rounds', async () => {
    const a = randomHalf([40]);
    const b = new NDArray(
      Float32Array.from({ length: 40 }, () => rand() * 3),
      [40],
      'float32',
    );
    const p1 = { expr: node('multiply', [x0, x1], 'float32'), dtype: 'float32' as DType };
    expect(Array.from((await run(p1, [a, b])).data as NumberArray)).toEqual(
      Array.from(evaluateExpr([a, b], p1).data as NumberArray),
    );
    const i = new NDArray(Int32Array.of(2049, 2051, 70000, -7, 0), [5], 'int32');
    const p2 = { expr: node('astype', [x0]), dtype: H };
    expect(decoded(await run(p2, [i]))).toEqual([2048, 2052, Infinity, -7, 0]);
  });
});
