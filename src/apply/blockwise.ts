// blockwise: apply a user function block by block in Dask's index notation ('ij' from 'ji',
// contractions over letters missing from the output, new axes, adjusted output chunks).

import { checkDType, type DType } from '../array/dtype.ts';
import { type ArrayData, asLazy } from '../array/from-array.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { NDArray } from '../array/ndarray.ts';
import type { BlockwiseArgSpec, BlockwiseFnParams } from '../backends/cpu-js/apply/blockwise.ts';
import { blocksOf } from '../chunking/blocks.ts';
import { formatValue } from '../chunking/format.ts';
import { hostInput } from '../devices/host-inputs.ts';
import { ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef, TaskSpec } from '../graph/layer.ts';
import { isAsyncFunction, toFnRef } from '../kernels/ship.ts';
import { blockInfoOf } from './block-info.ts';
import {
  type AdjustChunks,
  type BlockwiseInput,
  type BlockwisePlan,
  inputBlock,
  type NewAxis,
  planBlockwise,
} from './blockwise-plan.ts';
import { checkIsolate, type PlacementOptions } from './placement.ts';

export type { BlockInfo, BlockLocation } from '../backends/cpu-js/apply/blockwise.ts';
export type { AdjustChunks, NewAxis } from './blockwise-plan.ts';

/** A user kernel: receives blocks (or values), then kwargs if given, then `blockInfo`. */
export type BlockwiseFn = (...args: never[]) => unknown;

/** Options of `blockwise`: the output dtype, new axes and their chunks, chunk adjustments, whether contracted blocks are concatenated, and where the kernel runs. */
export interface BlockwiseOptions extends PlacementOptions {
  /** dtype of the result (required: the kernel is never run to find it). */
  readonly dtype: DType;
  /**
   * Output letters absent from the inputs: a length (one chunk), or explicit chunk sizes
   * (`{ q: [1, 1] }`: two blocks along q, the kernel called for each).
   */
  readonly newAxes?: Readonly<Record<string, NewAxis>>;
  /** Output chunk sizes per letter: one size for every block, a map, or explicit sizes. */
  readonly adjustChunks?: Readonly<Record<string, AdjustChunks>>;
  /** Concatenate the blocks of contracted letters into one block (default: nested lists). */
  readonly concatenate?: boolean;
  /** Rechunk arrays sharing a letter to common chunks (default true). */
  readonly alignArrays?: boolean;
  /** Passed to the kernel before `blockInfo` (structured-cloneable data). */
  readonly kwargs?: unknown;
  /** The layer's full name (default: the kernel's name and a hash of the expression). */
  readonly name?: string;
}

function isOptions(x: unknown): x is BlockwiseOptions {
  return (
    typeof x === 'object' &&
    x !== null &&
    !Array.isArray(x) &&
    !ArrayBuffer.isView(x) &&
    !(x instanceof LazyArray) &&
    !(x instanceof NDArray)
  );
}

/** Split `[...args, opts]`; the options object with a dtype is required. */
export function splitOptions<O>(fn: string, args: readonly unknown[]): [unknown[], O] {
  const last = args[args.length - 1];
  if (!isOptions(last) || (last as { dtype?: unknown }).dtype === undefined) {
    throw new ValueError(
      `${fn}: the output dtype is required as a last argument { dtype } (got ${describe(last)})`,
    );
  }
  return [args.slice(0, -1), last as O];
}

/** A short description of an argument for messages (never the contents of an array). */
function describe(x: unknown): string {
  if (x instanceof LazyArray) return `array '${x.name}'`;
  if (x instanceof NDArray || ArrayBuffer.isView(x)) return 'an array';
  if (Array.isArray(x)) return `a list of ${x.length}`;
  return formatValue(x);
}

/** Arrays take an index string: LazyArrays and eager data (NDArray, TypedArray, nested lists, numbers). */
export function isArrayData(x: unknown): boolean {
  return (
    x instanceof LazyArray ||
    x instanceof NDArray ||
    ArrayBuffer.isView(x) ||
    Array.isArray(x) ||
    typeof x === 'number' ||
    typeof x === 'boolean'
  );
}

function parsePairs(fn: string, pairs: readonly unknown[]): BlockwiseInput[] {
  if (pairs.length % 2 !== 0) {
    throw new ValueError(
      `${fn}: arguments must come in (array, index) pairs; got ${pairs.length} values`,
    );
  }
  const out: BlockwiseInput[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const [value, index] = [pairs[i], pairs[i + 1]];
    if (index === null || index === undefined) out.push({ value: checkValue(fn, value) });
    else if (typeof index !== 'string') {
      throw new ValueError(`${fn}: index ${formatValue(index)} must be a string or null`);
    } else if (!isArrayData(value)) {
      throw new ValueError(
        `${fn}: ${describe(value)} with index '${index}' is not an array; pass null as its index`,
      );
    } else out.push({ array: asLazy(value as ArrayData, fn), index });
  }
  return out;
}

/** Plain values travel to workers as data: functions cannot. */
export function checkValue(fn: string, value: unknown): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') {
    throw new ValueError(
      `${fn}: argument ${formatValue(String(value))} cannot be passed to a kernel; pass data, or use kwargs`,
    );
  }
  return value;
}

/** Letters of input k that are contracted, each once, with its first axis. */
function contractedAxes(plan: BlockwisePlan, k: number): { letters: string; axes: number[] } {
  const index = (plan.inputs[k] as { index: string }).index;
  let letters = '';
  const axes: number[] = [];
  for (let ax = 0; ax < index.length; ax++) {
    const l = index[ax]!;
    if (plan.contracted.includes(l) && !letters.includes(l)) {
      letters += l;
      axes.push(ax);
    }
  }
  return { letters, axes };
}

/** The task reading input blocks for one output block: shared by every blockwise kernel. */
function argSpecs(plan: BlockwisePlan, b: readonly number[], concat: boolean) {
  const inputs: BlockRef[] = [];
  const seen = new Map<string, number>();
  const ref = (dep: number, blk: number[]): number => {
    const key = `${dep}|${blk.join(',')}`;
    let i = seen.get(key);
    if (i === undefined) {
      i = inputs.push([dep, blk]) - 1;
      seen.set(key, i);
    }
    return i;
  };
  const args = plan.inputs.map((x, k): BlockwiseArgSpec => {
    if ('value' in x) return { value: x.value };
    const { letters, axes } = contractedAxes(plan, k);
    const cBlock = [...plan.contracted].map(() => 0);
    if (letters.length === 0) return { block: ref(plan.depOf[k]!, inputBlock(plan, k, b, cBlock)) };
    const grid = axes.map((ax) => x.array.chunks[ax]!.length);
    const blocks: number[] = [];
    for (const c of blocksOf(grid)) {
      c.forEach((i, d) => {
        cBlock[plan.contracted.indexOf(letters[d]!)] = i;
      });
      blocks.push(ref(plan.depOf[k]!, inputBlock(plan, k, b, cBlock)));
    }
    return { blocks, grid, axes, concat };
  });
  return { inputs, args };
}

/** Blockwise-fusable: no contraction, main-thread-free, and same-grid inputs read block b. */
function isFusable(plan: BlockwisePlan, inline: boolean): boolean {
  if (inline || plan.contracted.length > 0) return false;
  const grid = plan.outChunks.map((c) => c.length).join();
  return plan.inputs.every(
    (x) =>
      'value' in x ||
      x.index === plan.outIndex ||
      x.array.chunks.map((c) => c.length).join() !== grid,
  );
}

const opLabel = (fn: BlockwiseFn, fallback: string): string =>
  fn.name ? fn.name.replace(/[^A-Za-z0-9_]+/g, '_') : fallback;

/**
 * The layer of a user-function blockwise operation, for blockwise and mapBlocks.
 * @example
 * blockwiseFn('mapBlocks', double, 'ij', [{ array: x, index: 'ij' }], { dtype: 'float64' });
 */
export function blockwiseFn(
  caller: string,
  fn: BlockwiseFn,
  outIndex: string,
  inputs: readonly BlockwiseInput[],
  opts: BlockwiseOptions,
): LazyArray {
  inputs = inputs.map((x) =>
    'array' in x ? { ...x, array: hostInput(caller, x.array, opts.allowTransfer) } : x,
  );
  const dtype = checkDType(caller, opts.dtype);
  const ref = toFnRef(fn, caller, opts.inline ? { inline: true } : {});
  const plan = planBlockwise(caller, outIndex, inputs, opts);
  const concat = opts.concatenate ?? false;
  if (concat) {
    for (const x of plan.inputs) {
      if ('value' in x) continue;
      const repeated = [...plan.contracted].find((l) => x.index.split(l).length > 2);
      if (repeated !== undefined) {
        throw new ValueError(
          `${caller}: cannot concatenate along '${repeated}', repeated in index '${x.index}'`,
        );
      }
    }
  }
  const mainThread = ref.kind === 'inline';
  const isolated = checkIsolate(caller, opts);
  const infoOf = blockInfoOf(plan, dtype);
  const hasKwargs = opts.kwargs !== undefined;
  const kwargs = hasKwargs ? checkValue(caller, opts.kwargs) : undefined;
  const layer = defineLayer({
    op: opLabel(fn, caller === 'mapBlocks' ? 'map-blocks' : 'blockwise'),
    token: [
      caller,
      ref,
      fn,
      outIndex,
      plan.inputs.map((x) => ('value' in x ? { value: x.value } : x.index)),
      kwargs,
      opts.newAxes,
      opts.adjustChunks,
      concat,
    ],
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    deps: plan.deps,
    chunks: plan.outChunks,
    dtype,
    // an async or isolated fn's tasks run on their own: never a step of a fused task
    fusable: !isolated && !isAsyncFunction(fn) && isFusable(plan, mainThread),
    task: (b): TaskSpec => {
      const { inputs: refs, args } = argSpecs(plan, b, concat);
      const blockInfo = infoOf(b);
      const shape = plan.outChunks.map((c, ax) => c[b[ax]!]!);
      const params: BlockwiseFnParams = {
        fn: ref,
        caller,
        args,
        hasKwargs,
        ...(hasKwargs ? { kwargs } : {}),
        blockInfo,
        shape,
        dtype,
      };
      return {
        kernel: 'blockwise-fn',
        inputs: refs,
        params,
        ...(mainThread ? { mainThread } : {}),
        ...(isolated ? { isolated } : {}),
      };
    },
    meta: { fn: ref.name || 'anonymous', index: outIndex },
  });
  return new LazyArray(layer);
}

/**
 * Apply `fn` block by block in Dask's index notation. Arguments come in pairs: an array and
 * its index letters, or a plain value and `null`. Letters of the inputs missing from
 * `outIndex` are contracted: `fn` gets every block along them (nested lists, or one block
 * with `concatenate: true`). `fn` receives `(...args, kwargs?, blockInfo)` and returns an
 * NDArray, a bare TypedArray (reshaped to the block shape) or a number.
 * @example
 * // elementwise over two arrays (their chunks are aligned first)
 * const z = blockwise((a: NDArray, b: NDArray) => a.data.map((v, i) => v * b.data[i]!),
 *   'ij', x, 'ij', y, 'ij', { dtype: 'float64' });
 * // one total per row block: blocks along j are concatenated, each block gives a number
 * const s = blockwise((b: NDArray) => b.data.reduce((t, v) => t + v, 0), 'i', x, 'ij',
 *   { dtype: 'float64', concatenate: true, adjustChunks: { i: 1 } });
 */
export function blockwise(
  fn: BlockwiseFn,
  outIndex: string,
  ...args: [...unknown[], BlockwiseOptions]
): LazyArray {
  if (typeof outIndex !== 'string') {
    throw new ValueError(`blockwise: output index ${formatValue(outIndex)} must be a string`);
  }
  const [pairs, opts] = splitOptions<BlockwiseOptions>('blockwise', args);
  return blockwiseFn('blockwise', fn, outIndex, parsePairs('blockwise', pairs), opts);
}
