// The graph generator of every elementwise operation: one fusable 'ew' layer per call.
// Inputs broadcast (NumPy rules) and are rechunked to their common refinement where needed.

import type { DType, Scalar } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { exprKey } from '../backends/cpu-js/elementwise/ew-codegen.ts';
import type { EwParams, Expr } from '../backends/cpu-js/elementwise/expr.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import type { Chunks, Size } from '../chunking/types.ts';
import { unifyChunks } from '../chunking/unify.ts';
import { ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef } from '../graph/layer.ts';
import { dispatchLayer } from './dispatch-layer.ts';
import { rechunk } from './rechunk.ts';

/** What elementwise functions take: arrays (lazy or eager) and JS numbers/BigInts/booleans (weak). */
export type Operand = ArrayLike | Scalar | bigint;

/** One argument as an op builder sees it: its expression leaf and its type. */
export interface EwArg {
  readonly leaf: Expr;
  /** The dtype of an array argument, or the weak scalar itself. */
  readonly type: DType | Scalar;
}

/** What an op builder returns: the expression over the leaves and the result dtype. */
export interface EwBuild {
  readonly expr: Expr;
  readonly dtype: DType;
}

/** The multiplier of the block count at which unifying chunks warns. */
export const BLOCK_GROWTH_WARNING = 10;

const isScalar = (v: unknown): v is Scalar => typeof v === 'number' || typeof v === 'boolean';

function checkOperand(fn: string, v: unknown, i: number): void {
  if (isScalar(v) || v instanceof LazyArray || ArrayBuffer.isView(v) || Array.isArray(v)) return;
  if (typeof v === 'bigint') return;
  if (v !== null && typeof v === 'object' && 'shape' in v && 'data' in v) return;
  throw new ValueError(
    `${fn}: argument ${i} ${formatValue(v)} is not an array, a number, a BigInt or a boolean`,
  );
}

/**
 * A BigInt scalar (`x.add(1n)` on int64 data) as the weak number it equals; one a number
 * cannot hold exactly is refused rather than rounded.
 */
function bigScalar(fn: string, v: Operand): ArrayLike | Scalar {
  if (typeof v !== 'bigint') return v;
  if (v >= -(2n ** 53n) && v <= 2n ** 53n) return Number(v);
  throw new ValueError(
    `${fn}: scalar ${v}n is beyond ±2^53, which elementwise scalars cannot hold exactly yet; pass it as an array (full([], ${v}n))`,
  );
}

/** An op node. */
export function node(op: string, args: readonly Expr[], dtype: DType): Expr {
  return { op, args, dtype };
}

/**
 * Build one elementwise layer over `args`. `build` receives a leaf and a type per
 * argument and returns the expression and the result dtype; it validates dtypes.
 * Repeated arrays (same name) become one input. At least one argument must be an array.
 * @example
 * elementwise('add', [x, 1], ([a, b]) => ({ expr: node('add', [a!.leaf, b!.leaf], x.dtype), dtype: x.dtype }));
 */
export function elementwise(
  fn: string,
  args: readonly Operand[],
  build: (args: readonly EwArg[]) => EwBuild,
): LazyArray {
  const inputs: LazyArray[] = [];
  const ewArgs = args.map((given, i): EwArg => {
    checkOperand(fn, given, i);
    const v = bigScalar(fn, given);
    if (isScalar(v)) return { leaf: { const: Number(v) }, type: v };
    const a = asLazy(v, fn);
    let k = inputs.findIndex((x) => x.name === a.name);
    if (k < 0) k = inputs.push(a) - 1;
    return { leaf: { in: k }, type: a.dtype };
  });
  if (inputs.length === 0) {
    throw new ValueError(
      `${fn}: at least one argument must be an array, got only scalars ${args.map(formatValue).join(', ')}`,
    );
  }
  const { expr, dtype } = build(ewArgs);
  return ewLayer(fn, inputs, expr, dtype);
}

/** The layer of `expr` over `inputs` (the leaves `{ in: k }` index `inputs`). */
export function ewLayer(
  fn: string,
  inputs: readonly LazyArray[],
  expr: Expr,
  dtype: DType,
): LazyArray {
  const unified = unifyChunks(
    fn,
    inputs.map((x) => ({ shape: x.shape, chunks: x.chunks })),
  );
  if (unified.blockMultiplier >= BLOCK_GROWTH_WARNING) {
    const grids = inputs.map((x) => formatTuple(x.numBlocks)).join(' and ');
    process.emitWarning(
      `${fn}: aligning inputs with ${grids} blocks gives ` +
        `${formatTuple(unified.chunks.map((c) => c.length))} blocks, ` +
        `${Math.round(unified.blockMultiplier)}x the largest input; ` +
        'rechunk the inputs to a common chunking first',
      { type: 'PerformanceWarning', code: 'TESSERA_CHUNK_GROWTH' },
    );
  }
  const chunks = unified.chunks;
  const aligned = inputs.map((x) => alignInput(x, chunks));
  const nd = chunks.length;
  const grids = aligned.map((x) => x.numBlocks);
  const direct = grids.every((g) => sameGrid(g, chunks));
  const params: EwParams = { expr, dtype };
  const key = exprKey(expr);
  const deps = aligned.map((x) => x.layer);
  const backend = dispatchLayer({ kernel: 'ew', params, deps, chunks, dtype, fn });
  const refsOf = (b: readonly number[]): BlockRef[] =>
    grids.map((g, k): BlockRef => {
      if (direct) return [k, b];
      const lead = nd - g.length;
      return [k, g.map((n, ax) => (n === 1 ? 0 : b[lead + ax]!))];
    });
  const layer = defineLayer({
    op: fn,
    token: [key],
    deps,
    chunks,
    dtype,
    backend,
    fusable: true,
    task: (b) => ({ kernel: 'ew', inputs: refsOf(b), params }),
    meta: { expr: key },
  });
  return new LazyArray(layer);
}

/** Whether block grid `g` is the grid of `chunks` (as many axes, as many blocks on each). */
function sameGrid(g: readonly number[], chunks: Chunks): boolean {
  if (g.length !== chunks.length) return false;
  for (let ax = 0; ax < g.length; ax++) if (g[ax] !== chunks[ax]!.length) return false;
  return true;
}

/**
 * `x` with the chunks of the output on its (right-aligned) axes; axes where `x` has size
 * 1 stay one block, broadcast to every output block.
 */
function alignInput(x: LazyArray, outChunks: Chunks): LazyArray {
  const lead = outChunks.length - x.ndim;
  const shape = x.shape;
  const chunks = x.chunks;
  // the common case first: x already has the output's chunks (no arrays made)
  let same = true;
  for (let ax = 0; ax < chunks.length && same; ax++) {
    const t = shape[ax] === 1 ? ONE : outChunks[lead + ax]!;
    const c = chunks[ax]!;
    if (t.length !== c.length) same = false;
    for (let i = 0; i < t.length && same; i++) if (t[i] !== c[i]) same = false;
  }
  if (same) return x;
  const target: Size[][] = chunks.map((_c, ax) => (shape[ax] === 1 ? [1] : outChunks[lead + ax]!));
  return rechunk(x, target as Chunks);
}

const ONE: readonly Size[] = Object.freeze([1]);
