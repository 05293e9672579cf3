// The approximate chunk-parallel quantile graph: a mergeable summary per block (fusable), a
// tree of merges (fan-in splitEvery per reduced axis), then one final task per output block.

import { LazyArray } from '../array/lazy-array.ts';
import type { QuantileBlockParams } from '../backends/cpu-js/reduce/quantile.ts';
import type { SketchParams } from '../backends/cpu-js/reduce/quantile-sketch.ts';
import type { Size } from '../chunking/types.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { Layer } from '../graph/layer.ts';
import { groupRefs } from './reduction.ts';

const unitChunks = (x: LazyArray, axes: readonly number[], counts: readonly number[]): Size[][] =>
  x.chunks.map((c, ax) => (axes.includes(ax) ? new Array<number>(counts[ax]!).fill(1) : [...c]));

/**
 * The sketch tree of `x` over `axes` read out as `q` (params of the exact kernel); the final
 * layer's meta carries `rankError`, the bound (1 + levels) / (2 · resolution).
 */
export function sketchQuantiles(
  fn: string,
  x: LazyArray,
  p: QuantileBlockParams,
  resolution: number,
  splitEvery: readonly number[],
): LazyArray {
  const axes = p.axes;
  const sp: SketchParams = { axes, resolution };
  let counts = x.numBlocks;
  let layer: Layer = defineLayer({
    op: `${fn}-sketch`,
    token: [sp],
    deps: [x.layer],
    chunks: unitChunks(x, axes, counts),
    dtype: 'float64',
    fusable: true,
    task: (b) => ({ kernel: 'quantile-sketch', inputs: [[0, b]], params: sp }),
  });
  let level = 0;
  while (axes.some((ax) => counts[ax]! > splitEvery[ax]!)) {
    const prev = counts;
    const next = prev.map((n, ax) => (axes.includes(ax) ? Math.ceil(n / splitEvery[ax]!) : n));
    layer = defineLayer({
      op: `${fn}-sketch-merge`,
      token: [sp, splitEvery, level++],
      deps: [layer],
      chunks: unitChunks(x, axes, next),
      dtype: 'float64',
      task: (b) => ({
        kernel: 'quantile-sketch-merge',
        inputs: groupRefs(
          b,
          axes.map((ax) => {
            const k = splitEvery[ax]!;
            return [b[ax]! * k, Math.min((b[ax]! + 1) * k, prev[ax]!)] as const;
          }),
          axes,
        ),
        params: sp,
      }),
    });
    counts = next;
  }
  return new LazyArray(finalLayer(fn, x, layer, p, counts, (1 + level) / (2 * resolution)));
}

function finalLayer(
  fn: string,
  x: LazyArray,
  dep: Layer,
  p: QuantileBlockParams,
  counts: readonly number[],
  rankError: number,
): Layer {
  const axes = p.axes;
  const kept: Size[][] = x.chunks.flatMap((ch, ax) =>
    axes.includes(ax) ? (p.keepdims ? [[1]] : []) : [[...ch]],
  );
  const lead = p.qAxis ? 1 : 0;
  return defineLayer({
    op: fn,
    token: [p, 'sketch'],
    deps: [dep],
    chunks: p.qAxis ? [[p.qs.length], ...kept] : kept,
    dtype: p.dtype,
    meta: { rankError },
    task: (b) => {
      const template: number[] = [];
      for (let ax = 0, k = lead; ax < x.ndim; ax++) {
        if (!axes.includes(ax)) template.push(b[k++]!);
        else {
          template.push(0);
          if (p.keepdims) k++;
        }
      }
      const ranges = axes.map((ax) => [0, counts[ax]!] as const);
      return {
        kernel: 'quantile-sketch-final',
        inputs: groupRefs(template, ranges, axes),
        params: p,
      };
    },
  });
}
