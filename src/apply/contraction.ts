// Contraction graphs for einsum, tensordot and matmul: per output block, partial products over
// groups of contraction blocks (one task when few), then a tree of sums over the partials.

import type { DType } from '../array/dtype.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { ContractSumParams } from '../backends/cpu-js/linalg/einsum.ts';
import type { BlockWindow } from '../backends/cpu-js/linalg/matmul.ts';
import { unravelBlock } from '../chunking/blocks.ts';
import type { Chunks } from '../chunking/types.ts';
import { config } from '../config.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BackendRef, BlockRef, Layer, TaskSpec } from '../graph/layer.ts';
import { type BlockwisePlan, contractedGrid, inputBlock } from './blockwise-plan.ts';
import { dispatchLayer } from './dispatch-layer.ts';

export interface ContractionSpec {
  /** Operation label ('matmul', 'einsum', …). */
  readonly op: string;
  /** Everything besides inputs that changes the result. */
  readonly token: readonly unknown[];
  readonly plan: BlockwisePlan;
  readonly dtype: DType;
  /** Kernel summing, over groups of one block per array input, its product. */
  readonly kernel: string;
  /** Kernel params besides `unitAxis`. */
  readonly params: object;
  /** Contraction blocks per partial task (default 4): below it, one task per output block. */
  readonly groupSize?: number;
  /** Fan-in of the sum tree (default config.splitEvery). */
  readonly splitEvery?: number;
  /**
   * The backends whose kernel takes a 2-D block of wrapped data (fromArray) as the whole
   * array and the block's window (`params.windows`, one per task input, null for other
   * inputs): on those, such inputs are not sliced into blocks by tasks of their own.
   */
  readonly windowBackends?: ReadonlySet<string>;
}

/** The wrapped 2-D array under `layer` when its blocks are plain slices of it (fromArray). */
function wrappedSource(layer: Layer): Layer | undefined {
  const src = layer.deps[0];
  if (layer.op !== 'from-array' || layer.deps.length !== 1 || src?.constant === undefined) {
    return undefined;
  }
  return layer.chunks.length === 2 ? src : undefined;
}

const ones = (n: number): number[] => new Array<number>(n).fill(1);

/** Input refs of one task: contraction blocks [from, to) for output block `b`, group by group. */
function groupInputs(
  plan: BlockwisePlan,
  grid: readonly number[],
  b: readonly number[],
  from: number,
  to: number,
): BlockRef[] {
  const refs: BlockRef[] = [];
  for (let c = from; c < to; c++) {
    const cBlock = grid.length === 0 ? [] : unravelBlock(c, grid);
    plan.inputs.forEach((x, k) => {
      if ('array' in x) refs.push([plan.depOf[k]!, inputBlock(plan, k, b, cBlock)]);
    });
  }
  return refs;
}

/** One level of the sum tree: block [..b, j] sums blocks [..b, j*s .. ) of `prev`. */
function sumLevel(
  spec: ContractionSpec,
  prev: Layer,
  outChunks: Chunks,
  level: number,
  backend: BackendRef,
): Layer {
  const s = spec.splitEvery ?? config.splitEvery;
  const count = prev.chunks[prev.chunks.length - 1]!.length;
  const next = Math.ceil(count / s);
  const last = next === 1;
  const params: ContractSumParams = { dtype: spec.dtype, squeeze: last };
  return defineLayer({
    op: `${spec.op}-sum`,
    token: [level, s],
    deps: [prev],
    chunks: last ? outChunks : [...outChunks, ones(next)],
    dtype: spec.dtype,
    backend,
    task: (b): TaskSpec => {
      const out = last ? b : b.slice(0, -1);
      const j = last ? 0 : b[b.length - 1]!;
      const inputs: BlockRef[] = [];
      for (let i = j * s; i < Math.min(count, (j + 1) * s); i++) inputs.push([0, [...out, i]]);
      return { kernel: 'contract-sum', inputs, params };
    },
  });
}

/**
 * Build the contraction: with K contraction blocks per output block and group size g,
 * ceil(K / g) partial tasks per output block, then sums of `splitEvery` partials per level.
 * @example
 * contraction({ op: 'matmul', token: [], plan, dtype: 'float64', kernel: 'matmul',
 *   params: { dtype: 'float64', aVec: false, bVec: false } });
 */
export function contraction(spec: ContractionSpec): LazyArray {
  const { plan } = spec;
  const grid = contractedGrid(plan);
  const total = grid.reduce((a, n) => a * n, 1);
  const g = Math.max(1, spec.groupSize ?? 4);
  const partials = Math.ceil(total / g);
  const single = partials <= 1;
  const params = { ...spec.params, unitAxis: !single };
  const chunks = single ? plan.outChunks : [...plan.outChunks, ones(partials)];
  const backend = dispatchLayer({
    kernel: spec.kernel,
    params,
    deps: plan.deps,
    chunks,
    dtype: spec.dtype,
    fn: spec.op,
  });
  // inputs read in place from the array they wrap: the task gets it, and the block's window
  const sources = plan.deps.map((d) =>
    spec.windowBackends?.has(backend?.name ?? 'cpu-js') ? wrappedSource(d) : undefined,
  );
  const windowed = sources.some((w) => w !== undefined);
  const deps = plan.deps.map((d, i) => sources[i] ?? d);
  const taskOf = (inputs: BlockRef[]): TaskSpec => {
    if (!windowed) return { kernel: spec.kernel, inputs, params };
    const windows = inputs.map(([dep, blk]): BlockWindow | null => {
      if (sources[dep] === undefined) return null;
      const { start, count } = plan.deps[dep]!.task(blk).params as BlockWindow;
      return { start, count };
    });
    const refs = inputs.map(([dep, blk]): BlockRef => (sources[dep] ? [dep, [0, 0]] : [dep, blk]));
    return { kernel: spec.kernel, inputs: refs, params: { ...params, windows } };
  };
  const partial = defineLayer({
    op: single ? spec.op : `${spec.op}-partial`,
    token: [
      ...spec.token,
      spec.kernel,
      spec.params,
      plan.outIndex,
      plan.inputs.map((x) => ('index' in x ? x.index : null)),
      g,
    ],
    deps,
    chunks,
    dtype: spec.dtype,
    backend,
    task: (b): TaskSpec => {
      const out = single ? b : b.slice(0, -1);
      const p = single ? 0 : b[b.length - 1]!;
      const to = single ? Math.max(total, 1) : Math.min(total, (p + 1) * g);
      return taskOf(groupInputs(plan, grid, out, p * g, to));
    },
  });
  let layer = partial;
  for (let level = 0; !single && layer.chunks.length > plan.outChunks.length; level++) {
    layer = sumLevel(spec, layer, plan.outChunks, level, backend);
  }
  return new LazyArray(layer);
}
