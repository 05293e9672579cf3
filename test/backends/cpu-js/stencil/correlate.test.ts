// 'correlate-axes' with symmetric passes against a plain per-element loop in scipy's order
// (w0·x[c] + Σ wt·(x[c−t] + x[c+t]) in float64, stored in the block's dtype): bit for bit,
// on random shapes, axes and radii, with NaN, infinities, −0 and values that overflow float32.

import { describe, expect, test } from 'vitest';
import { type DType, type NumberArray, typedArrayCtor } from '../../../../src/array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../../../../src/array/ndarray.ts';
import { builtinKernels } from '../../../../src/backends/cpu-js/registry.ts';
import type { CorrelateAxisParams } from '../../../../src/backends/cpu-js/stencil/correlate.ts';
import { createFnResolver } from '../../../../src/kernels/resolve.ts';
import { runTask } from '../../../../src/kernels/run-task.ts';
import { rng } from '../../../helpers/reference.ts';

const resolver = createFnResolver({ inline: true });
const correlate = (x: NDArray, passes: readonly CorrelateAxisParams[]): NDArray =>
  runTask(
    { id: 0, key: 'k', kernel: 'correlate-axes', params: { passes }, inputs: [x] },
    builtinKernels,
    resolver,
  ) as NDArray;

const SPECIAL = [Number.NaN, Infinity, -Infinity, -0, 3e38, -3e38, 1e-310, 5e-324];

function block(shape: readonly number[], dtype: DType, r: () => number): NDArray {
  const data = new (typedArrayCtor(dtype))(shapeSize(shape));
  for (let i = 0; i < data.length; i++) {
    const u = r();
    data[i] =
      dtype === 'int32'
        ? Math.floor(u * 2000) - 1000
        : u < 0.03
          ? SPECIAL[Math.floor(r() * SPECIAL.length)]!
          : u * 20 - 10;
  }
  return new NDArray(data, shape, dtype);
}

/** The pass as scipy's correlate1d computes a symmetric kernel, one output at a time. */
function referencePass(x: NDArray, p: CorrelateAxisParams): NDArray {
  const shape = x.shape.map((n, ax) => (ax === p.axis ? n - p.before - p.after : n));
  const out = new (typedArrayCtor(x.dtype))(shapeSize(shape));
  const xs = cStrides(x.shape);
  const os = cStrides(shape);
  const st = xs[p.axis]!;
  const c = p.before;
  for (let o = 0; o < out.length; o++) {
    let rem = o;
    let src = 0;
    for (let ax = 0; ax < shape.length; ax++) {
      const i = Math.floor(rem / os[ax]!);
      rem -= i * os[ax]!;
      src += (ax === p.axis ? i + c : i) * xs[ax]!;
    }
    let s = p.weights[c]! * (x.data as NumberArray)[src]!;
    for (let t = 1; t <= c; t++) {
      s +=
        p.weights[c + t]! *
        ((x.data as NumberArray)[src - t * st]! + (x.data as NumberArray)[src + t * st]!);
    }
    out[o] = s;
  }
  return new NDArray(out, shape, x.dtype);
}

function symmetricWeights(r: number, rand: () => number): number[] {
  const half = Array.from({ length: r + 1 }, () => rand() * 2 - 0.5);
  return [...half.slice(1).reverse(), ...half];
}

describe("'correlate-axes' symmetric passes", () => {
  test.each(['float32', 'float64', 'int32'] as const)('match the per-element loop, %s', (dtype) => {
    const rand = rng(dtype.length * 7919);
    for (let trial = 0; trial < 40; trial++) {
      const ndim = 1 + Math.floor(rand() * 3);
      const core = Array.from({ length: ndim }, () => 1 + Math.floor(rand() * 9));
      const axes = Array.from({ length: ndim }, (_, ax) => ax).filter(() => rand() < 0.8);
      const radii = core.map(() => Math.floor(rand() * 5));
      const passes: CorrelateAxisParams[] = axes.map((axis) => ({
        axis,
        weights: symmetricWeights(radii[axis]!, rand),
        before: radii[axis]!,
        after: radii[axis]!,
        order: 'symmetric',
      }));
      const shape = core.map((n, ax) => (axes.includes(ax) ? n + 2 * radii[ax]! : n));
      const x = block(shape, dtype, rand);
      let want = x;
      for (const p of passes) want = referencePass(want, p);
      const got = correlate(x, passes);
      expect(got.shape).toEqual(want.shape);
      expect(got.dtype).toBe(dtype);
      for (let i = 0; i < want.data.length; i++) {
        if (!Object.is(got.data[i], want.data[i])) {
          expect(got.data[i], `${JSON.stringify({ shape, passes })} element ${i}`).toBe(
            want.data[i],
          );
        }
      }
    }
  });

  test('a block after a larger one reuses scratch without reading its stale values', () => {
    const rand = rng(5);
    const pass = (axis: number): CorrelateAxisParams => ({
      axis,
      weights: [0.25, 0.5, 0.25],
      before: 1,
      after: 1,
      order: 'symmetric',
    });
    const passes = [pass(0), pass(1), pass(2)];
    const big = block([12, 12, 12], 'float64', rand);
    correlate(big, passes);
    const small = block([4, 5, 6], 'float64', rand);
    let want = small;
    for (const p of passes) want = referencePass(want, p);
    const got = correlate(small, passes);
    expect(Array.from(got.data as NumberArray)).toEqual(Array.from(want.data as NumberArray));
    // the result is the task's own: a later block does not overwrite it
    const copy = Array.from(got.data as NumberArray);
    correlate(big, passes);
    expect(Array.from(got.data as NumberArray)).toEqual(copy);
  });
});
