// pad (numpy.pad): each padded axis gets new edge chunks — a constant block, or the
// elements the mode maps to gathered by take — concatenated around the untouched interior.

import { full } from '../array/creation.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { formatValue } from '../chunking/format.ts';
import { regularChunks } from '../chunking/normalize.ts';
import { boundarySource, type EdgeRule } from '../chunking/overlap-plan.ts';
import { ChunkError, ValueError } from '../errors.ts';
import { concat } from './concat.ts';
import { takeWrapped } from './take.ts';

/** numpy.pad's modes that tessera implements. */
export type PadMode = 'constant' | 'edge' | 'reflect' | 'symmetric' | 'wrap';

/** Widths: one for every side, `[before, after]` for every axis, or one entry per axis. */
export type PadWidths =
  | number
  | readonly [number, number]
  | readonly (number | readonly [number, number])[];

/** Options of pad. */
export interface PadOptions {
  /** How the new elements are filled (default 'constant', as NumPy's). */
  readonly mode?: PadMode;
  /** Mode 'constant': the fill, as widths are given (one, `[before, after]`, per axis); default 0. */
  readonly constantValues?: PadWidths;
}

/** Where each non-constant mode takes an element past the edge (overlap's edge rules). */
const RULES: Record<Exclude<PadMode, 'constant'>, EdgeRule> = {
  edge: 'nearest',
  reflect: 'mirror',
  symmetric: 'reflect',
  wrap: 'periodic',
};

/** `spec` broadcast to `[before, after]` per axis, as numpy.pad broadcasts its widths. */
function perAxisPairs(fn: string, what: string, spec: unknown, ndim: number): [number, number][] {
  const bad = () =>
    new ValueError(
      `${fn}: ${what} ${formatValue(spec)} must be a number, [before, after], or one entry per axis (${ndim})`,
    );
  const pair = (v: unknown): [number, number] => {
    if (typeof v === 'number') return [v, v];
    if (Array.isArray(v) && v.length === 2 && v.every((e) => typeof e === 'number')) {
      return [v[0], v[1]];
    }
    if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'number') return [v[0], v[0]];
    throw bad();
  };
  if (typeof spec === 'number') return Array.from({ length: ndim }, () => pair(spec));
  if (!Array.isArray(spec)) throw bad();
  if (spec.length === 2 && spec.every((e) => typeof e === 'number')) {
    return Array.from({ length: ndim }, () => pair(spec));
  }
  if (spec.length === 1) return Array.from({ length: ndim }, () => pair(spec[0]));
  if (spec.length !== ndim) throw bad();
  return spec.map(pair);
}

function checkWidths(fn: string, widths: readonly [number, number][]): void {
  widths.forEach((w, ax) => {
    for (const v of w) {
      if (!Number.isSafeInteger(v) || v < 0) {
        throw new ValueError(
          `${fn}: pad width ${formatValue(v)} on axis ${ax} is not a non-negative integer`,
        );
      }
    }
  });
}

/** The piece of `width` elements before (side 0) or after (side 1) `x` along `axis`. */
function edgePiece(
  x: LazyArray,
  axis: number,
  width: number,
  side: 0 | 1,
  mode: PadMode,
  value: number,
): LazyArray {
  const n = x.shape[axis] as number;
  if (mode === 'constant') {
    const shape = x.shape.map((s, ax) => (ax === axis ? width : s)) as number[];
    const own = regularChunks(width, Math.max(1, ...(x.chunks[axis] as number[])));
    const chunks = x.chunks.map((c, ax) => (ax === axis ? own : [...c])) as number[][];
    return full(shape, value, { dtype: x.dtype, chunks });
  }
  const idx = new Int32Array(width);
  for (let i = 0; i < width; i++) {
    const g = side === 0 ? i - width : n + i;
    idx[i] = boundarySource(g, n, RULES[mode]);
  }
  return takeWrapped(x, idx, axis);
}

/**
 * `x` padded by `widths` elements before and after each axis (numpy.pad): `mode`
 * 'constant' fills with `constantValues` (default 0), 'edge' repeats the edge element,
 * 'reflect' mirrors without repeating it, 'symmetric' mirrors repeating it, 'wrap' wraps
 * around; widths beyond the axis fold around again, as NumPy's do ('wrap' strictly
 * periodic, as in NumPy 2). Widths are one number,
 * `[before, after]` for every axis, or one entry per axis. Chunk-aware: the interior keeps
 * its chunks and every padded side adds its own edge chunk (gathered from the blocks
 * that hold its source elements), as in Dask; axes are padded one after another, so
 * corners take the later axis's rule, as NumPy's do.
 * @example
 * pad(fromArray([1, 2, 3], { chunks: 2 }), [2, 1], { mode: 'reflect' }).compute(); // [3, 2, 1, 2, 3, 2]
 */
export function pad<X extends ArrayLike>(
  x: X,
  widths: PadWidths,
  opts: PadOptions = {},
): LazyArray<KnownIn<[X]>> {
  const fn = 'pad';
  const a: LazyArray = asLazy(x, fn);
  const mode = opts.mode ?? 'constant';
  if (mode !== 'constant' && !Object.hasOwn(RULES, mode)) {
    throw new ValueError(
      `${fn}: mode ${formatValue(mode)} must be 'constant', 'edge', 'reflect', 'symmetric' or 'wrap'`,
    );
  }
  const w = perAxisPairs(fn, 'widths', widths, a.ndim);
  checkWidths(fn, w);
  const values = perAxisPairs(fn, 'constantValues', opts.constantValues ?? 0, a.ndim);
  if (a.chunks.some((c) => c.includes(null))) {
    throw new ChunkError(`${fn}: x has unknown chunk sizes; call computeChunkSizes(x) first`);
  }
  let y: LazyArray = a;
  w.forEach(([before, after], axis) => {
    if (before === 0 && after === 0) return;
    if (y.shape[axis] === 0 && mode !== 'constant') {
      throw new ValueError(`${fn}: axis ${axis} is empty; mode '${mode}' has nothing to extend`);
    }
    const parts: LazyArray[] = [];
    if (before > 0) parts.push(edgePiece(y, axis, before, 0, mode, values[axis]![0]));
    parts.push(y);
    if (after > 0) parts.push(edgePiece(y, axis, after, 1, mode, values[axis]![1]));
    y = concat(parts, { axis });
  });
  return y as LazyArray<KnownIn<[X]>>;
}
