// WebGPU matmul (tiled), transpose and random kernels against dense JS references and the
// CPU's random kernels (same counter-based stream, float32).

import { describe, expect, it } from 'vitest';
import { allocate, type DType, type NumberArray } from '../../../src/array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../../../src/array/ndarray.ts';
import { normalBlock, uniformBlock } from '../../../src/backends/cpu-js/source/random.ts';
import { expectClose, hasGpu, rng, useGpu } from './tier.ts';

const rand = rng(5);

function randomArray(shape: number[], dtype: DType = 'float32'): NDArray {
  const n = shapeSize(shape);
  const data = allocate(dtype, n);
  for (let i = 0; i < n; i++)
    data[i] = dtype === 'float32' ? rand() * 2 - 1 : Math.floor(rand() * 256);
  return new NDArray(data, shape, dtype);
}

/** Dense reference: batched a[b,m,k] · b[b,k,n] (batch 1 broadcasts). */
function refMatmul(
  a: NDArray,
  b: NDArray,
  m: number,
  k: number,
  n: number,
  batch: number,
): Float64Array {
  const aB = a.size / (m * k);
  const bB = b.size / (k * n);
  const c = new Float64Array(batch * m * n);
  for (let t = 0; t < batch; t++) {
    const ao = aB === 1 ? 0 : t * m * k;
    const bo = bB === 1 ? 0 : t * k * n;
    for (let i = 0; i < m; i++)
      for (let p = 0; p < k; p++) {
        const x = a.data[ao + i * k + p] as number;
        for (let j = 0; j < n; j++)
          c[t * m * n + i * n + j]! += x * (b.data as NumberArray)[bo + p * n + j]!;
      }
  }
  return c;
}

function refTranspose(x: NDArray, axes: number[]): NDArray {
  const shape = axes.map((a) => x.shape[a]!);
  const st = cStrides(x.shape);
  const out = allocate(x.dtype, x.size);
  const idx = new Array<number>(shape.length).fill(0);
  for (let o = 0; o < x.size; o++) {
    let off = 0;
    for (let i = 0; i < shape.length; i++) off += idx[i]! * st[axes[i]!]!;
    out[o] = x.data[off]!;
    for (let ax = shape.length - 1; ax >= 0; ax--) {
      if (++idx[ax]! < shape[ax]!) break;
      idx[ax] = 0;
    }
  }
  return new NDArray(out, shape, x.dtype);
}

const mm = Array.from({ length: 6 }, (_, i) => {
  const [m, k, n] = [
    1 + Math.floor(rand() * 150),
    1 + Math.floor(rand() * 150),
    1 + Math.floor(rand() * 150),
  ];
  return {
    name: `[${m}×${k}]·[${k}×${n}]${i % 2 ? ' batch 3' : ''}`,
    m,
    k,
    n,
    batch: i % 2 ? 3 : 1,
  };
});

describe.skipIf(!hasGpu)('webgpu matmul, transpose, random', () => {
  const box = useGpu();
  const params = { dtype: 'float32', aVec: false, bVec: false };

  it.each(mm)('matmul $name', async ({ m, k, n, batch }) => {
    const { gpu } = box;
    const lead = batch > 1 ? [batch] : [];
    const a = randomArray([...lead, m, k]);
    const b = randomArray([k, n]);
    const ha = await gpu.upload(a);
    const hb = await gpu.upload(b);
    const [c] = await gpu.run('matmul', [ha, hb], params);
    const got = await gpu.download(c!);
    gpu.release(ha, hb, c!);
    expect(got.shape).toEqual([...lead, m, n]);
    expectClose(got.data as NumberArray, refMatmul(a, b, m, k, n, batch), 1e-4, 1e-4);
  });

  it('matmul of a vector pair and a sum of two products', async () => {
    const { gpu } = box;
    const [a1, b1, a2, b2] = [
      randomArray([70, 33]),
      randomArray([33, 9]),
      randomArray([70, 20]),
      randomArray([20, 9]),
    ];
    const hs = await Promise.all([a1, b1, a2, b2].map((x) => gpu.upload(x)));
    const [c] = await gpu.run('matmul', hs, params);
    const want = refMatmul(a1!, b1!, 70, 33, 9, 1).map(
      (v, i) => v + refMatmul(a2!, b2!, 70, 20, 9, 1)[i]!,
    );
    expectClose((await gpu.download(c!)).data as NumberArray, want, 1e-4, 1e-4);
    const v = randomArray([33]);
    const hv = await gpu.upload(v);
    const [d] = await gpu.run('matmul', [hs[0]!, hv], { ...params, bVec: true });
    const dn = await gpu.download(d!);
    expect(dn.shape).toEqual([70]);
    expectClose(dn.data as NumberArray, refMatmul(a1!, v, 70, 33, 1, 1), 1e-4, 1e-4);
    gpu.release(...hs, hv, c!, d!);
  });

  it.each([
    { shape: [37, 53], axes: [1, 0], dtype: 'float32' as DType },
    { shape: [5, 6, 7], axes: [2, 0, 1], dtype: 'float32' as DType },
    { shape: [3, 4, 5, 6], axes: [3, 1, 2, 0], dtype: 'int32' as DType },
    { shape: [9, 13], axes: [1, 0], dtype: 'uint8' as DType },
  ])('transpose $dtype [$shape] by [$axes]', async ({ shape, axes, dtype }) => {
    const { gpu } = box;
    const x = randomArray(shape, dtype === 'int32' ? 'float32' : dtype);
    const xi =
      dtype === 'int32'
        ? new NDArray(
            Int32Array.from(x.data as NumberArray, (v) => Math.round(v * 100)),
            shape,
            'int32',
          )
        : x;
    const h = await gpu.upload(xi);
    const [t] = await gpu.run('transpose', [h], { axes });
    const got = await gpu.download(t!);
    gpu.release(h, t!);
    const want = refTranspose(xi, axes);
    expect(got.shape).toEqual(want.shape);
    expect(Array.from(got.data as NumberArray)).toEqual(Array.from(want.data as NumberArray));
  });

  it.each([
    { kind: 'uniform', arrayShape: [1000], offset: [250], shape: [500] },
    { kind: 'uniform', arrayShape: [64, 100], offset: [10, 30], shape: [20, 50] },
    { kind: 'normal', arrayShape: [999], offset: [1], shape: [777] },
    { kind: 'normal', arrayShape: [30, 41], offset: [3, 5], shape: [20, 31] },
  ])('random $kind block $shape at $offset of $arrayShape matches the CPU', async (c) => {
    const { gpu } = box;
    const base = {
      seed: [0x1234, 0xdeadbeef] as [number, number],
      arrayShape: c.arrayShape,
      offset: c.offset,
      shape: c.shape,
      dtype: 'float32' as DType,
    };
    const uniform = { ...base, low: -2, high: 3 };
    const normal = { ...base, mean: 1, std: 2 };
    const want = c.kind === 'uniform' ? uniformBlock(uniform) : normalBlock(normal);
    const [r] = await gpu.run(`random-${c.kind}`, [], c.kind === 'uniform' ? uniform : normal);
    const got = await gpu.download(r!);
    gpu.release(r!);
    expect(got.shape).toEqual(c.shape);
    expectClose(
      got.data as NumberArray,
      want.data as NumberArray,
      c.kind === 'uniform' ? 1e-6 : 1e-4,
      1e-5,
    );
  });
});
