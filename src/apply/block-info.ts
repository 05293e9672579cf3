// The `blockInfo` a blockwise or mapBlocks kernel receives: where its output block and each
// input block sit in their arrays (Dask's block_info), from offsets computed once per layer.

import type { DType } from '../array/dtype.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import type { BlockInfo, BlockLocation } from '../backends/cpu-js/apply/blockwise.ts';
import { chunkOffsets } from '../chunking/blocks.ts';
import type { Size } from '../chunking/types.ts';
import { type BlockwisePlan, inputBlock } from './blockwise-plan.ts';

/** Starts of each block along an axis (length n + 1), `null` from the first unknown size on. */
function starts(chunks: readonly Size[]): Size[] {
  if (chunks.every((c) => c !== null)) return chunkOffsets(chunks as number[]);
  const out: Size[] = [0];
  for (const c of chunks) {
    const prev = out[out.length - 1]!;
    out.push(prev === null || c === null ? null : prev + c);
  }
  return out;
}

/** A function giving the location of any block of a chunking; `whole` axes span the array. */
function locator(
  chunks: readonly (readonly Size[])[],
  whole: readonly boolean[] = [],
): (block: readonly number[]) => BlockLocation {
  const offs = chunks.map(starts);
  const numChunks = chunks.map((c) => c.length);
  const shape = offs.map((o) => o[o.length - 1]!);
  return (block) => ({
    chunkLocation: block.map((i, ax) => (whole[ax] ? 0 : i)),
    arrayLocation: block.map((i, ax) =>
      whole[ax] ? ([0, shape[ax]!] as const) : ([offs[ax]![i]!, offs[ax]![i + 1]!] as const),
    ),
    numChunks,
    shape,
  });
}

/**
 * The blockInfo of every output block of a plan: the output's location, block shape and
 * dtype, and each array input's location (contracted axes span the whole axis).
 * @example
 * const info = blockInfoOf(plan, 'float64');
 * info([1, 0]).arrayLocation; // [[start, stop], [0, n0]]
 */
export function blockInfoOf(
  plan: BlockwisePlan,
  dtype: DType,
): (b: readonly number[]) => BlockInfo {
  const out = locator(plan.outChunks);
  const zeros = [...plan.contracted].map(() => 0);
  const inputs = plan.inputs.flatMap((x, k) => {
    if (!('array' in x)) return [];
    const a: LazyArray = x.array;
    const whole = [...x.index].map((l) => !plan.outIndex.includes(l));
    const loc = locator(a.chunks, whole);
    return [(b: readonly number[]) => loc(inputBlock(plan, k, b, zeros))];
  });
  return (b) => {
    const o = out(b);
    return {
      ...o,
      chunkShape: o.arrayLocation.map(([s, e]) => (s === null || e === null ? null : e - s)),
      dtype,
      inputs: inputs.map((f) => f(b)),
    };
  };
}
