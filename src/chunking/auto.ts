// 'auto' chunk sizes: blocks of about `limitBytes`, after Dask's auto_chunks
// (dask/array/core.py): keep the previous chunks' aspect ratio, else as square as possible.

import type { Size } from './types.ts';

/** What autoChunks needs besides the axes: the byte budget, element size, earlier chunks. */
export interface AutoChunkOptions {
  /** Target bytes per block. */
  readonly limitBytes: number;
  /** Bytes per element. */
  readonly itemsize: number;
  /** Chunks the array had before (rechunk): auto axes grow or shrink them proportionally. */
  readonly previousChunks?: readonly (readonly Size[])[];
}

/**
 * Block sizes for the 'auto' axes of `blockSizes`; other entries are fixed block sizes
 * (the largest chunk on that axis) and come back unchanged. Auto axes must have a known
 * size in `shape`. A block holds at most `limitBytes` unless the fixed axes alone (with
 * every auto axis at 1) already exceed it. If the whole array fits, auto axes are whole.
 * @example
 * autoChunks(['auto', 'auto'], [1000, 1000], { limitBytes: 80_000, itemsize: 8 }); // [100, 100]
 * autoChunks(['auto', 10], [1000, 10], { limitBytes: 8_000, itemsize: 8 }); // [100, 10]
 */
export function autoChunks(
  blockSizes: readonly (number | 'auto')[],
  shape: readonly Size[],
  opts: AutoChunkOptions,
): number[] {
  const limit = Math.max(1, opts.limitBytes) / opts.itemsize;
  const result = blockSizes.map((b) => (b === 'auto' ? 1 : b));
  const autos: number[] = [];
  let fixed = 1;
  for (let ax = 0; ax < blockSizes.length; ax++) {
    const n = shape[ax] ?? 0;
    if (blockSizes[ax] !== 'auto') fixed *= Math.max(1, result[ax]!);
    else if (n === 0)
      result[ax] = 0; // an empty axis is one empty chunk
    else autos.push(ax);
  }
  if (autos.length === 0) return result;
  const whole = autos.reduce((p, ax) => p * (shape[ax] as number), fixed);
  if (whole <= limit) {
    for (const ax of autos) result[ax] = shape[ax] as number;
    return result;
  }
  const prev = opts.previousChunks;
  if (prev) scaleLikePrevious(result, autos, shape as readonly number[], prev, limit / fixed);
  else squareBlocks(result, autos, shape as readonly number[], limit / fixed);
  fitInto(result, autos, fixed, limit);
  return result;
}

/** As cubic as possible: axes shorter than the ideal side are taken whole. */
function squareBlocks(
  result: number[],
  autos: readonly number[],
  shape: readonly number[],
  budget: number,
): void {
  let active = [...autos];
  for (;;) {
    const side = integerRoot(budget, active.length);
    const small = active.filter((ax) => shape[ax]! < side);
    if (small.length === 0) {
      for (const ax of active) result[ax] = Math.max(1, Math.min(side, shape[ax]!));
      return;
    }
    for (const ax of small) {
      result[ax] = shape[ax]!;
      budget /= shape[ax]!;
    }
    active = active.filter((ax) => !small.includes(ax));
    if (active.length === 0) return;
  }
}

/** The largest integer w with w ** n <= x (at least 1). */
function integerRoot(x: number, n: number): number {
  let w = Math.max(1, Math.floor(x ** (1 / n)));
  while (w > 1 && w ** n > x) w--;
  while ((w + 1) ** n <= x) w++;
  return w;
}

/**
 * Dask's proportional scaling: start from the median previous chunk per auto axis, scale
 * all by the same factor, take axes whole when they overflow, round to multiples of the
 * previous regular chunk size; repeat until stable.
 */
function scaleLikePrevious(
  result: number[],
  autos: readonly number[],
  shape: readonly number[],
  prev: readonly (readonly Size[])[],
  budget: number,
): void {
  const size = new Map<number, number>();
  const ideal = new Map<number, number>();
  for (const ax of autos) {
    const known = (prev[ax] ?? []).filter((c): c is number => c !== null && c > 0);
    size.set(ax, known.length > 0 ? median(known) : shape[ax]!);
    ideal.set(ax, regularSize(known) ?? shape[ax]!);
  }
  const multiplier = (): number => {
    let p = 1;
    for (const v of size.values()) p *= v;
    return budget / p;
  };
  let m = multiplier();
  for (let iter = 0; iter < 100 && size.size > 0; iter++) {
    const lastM = m;
    const lastCount = size.size;
    const factor = m ** (1 / size.size);
    for (const [ax, v] of [...size]) {
      const proposed = v * factor;
      if (proposed > shape[ax]!) {
        size.delete(ax);
        result[ax] = shape[ax]!;
        budget /= shape[ax]!;
      } else size.set(ax, roundTo(proposed, ideal.get(ax)!));
    }
    m = multiplier();
    if (m === lastM && size.size === lastCount) break;
  }
  for (const [ax, v] of size) result[ax] = v;
}

/** Dask's round_to: below `s` take the floor; above, the largest multiple of `s`. */
function roundTo(c: number, s: number): number {
  return c <= s ? Math.max(1, Math.floor(c)) : Math.floor(c / s) * s;
}

/** The most frequent chunk if it is > 1 and makes up at least half of the chunks. */
function regularSize(chunks: readonly number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const c of chunks) counts.set(c, (counts.get(c) ?? 0) + 1);
  let mode = 0;
  let count = 0;
  for (const [c, k] of counts) {
    if (k > count) [mode, count] = [c, k];
  }
  return mode > 1 && count >= chunks.length / 2 ? mode : undefined;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Rounding can overshoot the budget a little: shrink the largest auto axes until it fits. */
function fitInto(result: number[], autos: readonly number[], fixed: number, limit: number): void {
  let elems = autos.reduce((p, ax) => p * result[ax]!, fixed);
  const bySize = [...autos].sort((a, b) => result[b]! - result[a]!);
  for (const ax of bySize) {
    if (elems <= limit) return;
    const others = elems / result[ax]!;
    result[ax] = Math.max(1, Math.floor(limit / others));
    elems = others * result[ax]!;
  }
}
