// Index-notation planning for blockwise operations (Dask's make_blockwise_graph): chunks
// aligned per index letter, the output block grid, and the input blocks each output block reads.

import type { LazyArray } from '../array/lazy-array.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import type { Chunks, Size } from '../chunking/types.ts';
import { commonRefinement } from '../chunking/unify.ts';
import { ChunkError, ShapeError, ValueError } from '../errors.ts';
import type { Layer } from '../graph/layer.ts';
import { rechunk } from './rechunk.ts';

/** One argument of a blockwise operation: an array with its index letters, or a plain value. */
export type BlockwiseInput =
  | { readonly array: LazyArray; readonly index: string }
  | { readonly value: unknown };

/** How an output index's chunks change: every chunk one size, a map of sizes, or explicit sizes. */
export type AdjustChunks = number | ((c: number) => number) | readonly number[];

/** A new output axis: its length (one chunk), or its chunk sizes (one block each). */
export type NewAxis = number | readonly number[];

export interface BlockwisePlanOptions {
  /** Output letters absent from the inputs: a length (one chunk) or explicit chunk sizes. */
  readonly newAxes?: Readonly<Record<string, NewAxis>>;
  readonly adjustChunks?: Readonly<Record<string, AdjustChunks>>;
  /** Rechunk arrays sharing a letter to their common chunks (default true). */
  readonly alignArrays?: boolean;
}

export interface BlockwisePlan {
  readonly outIndex: string;
  /** The inputs, arrays rechunked where alignment needed it. */
  readonly inputs: readonly BlockwiseInput[];
  /** Distinct input layers; `depOf[k]` is input k's position here (-1 for values). */
  readonly deps: readonly Layer[];
  readonly depOf: readonly number[];
  readonly outChunks: Chunks;
  /** Letters of the inputs that are not in the output: summed over / concatenated. */
  readonly contracted: string;
  /** Aligned chunks per letter (before adjustChunks). */
  readonly letterChunks: ReadonlyMap<string, readonly Size[]>;
}

const isArrayInput = (x: BlockwiseInput): x is { array: LazyArray; index: string } => 'array' in x;

function checkIndices(fn: string, outIndex: string, inputs: readonly BlockwiseInput[]): void {
  if (new Set(outIndex).size !== outIndex.length) {
    throw new ValueError(`${fn}: output index '${outIndex}' repeats a letter`);
  }
  for (const x of inputs) {
    if (isArrayInput(x) && x.index.length !== x.array.ndim) {
      throw new ValueError(
        `${fn}: index '${x.index}' has ${x.index.length} letters for an array of ${x.array.ndim} dimensions`,
      );
    }
  }
}

/** Axes of every array that carry `letter`, as [input, axis] pairs. */
function axesOf(inputs: readonly BlockwiseInput[], letter: string): [number, number][] {
  const out: [number, number][] = [];
  inputs.forEach((x, k) => {
    if (!isArrayInput(x)) return;
    for (let ax = 0; ax < x.index.length; ax++) if (x.index[ax] === letter) out.push([k, ax]);
  });
  return out;
}

const sameSizes = (a: readonly Size[], b: readonly Size[]): boolean =>
  a.length === b.length && a.every((v, i) => v === b[i]);

const total = (c: readonly Size[]): Size =>
  c.some((v) => v === null) ? null : (c as number[]).reduce((s, v) => s + v, 0);

/** The chunks of one letter: identical, or refined when aligning; a single chunk of 1 broadcasts. */
function unifyLetter(
  fn: string,
  letter: string,
  parts: readonly (readonly Size[])[],
  align: boolean,
): readonly Size[] {
  const wide = parts.filter((c) => !(c.length === 1 && c[0] === 1));
  if (wide.length === 0) return [1];
  const first = wide[0]!;
  if (wide.every((c) => sameSizes(c, first))) return first;
  const sizes = wide.map(total);
  if (sizes.some((s) => s === null)) {
    if (!align && wide.every((c) => c.length === first.length)) return first;
    throw new ChunkError(
      `${fn}: index '${letter}' has chunks ${wide.map(formatTuple).join(' and ')} of unknown size; ` +
        'call computeChunkSizes(x) first',
    );
  }
  if (sizes.some((s) => s !== sizes[0])) {
    throw new ShapeError(
      `${fn}: index '${letter}' has lengths ${formatTuple([...new Set(sizes)])} in different arrays`,
    );
  }
  if (!align) {
    if (wide.every((c) => c.length === first.length)) return first;
    throw new ValueError(
      `${fn}: index '${letter}' has chunks ${wide.map(formatTuple).join(' and ')} and alignArrays is false`,
    );
  }
  let out = first as readonly number[];
  for (const c of wide.slice(1)) out = commonRefinement(out, c as readonly number[]);
  return out;
}

function adjust(fn: string, letter: string, chunks: readonly Size[], spec: AdjustChunks): Size[] {
  if (typeof spec === 'number') return chunks.map(() => checkSize(fn, letter, spec));
  if (typeof spec === 'function') {
    return chunks.map((c) => (c === null ? null : checkSize(fn, letter, spec(c))));
  }
  if (!Array.isArray(spec) || spec.length !== chunks.length) {
    throw new ValueError(
      `${fn}: adjustChunks for '${letter}' is ${formatValue(spec)}, expected ${chunks.length} chunk sizes`,
    );
  }
  return spec.map((c) => checkSize(fn, letter, c));
}

function checkSize(fn: string, letter: string, n: unknown): number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    throw new ValueError(`${fn}: chunk size ${formatValue(n)} for index '${letter}' is not a size`);
  }
  return n;
}

/** Rechunk the arrays whose chunks differ from the aligned chunks of their letters. */
function alignInputs(
  inputs: readonly BlockwiseInput[],
  letterChunks: ReadonlyMap<string, readonly Size[]>,
): BlockwiseInput[] {
  return inputs.map((x) => {
    if (!isArrayInput(x)) return x;
    const target = x.array.chunks.map((c, ax) => {
      const want = letterChunks.get(x.index[ax]!)!;
      return c.length === 1 && c[0] === 1 ? c : want;
    });
    if (target.every((c, ax) => sameSizes(c, x.array.chunks[ax]!))) return x;
    return { array: rechunk(x.array, target as number[][]), index: x.index };
  });
}

/**
 * Plan a blockwise operation: validate indices, align chunks per letter, derive output chunks.
 * @example
 * const plan = planBlockwise('blockwise', 'ij', [{ array: x, index: 'ji' }], {});
 * plan.outChunks; // x's chunks, transposed
 */
export function planBlockwise(
  fn: string,
  outIndex: string,
  inputs: readonly BlockwiseInput[],
  opts: BlockwisePlanOptions = {},
): BlockwisePlan {
  checkIndices(fn, outIndex, inputs);
  const newAxes = opts.newAxes ?? {};
  const letters = new Set<string>();
  for (const x of inputs) if (isArrayInput(x)) for (const l of x.index) letters.add(l);
  for (const [l, n] of Object.entries(newAxes)) {
    if (letters.has(l) || !outIndex.includes(l)) {
      throw new ValueError(
        `${fn}: new axis '${l}' must be in the output index '${outIndex}' and in no input index`,
      );
    }
    if (Array.isArray(n)) {
      if (n.length === 0) {
        throw new ValueError(`${fn}: new axis '${l}' has no chunks; give its length or sizes`);
      }
      for (const c of n) checkSize(fn, l, c);
    } else checkSize(fn, l, n);
  }
  for (const l of outIndex) {
    if (!letters.has(l) && !(l in newAxes)) {
      throw new ValueError(`${fn}: output index '${l}' appears in no input and not in newAxes`);
    }
  }
  const align = opts.alignArrays ?? true;
  const letterChunks = new Map<string, readonly Size[]>();
  for (const l of letters) {
    const parts = axesOf(inputs, l).map(([k, ax]) => {
      const x = inputs[k] as { array: LazyArray };
      return x.array.chunks[ax]!;
    });
    letterChunks.set(l, unifyLetter(fn, l, parts, align));
  }
  const aligned = align ? alignInputs(inputs, letterChunks) : [...inputs];
  const outChunks = [...outIndex].map((l) => {
    const given = newAxes[l];
    const base =
      given === undefined ? letterChunks.get(l)! : typeof given === 'number' ? [given] : given;
    const spec = opts.adjustChunks?.[l];
    return spec === undefined ? [...base] : adjust(fn, l, base, spec);
  });
  for (const l of Object.keys(opts.adjustChunks ?? {})) {
    if (!outIndex.includes(l)) {
      throw new ValueError(
        `${fn}: adjustChunks names '${l}', which is not in the output index '${outIndex}'`,
      );
    }
  }
  const deps: Layer[] = [];
  const depOf = aligned.map((x) => {
    if (!isArrayInput(x)) return -1;
    const i = deps.indexOf(x.array.layer);
    return i >= 0 ? i : deps.push(x.array.layer) - 1;
  });
  const contracted = [...letters].filter((l) => !outIndex.includes(l)).join('');
  return { outIndex, inputs: aligned, deps, depOf, outChunks, contracted, letterChunks };
}

/** Blocks along each contracted letter. */
export function contractedGrid(plan: BlockwisePlan): number[] {
  return [...plan.contracted].map((l) => plan.letterChunks.get(l)!.length);
}

/**
 * The block of array input `k` read for output block `outBlock` and contracted block
 * `cBlock` (one index per letter of `plan.contracted`). Broadcast axes read block 0.
 */
export function inputBlock(
  plan: BlockwisePlan,
  k: number,
  outBlock: readonly number[],
  cBlock: readonly number[],
): number[] {
  const x = plan.inputs[k] as { array: LazyArray; index: string };
  const chunks = x.array.chunks;
  return [...x.index].map((l, ax) => {
    if (chunks[ax]!.length === 1) return 0;
    const o = plan.outIndex.indexOf(l);
    return o >= 0 ? outBlock[o]! : cBlock[plan.contracted.indexOf(l)]!;
  });
}

/** True when input `k` is an array. */
export function isArrayAt(plan: BlockwisePlan, k: number): boolean {
  return isArrayInput(plan.inputs[k]!);
}
