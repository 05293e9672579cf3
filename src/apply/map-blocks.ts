// mapBlocks: apply a user function to corresponding blocks of arrays (broadcast right-aligned,
// as Dask's map_blocks), with dropped axes, new axes and overridden output chunks.

import type { DType } from '../array/dtype.ts';
import { type ArrayData, asLazy } from '../array/from-array.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { NDArray } from '../array/ndarray.ts';
import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';
import { normalizeAxes } from './axis-args.ts';
import { type BlockwiseFn, blockwiseFn, checkValue, splitOptions } from './blockwise.ts';
import type { AdjustChunks, BlockwiseInput } from './blockwise-plan.ts';
import type { PlacementOptions } from './placement.ts';

/** Options of `mapBlocks`: the output dtype and chunks, dropped or new axes, and where the kernel runs. */
export interface MapBlocksOptions extends PlacementOptions {
  /** dtype of the result (required: the kernel is never run to find it). */
  readonly dtype: DType;
  /** Output chunks per axis: one size for every block, or explicit sizes. */
  readonly chunks?: readonly (number | readonly number[])[];
  /** Axes of the inputs the kernel removes (their blocks are concatenated first). */
  readonly dropAxis?: number | readonly number[];
  /** Axes the kernel adds, one chunk each (length 1 unless `chunks` says otherwise). */
  readonly newAxis?: number | readonly number[];
  /** Passed to the kernel before `blockInfo` (structured-cloneable data). */
  readonly kwargs?: unknown;
  /** The layer's full name (default: the kernel's name and a hash of the expression). */
  readonly name?: string;
}

/** Index letter of output axis k (single UTF-16 units; any number of axes). */
const letter = (k: number): string => String.fromCharCode(k < 26 ? 97 + k : 0x100 + k);

const isArrayArg = (x: unknown): boolean =>
  x instanceof LazyArray || x instanceof NDArray || ArrayBuffer.isView(x) || Array.isArray(x);

/** Output letters after dropping and inserting axes; new letters get lengths. */
function outputIndex(
  nd: number,
  opts: MapBlocksOptions,
): { outIndex: string; newLetters: string[]; dropped: number[] } {
  const dropped = opts.dropAxis === undefined ? [] : normalizeAxes('mapBlocks', opts.dropAxis, nd);
  const kept = [...Array(nd).keys()].filter((ax) => !dropped.includes(ax)).map(letter);
  if (opts.newAxis === undefined) return { outIndex: kept.join(''), newLetters: [], dropped };
  const added = Array.isArray(opts.newAxis) ? opts.newAxis.length : 1;
  const positions = normalizeAxes('mapBlocks', opts.newAxis, kept.length + added).sort(
    (a, b) => a - b,
  );
  const out = [...kept];
  const newLetters: string[] = [];
  positions.forEach((pos, i) => {
    const l = letter(nd + i);
    out.splice(pos, 0, l);
    newLetters.push(l);
  });
  return { outIndex: out.join(''), newLetters, dropped };
}

/** `chunks` as adjustChunks per output letter, and the lengths of new axes. */
function chunkOverrides(
  outIndex: string,
  newLetters: readonly string[],
  chunks: MapBlocksOptions['chunks'],
): { adjust: Record<string, AdjustChunks>; newAxes: Record<string, number> } {
  const newAxes: Record<string, number> = {};
  for (const l of newLetters) newAxes[l] = 1;
  if (chunks === undefined) return { adjust: {}, newAxes };
  if (!Array.isArray(chunks) || chunks.length !== outIndex.length) {
    throw new ValueError(
      `mapBlocks: chunks ${formatValue(chunks)} must give one entry for each of the ${outIndex.length} output axes`,
    );
  }
  const adjust: Record<string, AdjustChunks> = {};
  chunks.forEach((c: number | readonly number[], ax: number) => {
    const l = outIndex[ax]!;
    if (newLetters.includes(l)) {
      const sizes = typeof c === 'number' ? [c] : c;
      if (sizes.length !== 1) {
        throw new ValueError(
          `mapBlocks: new axis ${ax} has one chunk, got chunks ${formatValue(c)}`,
        );
      }
      newAxes[l] = sizes[0]!;
    } else adjust[l] = c;
  });
  return { adjust, newAxes };
}

/**
 * Apply `fn` to corresponding blocks of `arrays`: `fn(...blocks, kwargs?, blockInfo)`.
 * Arrays of lower rank are right-aligned (broadcast, as in Dask); non-array arguments
 * (numbers, strings, null) pass through. `blockInfo` gives the output block's
 * `chunkLocation`, `arrayLocation` and `numChunks`, and each input's in `inputs`.
 * @example
 * const y = mapBlocks((b: NDArray) => b.data.map((v) => v * 2), x, { dtype: x.dtype });
 * // the total of a 1-d array: its blocks are concatenated along the dropped axis
 * const total = mapBlocks((b: NDArray) => Array.from(b.data).reduce((a, v) => a + v, 0), v,
 *   { dtype: 'float64', dropAxis: 0, newAxis: 0 }); // shape [1]
 */
export function mapBlocks(fn: BlockwiseFn, ...args: [...unknown[], MapBlocksOptions]): LazyArray {
  const [values, opts] = splitOptions<MapBlocksOptions>('mapBlocks', args);
  const arrays = values.filter(isArrayArg).map((v) => asLazy(v as ArrayData, 'mapBlocks'));
  if (arrays.length === 0) {
    throw new ValueError(
      `mapBlocks: at least one array argument is required (got ${values.length} values)`,
    );
  }
  const nd = Math.max(...arrays.map((a) => a.ndim));
  const { outIndex, newLetters } = outputIndex(nd, opts);
  const { adjust, newAxes } = chunkOverrides(outIndex, newLetters, opts.chunks);
  let next = 0;
  const inputs = values.map((v): BlockwiseInput => {
    if (!isArrayArg(v)) return { value: checkValue('mapBlocks', v) };
    const a = arrays[next++]!;
    const index = [...Array(a.ndim).keys()].map((ax) => letter(nd - a.ndim + ax)).join('');
    return { array: a, index };
  });
  return blockwiseFn('mapBlocks', fn, outIndex, inputs, {
    dtype: opts.dtype,
    newAxes,
    adjustChunks: adjust,
    concatenate: true,
    ...(opts.kwargs !== undefined ? { kwargs: opts.kwargs } : {}),
    ...(opts.inline !== undefined ? { inline: opts.inline } : {}),
    ...(opts.isolate !== undefined ? { isolate: opts.isolate } : {}),
    ...(opts.allowTransfer !== undefined ? { allowTransfer: opts.allowTransfer } : {}),
    ...(opts.name !== undefined ? { name: opts.name } : {}),
  });
}
