// Variance and standard deviation on the GPU, two-pass as the CPU's reduce-stats.ts: the mean
// first, then the sum of squared deviations from it (one fused elementwise + sum shader pair).

import { shapeSize } from '../../array/ndarray.ts';
import type { Expr } from '../cpu-js/elementwise/expr.ts';
import { runEw } from './kernel-ew.ts';
import { reduceAggregate, reducePartial } from './kernel-reduce.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';

/** Params of var/std (the CPU's MomentParams; the result is float32). */
export interface GpuMomentParams {
  readonly op: 'var';
  readonly axes: readonly number[];
  readonly correction: number;
  readonly sqrt: boolean;
  readonly keepdims?: boolean;
}

/**
 * var (or std with `sqrt`) of `x` over `axes`: M2 / max(n − correction, 0).
 * @example
 * const v = await moments(rt, x, { op: 'var', axes: [0], correction: 1, sqrt: false });
 */
export async function moments(
  rt: GpuRuntime,
  x: GpuTensor,
  p: GpuMomentParams,
): Promise<GpuTensor> {
  const f = 'float32';
  const mean = await reduceAggregate(rt, x, { op: 'mean', axes: p.axes, keepdims: true });
  const dev: Expr = {
    op: 'subtract',
    args: [{ op: 'astype', args: [{ in: 0 }], dtype: f }, { in: 1 }],
    dtype: f,
  };
  const [sq] = await runEw(rt, [x, mean], {
    expr: { op: 'multiply', args: [dev, dev], dtype: f },
    dtype: f,
  });
  rt.free(mean);
  const m2 = await reducePartial(rt, sq!, { op: 'sum', axes: p.axes });
  rt.free(sq!);
  const count = shapeSize(p.axes.map((a) => x.shape[a]!));
  const scaled: Expr = {
    op: 'divide',
    args: [{ in: 0 }, { const: Math.max(count - p.correction, 0) }],
    dtype: f,
  };
  const [out] = await runEw(rt, [m2], {
    expr: p.sqrt ? { op: 'sqrt', args: [scaled], dtype: f } : scaled,
    dtype: f,
  });
  rt.free(m2);
  return p.keepdims ? out! : { ...out!, shape: x.shape.filter((_, ax) => !p.axes.includes(ax)) };
}
