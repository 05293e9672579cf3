// Chunk planning for reshape, after Dask's reshape_rechunk: which input chunks a reshape
// needs so that every output block is the reshape of exactly one input block.
//
// Axes of size 1 are set aside; the rest split into minimal groups whose sizes multiply to
// the same product on both sides. Inside a group the input axes flatten to one "virtual"
// axis: a block is a contiguous run of it when the axes before some pivot axis have unit
// chunks and the axes after it are whole. The output splits that axis again: inner output
// axes whole, so every virtual chunk must be a multiple of their product. Groups that fail
// either test are rechunked: inner input axes whole, outer axis split (to keep block sizes)
// and then coarsened to the multiples the output needs.

/** A group of input axes whose flattening equals that of a group of output axes. */
export interface ReshapeGroup {
  readonly inAxes: readonly number[];
  readonly outAxes: readonly number[];
  /** Per chunk of the outer output axis: the block indices along `inAxes` it reads. */
  readonly blocks: readonly (readonly number[])[];
}

export interface ReshapePlan {
  /** The input chunking the reshape reads (the input's own when no rechunk is needed). */
  readonly inChunks: number[][];
  readonly outChunks: number[][];
  readonly groups: readonly ReshapeGroup[];
}

const product = (xs: readonly number[]): number => xs.reduce((a, b) => a * b, 1);

/**
 * Split each chunk into about `factor` pieces (Dask's expand_tuple), so that making the
 * inner axes of a merge whole does not multiply block sizes.
 * @example
 * expandChunks([4, 5], 2); // [2, 2, 2, 3]
 */
export function expandChunks(chunks: readonly number[], factor: number): number[] {
  if (factor <= 1) return [...chunks];
  const out: number[] = [];
  for (const c of chunks) {
    let left = c;
    const part = Math.max(Math.floor(c / factor), 1);
    while (left >= 2 * part) {
      out.push(part);
      left -= part;
    }
    if (left > 0) out.push(left);
  }
  return out;
}

/**
 * Merge chunks so every one is a multiple of `factor` (Dask's contract_tuple); the total
 * must be a multiple of `factor`.
 * @example
 * contractChunks([2, 2, 8, 4], 4); // [4, 8, 4]
 */
export function contractChunks(chunks: readonly number[], factor: number): number[] {
  const out: number[] = [];
  let residual = 0;
  for (const c of chunks) {
    const total = c + residual;
    const good = total - (total % factor);
    residual = total % factor;
    if (good > 0) out.push(good);
  }
  return out;
}

/** Minimal groups of non-unit axes with equal products (sizes must multiply to the same total). */
function groupAxes(
  inShape: readonly number[],
  outShape: readonly number[],
): [number[], number[]][] {
  const ins = inShape.flatMap((n, ax) => (n === 1 ? [] : [ax]));
  const outs = outShape.flatMap((n, ax) => (n === 1 ? [] : [ax]));
  const groups: [number[], number[]][] = [];
  let i = 0;
  let o = 0;
  while (i < ins.length && o < outs.length) {
    const gi = [ins[i]!];
    const go = [outs[o]!];
    let pi = inShape[ins[i]!]!;
    let po = outShape[outs[o]!]!;
    while (pi !== po) {
      if (pi < po) {
        gi.push(ins[++i]!);
        pi *= inShape[ins[i]!]!;
      } else {
        go.push(outs[++o]!);
        po *= outShape[outs[o]!]!;
      }
    }
    groups.push([gi, go]);
    i++;
    o++;
  }
  return groups;
}

/**
 * Virtual chunks of a group flattened in C order, with the input block each comes from,
 * when blocks are contiguous runs; null when they are not.
 */
function contiguousRuns(
  axes: readonly number[],
  shape: readonly number[],
  chunks: readonly (readonly number[])[],
): { sizes: number[]; blocks: number[][] } | null {
  let p = axes.length - 1;
  while (p > 0 && chunks[axes[p]!]!.length === 1) p--;
  for (let k = 0; k < p; k++) if (chunks[axes[k]!]!.some((c) => c !== 1)) return null;
  const inner = product(axes.slice(p + 1).map((ax) => shape[ax]!));
  const outer = axes.slice(0, p).map((ax) => shape[ax]!);
  const pivotChunks = chunks[axes[p]!]!;
  const sizes: number[] = [];
  const blocks: number[][] = [];
  const idx = new Array<number>(outer.length).fill(0);
  for (let n = product(outer); n > 0; n--) {
    pivotChunks.forEach((c, k) => {
      sizes.push(c * inner);
      blocks.push([...idx, k, ...new Array<number>(axes.length - p - 1).fill(0)]);
    });
    for (let ax = outer.length - 1; ax >= 0; ax--) {
      if (++idx[ax]! < outer[ax]!) break;
      idx[ax] = 0;
    }
  }
  return { sizes, blocks };
}

/**
 * Plan a reshape of a chunked array (known sizes, equal totals, total > 0).
 * @example
 * planReshape([6, 4], [24], [[2, 2, 2], [4]]).outChunks; // [[8, 8, 8]] (no rechunk)
 */
export function planReshape(
  inShape: readonly number[],
  outShape: readonly number[],
  chunks: readonly (readonly number[])[],
): ReshapePlan {
  const inChunks = chunks.map((c, ax) => (inShape[ax] === 1 ? [1] : [...c]));
  const outChunks = outShape.map((n) => [n]);
  const groups: ReshapeGroup[] = [];
  for (const [inAxes, outAxes] of groupAxes(inShape, outShape)) {
    const csOut = product(outAxes.slice(1).map((ax) => outShape[ax]!));
    let runs = contiguousRuns(inAxes, inShape, inChunks);
    if (runs === null || runs.sizes.some((s) => s % csOut !== 0)) {
      const innerIn = product(inAxes.slice(1).map((ax) => inShape[ax]!));
      const reduction = product(inAxes.slice(1).map((ax) => inChunks[ax]!.length));
      const m = csOut / gcd(csOut, innerIn);
      const outer = inAxes[0]!;
      inChunks[outer] = contractChunks(expandChunks(inChunks[outer]!, reduction), m);
      for (const ax of inAxes.slice(1)) inChunks[ax] = [inShape[ax]!];
      runs = contiguousRuns(inAxes, inShape, inChunks)!;
    }
    outChunks[outAxes[0]!] = runs.sizes.map((s) => s / csOut);
    groups.push({ inAxes, outAxes, blocks: runs.blocks });
  }
  return { inChunks, outChunks, groups };
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
