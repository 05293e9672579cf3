// lazyApply: wrap an eager kernel with declared output shapes and dtypes (array-api-extra's
// lazy_apply): inputs gathered whole, or only along core axes with one task per other block.

import { LazyArray } from '../array/lazy-array.ts';
import type { ApplyArg, LazyApplyParams } from '../backends/cpu-js/apply/apply.ts';
import { blockShape, chunkOffsets } from '../chunking/blocks.ts';
import { formatTuple } from '../chunking/format.ts';
import type { Chunks, Size } from '../chunking/types.ts';
import { unifyChunks } from '../chunking/unify.ts';
import { moveLayer } from '../devices/device-scope.ts';
import { firstGpuDevice, hostInput } from '../devices/host-inputs.ts';
import { ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef, Layer } from '../graph/layer.ts';
import {
  type LazyApplyArg,
  type LazyApplyOptions,
  type LazyApplyPlan,
  planLazyApply,
} from './lazy-apply-args.ts';
import type {
  ApplyArgs,
  ApplyKernel,
  KwargsPart,
  MultiOutput,
  SingleOptions,
} from './lazy-apply-types.ts';
import { rechunk } from './rechunk.ts';

export type { LazyApplyArg, LazyApplyOptions } from './lazy-apply-args.ts';
export type { ApplyArgFor, ApplyArgs, ApplyKernel, ApplyKwargs } from './lazy-apply-types.ts';

/** An array input after rechunking: `gathered` input axes are assembled inside the task. */
interface PreparedInput {
  readonly array: LazyArray;
  /** nd - ndim: inputs are right-aligned against the broadcast ndim. */
  readonly offset: number;
  /** Core axes in several blocks: every block along them goes to the task. */
  readonly gathered: readonly number[];
  /** Wrapped data read in place: each task slices its region out of the one source block. */
  readonly source?: { readonly layer: Layer; readonly offsets: readonly number[][] };
}

/** The block grid every task of the call runs over, in the inputs' broadcast ndim. */
interface Grid {
  readonly inputs: readonly PreparedInput[];
  /** Chunks per broadcast axis: non-core axes from the inputs, core axes one (unsized) block. */
  readonly chunks: Chunks;
  readonly core: ReadonlySet<number>;
}

const FN = 'lazyApply';

/**
 * Run an eager kernel lazily. By default every array argument is rechunked to one chunk and
 * `fn` runs once on the whole arrays; with `axis`, only those core axes are made whole and
 * `fn` runs once per block of the other axes. Scalars and `null` reach `fn` in place, kwargs
 * last. `fn` may return an NDArray, a TypedArray, a number or nested number arrays; results
 * are coerced to the declared shape (`null` = unknown size) and dtype. Several shapes give
 * several outputs (fn returns an array of results; it runs once for all of them).
 * A JS array as `args` is the argument list: pass nested-array data as `[data]`. Layer
 * names and task keys read `lazy-apply-<fn name or opts.name>-<hash>`. `asHost` is accepted
 * and a no-op while every array lives on the CPU. A typed kernel types the call: each NDArray
 * parameter takes an array, scalars keep their types, and a trailing object parameter is the
 * kwargs, which `opts.kwargs` must then supply (`lazyApply<(a: NDArray, b: NDArray) => NDArray>`
 * checks a call against that signature).
 * @example
 * const sortRows = (x: NDArray) => {
 *   const out = x.data.slice();
 *   for (let i = 0; i < out.length; i += x.shape[1]!) out.subarray(i, i + x.shape[1]!).sort();
 *   return out;
 * };
 * const y = lazyApply(sortRows, x, { axis: 1 }); // one task per row block
 * const [u, n] = lazyApply(uniqueCounts, x, { shape: [[null], [null]], dtype: ['float64', 'int32'] });
 */
export function lazyApply<F extends ApplyKernel>(
  fn: F,
  args: ApplyArgs<F>,
  opts: LazyApplyOptions & MultiOutput & KwargsPart<F>,
): LazyArray[];
export function lazyApply<F extends ApplyKernel>(
  fn: F,
  args: ApplyArgs<F>,
  ...opts: SingleOptions<F>
): LazyArray;
export function lazyApply(
  fn: Function,
  args: LazyApplyArg | readonly LazyApplyArg[],
  opts: LazyApplyOptions = {},
): LazyArray | LazyArray[] {
  const list: readonly unknown[] = Array.isArray(args) ? args : [args];
  const back = opts.asHost === true ? firstGpuDevice(list) : undefined;
  const hosted = list.map((a) => hostInput('lazyApply', a, opts.allowTransfer)) as LazyApplyArg[];
  const out = lazyApplyHost(fn, Array.isArray(args) ? hosted : hosted[0]!, opts);
  if (back === undefined) return out;
  return Array.isArray(out) ? out.map((o) => moveLayer(o, back)) : moveLayer(out, back);
}

function lazyApplyHost(
  fn: Function,
  args: LazyApplyArg | readonly LazyApplyArg[],
  opts: LazyApplyOptions,
): LazyArray | LazyArray[] {
  const plan = planLazyApply(fn, args, opts);
  const grid = prepareGrid(plan);
  const outChunks = plan.shapes.map((s) => outputChunks(plan, grid, s));
  if (!plan.multi) {
    const layer = applyLayer(plan, grid, outChunks, outChunks[0]!, (b) => toGrid(plan, grid, b));
    return new LazyArray(layer);
  }
  const tuple = applyLayer(
    plan,
    grid,
    outChunks,
    grid.chunks.map((c, g) => (grid.core.has(g) ? [null] : c)),
    (b) => [...b],
  );
  return outChunks.map((chunks, k) => {
    const layer = defineLayer({
      op: `lazy-apply-${plan.label}-out${k}`,
      token: [k],
      deps: [tuple],
      chunks,
      dtype: plan.dtypes[k]!,
      fusable: true,
      task: (b) => ({ kernel: 'pick', inputs: [[0, toGrid(plan, grid, b)]], params: { index: k } }),
    });
    return new LazyArray(layer);
  });
}

/** Rechunk inputs: core axes to one chunk, the others to their common chunks. */
function prepareGrid(plan: LazyApplyPlan): Grid {
  const nd = plan.ndim;
  const core = new Set(plan.core ?? Array.from({ length: nd }, (_, g) => g));
  const coreToOne = (a: LazyArray): { shape: Size[]; chunks: Size[][] } => {
    const o = nd - a.ndim;
    return {
      shape: a.shape.map((s, i) => (core.has(i + o) ? 1 : s)),
      chunks: a.chunks.map((c, i) => (core.has(i + o) ? [1] : [...c])),
    };
  };
  const unified = core.size === nd ? null : unifyChunks(FN, plan.arrays.map(coreToOne), nd).chunks;
  const inputs = plan.arrays.map((a) => prepareInput(a, nd - a.ndim, core, unified));
  const chunks = Array.from({ length: nd }, (_, g) => (core.has(g) ? [null] : unified![g]!));
  return { inputs, chunks, core };
}

/**
 * Core axes in several blocks are gathered: the task takes every block along them and
 * concatenates them itself (Dask's blockwise concatenate=True), with no rechunk layer.
 * Wrapped data (fromArray) is not copied out block by block first: each task slices its whole
 * region out of the data. A rechunk is kept only where non-core axes must be split or merged
 * (one pass does both; a rechunk of wrapped data also reads it in place, see inline-sources).
 */
function prepareInput(
  a: LazyArray,
  offset: number,
  core: ReadonlySet<number>,
  unified: Chunks | null,
): PreparedInput {
  const nonCore = a.chunks.map((c, i) => {
    const g = i + offset;
    if (core.has(g) || a.shape[i] === 1) return c;
    return sameSizes(c, unified![g]!) ? c : unified![g]!;
  });
  const aligned = nonCore.every((c, i) => c === a.chunks[i]);
  const source = aligned ? wrappedSource(a) : undefined;
  if (source) {
    const offsets = (a.chunks as number[][]).map(chunkOffsets);
    return { array: a, offset, gathered: [], source: { layer: source, offsets } };
  }
  const gathered: number[] = [];
  let changed = !aligned;
  const target = nonCore.map((c, i) => {
    if (!core.has(i + offset) || c.length === 1) return c;
    if (c.includes(null) || aligned) {
      gathered.push(i);
      return c;
    }
    changed = true;
    return [(c as number[]).reduce((s, v) => s + v, 0)];
  });
  return { array: changed ? rechunk(a, target) : a, offset, gathered };
}

/** The one in-memory block that fromArray's blocks are slices of, if `a` is such an array. */
function wrappedSource(a: LazyArray): Layer | undefined {
  const l = a.layer;
  const src = l.deps[0];
  if (l.op !== 'from-array' || l.deps.length !== 1 || src?.constant === undefined) return undefined;
  return src.chunks.every((c) => c.length === 1) ? src : undefined;
}

function sameSizes(a: readonly Size[], b: readonly Size[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Chunks of one output: non-core axes follow the grid, core axes are one block. */
function outputChunks(plan: LazyApplyPlan, grid: Grid, shape: readonly Size[]): Chunks {
  if (plan.core === null) return shape.map((s) => [s]);
  const keepsCore = shape.length === plan.ndim;
  const axes = Array.from({ length: plan.ndim }, (_, g) => g).filter(
    (g) => keepsCore || !grid.core.has(g),
  );
  return axes.map((g, ax) => {
    const declared = shape[ax]!;
    if (grid.core.has(g)) return [declared];
    const have = grid.chunks[g]!;
    if (declared === null) return have.map(() => null);
    const total = have.includes(null) ? null : (have as number[]).reduce((s, v) => s + v, 0);
    if (total !== null && total !== declared) {
      throw new ValueError(
        `${FN}: shape ${formatTuple(shape)} declares ${declared} on axis ${ax}, which is not a ` +
          `core axis; the inputs have ${total} there`,
      );
    }
    return [...have];
  });
}

/** The grid block that output block `b` comes from (0 on core axes). */
function toGrid(plan: LazyApplyPlan, grid: Grid, b: readonly number[]): number[] {
  if (plan.core === null) return new Array<number>(plan.ndim).fill(0);
  if (b.length === plan.ndim) return [...b];
  let next = 0;
  return Array.from({ length: plan.ndim }, (_, g) => (grid.core.has(g) ? 0 : b[next++]!));
}

/** Output block of output `chunks` computed by grid block `gb` (inverse of toGrid). */
function fromGrid(plan: LazyApplyPlan, grid: Grid, chunks: Chunks, gb: readonly number[]) {
  if (plan.core === null) return chunks.map(() => 0);
  if (chunks.length === plan.ndim) return [...gb];
  return gb.filter((_, g) => !grid.core.has(g));
}

/** The task inputs of grid block `gb` and how fn's arguments are cut from them. */
function taskInputs(plan: LazyApplyPlan, grid: Grid, gb: readonly number[]) {
  const inputs: BlockRef[] = [];
  const perArray = grid.inputs.map((inp, j): ApplyArg => {
    const first = inputs.length;
    const { chunks } = inp.array;
    if (inp.source) {
      inputs.push([j, chunks.map(() => 0)]);
      return { first, count: 1, grid: chunks.map(() => 1), slice: sourceRegion(grid, inp, gb) };
    }
    const base = chunks.map((c, i) => (c.length === 1 ? 0 : gb[i + inp.offset]!));
    const sub = chunks.map((c, i) => (inp.gathered.includes(i) ? c.length : 1));
    const count = sub.reduce((p, v) => p * v, 1);
    for (let flat = 0; flat < count; flat++) {
      const block = [...base];
      let rest = flat;
      for (let i = sub.length - 1; i >= 0; i--) {
        if (sub[i]! > 1) block[i] = rest % sub[i]!;
        rest = Math.floor(rest / sub[i]!);
      }
      inputs.push([j, block]);
    }
    return { first, count, grid: sub };
  });
  const args = plan.slots.map((s): ApplyArg => ('array' in s ? perArray[s.array]! : s));
  return { inputs, args };
}

/** The region of wrapped data that grid block `gb` reads: whole along core axes. */
function sourceRegion(grid: Grid, inp: PreparedInput, gb: readonly number[]) {
  const chunks = inp.array.chunks as number[][];
  const offsets = inp.source!.offsets;
  const start: number[] = [];
  const count: number[] = [];
  chunks.forEach((c, i) => {
    const whole = c.length === 1 || grid.core.has(i + inp.offset);
    const b = whole ? 0 : gb[i + inp.offset]!;
    start.push(offsets[i]![b]!);
    count.push(whole ? offsets[i]![c.length]! : c[b]!);
  });
  return { start, count };
}

/** The layer running fn: one task per block of `chunks` (the output, or the grid for tuples). */
function applyLayer(
  plan: LazyApplyPlan,
  grid: Grid,
  outChunks: readonly Chunks[],
  chunks: Chunks,
  gridBlock: (b: readonly number[]) => number[],
): Layer {
  return defineLayer({
    op: `lazy-apply-${plan.label}`,
    token: [
      plan.fn,
      plan.slots,
      plan.kwargsToken,
      plan.hasKwargs,
      plan.shapes,
      plan.dtypes,
      plan.core,
      plan.multi,
    ],
    deps: grid.inputs.map((i) => i.source?.layer ?? i.array.layer),
    chunks,
    dtype: plan.dtypes[0]!,
    // not fusable: its tasks keep their own keys (with fn's name) and the user's function
    // stays one step that errors can name
    fusable: false,
    meta: { fn: plan.fn.name, outputs: plan.shapes.length },
    task: (b) => {
      const gb = gridBlock(b);
      const { inputs, args } = taskInputs(plan, grid, gb);
      const params: LazyApplyParams = {
        fn: plan.fn,
        args,
        hasKwargs: plan.hasKwargs,
        ...(plan.hasKwargs ? { kwargs: plan.kwargs } : {}),
        outputs: outChunks.map((c, k) => ({
          shape: blockShape(c, fromGrid(plan, grid, c, gb)),
          dtype: plan.dtypes[k]!,
        })),
        multi: plan.multi,
      };
      return {
        kernel: 'lazy-apply',
        inputs,
        params,
        ...(plan.mainThread ? { mainThread: true } : {}),
        ...(plan.isolated ? { isolated: true } : {}),
      };
    },
  });
}
