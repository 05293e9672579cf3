// Public indexing: x.get (NumPy syntax, basic slicing plus one integer array via take),
// x.mask (boolean selection of unknown length) and x.set (a new array with a region replaced).

import { itemsize, type Scalar } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn, KnownIndex } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { type Complex, isComplexValue, NDArray } from '../array/ndarray.ts';
import { unravelBlock } from '../chunking/blocks.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { normalizeIndex, type SlicePiece, sliceChunks } from '../chunking/slicing.ts';
import type { AxisChunkSpec, Chunks, Size } from '../chunking/types.ts';
import { config } from '../config.ts';
import { ChunkError, DTypeError, IndexError, ShapeError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef, TaskSpec } from '../graph/layer.ts';
import { type Index, type IndexArg, toItems } from './index-items.ts';
import { rechunk } from './rechunk.ts';
import { sliceNormalized } from './slicing.ts';
import { takeLazy, takeWrapped } from './take.ts';

export type { Index, IndexArg } from './index-items.ts';

/**
 * Index `x` as NumPy does (`x.get(index)`): text (`'1:5, ::-1, None, ...'`), one item, or a
 * tuple of items (also given as several arguments: `x.get(1, 2)` is `x.get([1, 2])`):
 * integers, slices `{ start, stop, step }`, `null` (new axis), `'...'`, and at most one
 * array along one axis: integers (`number[]`, `Int32Array`, a 1-D int NDArray or a lazy
 * 1-D int array, read when the graph runs), or booleans of that axis' length (NumPy's
 * `x[:, mask]`). A bool LazyArray of x's shape as the whole index is `mask(x, m)`. Bad
 * indices raise IndexError when the expression is built.
 * @example
 * const x = arange(12, { chunks: 5 }).reshape([3, 4]);
 * getIndex(x, '1:, ::-2').shape; // [2, 2]
 * getIndex(x, [[2, 0], 1]).shape; // [2]
 * getIndex(x, [{}, [true, false, true, true]]).shape; // [3, 3]
 */
export function getIndex<X extends ArrayLike, I extends Index, M extends IndexArg[]>(
  x: X,
  index: I,
  ...more: M
): LazyArray<KnownIndex<KnownIn<[X]>, [I, ...M]>> {
  return indexed(x, index, more) as LazyArray<KnownIndex<KnownIn<[X]>, [I, ...M]>>;
}

/** getIndex, untyped in its sizes: `more` are the index items after the first. */
function indexed(x: ArrayLike, index: Index, more: readonly IndexArg[]): LazyArray {
  const a = asLazy(x, 'get');
  if (more.length > 0) return indexed(a, [index as IndexArg, ...more], []);
  if (index instanceof LazyArray) return maskOf('get', a, index);
  const { items, bool, lazy } = toItems('get', index);
  // a lazy index array stands in as a one-element list while the axes are placed
  const placed = lazy === undefined ? items : items.map((it, i) => (i === lazy.at ? [0] : it));
  const norm = normalizeIndex('get', placed, a.shape);
  const arrayAxis = norm.axes.findIndex((s) => s.kind === 'array');
  if (arrayAxis < 0) return sliceNormalized(a, norm);
  if (bool !== undefined && a.shape[arrayAxis] !== bool.length) {
    throw new IndexError(
      `get: bool index of length ${bool.length} does not match axis ${arrayAxis} of size ${a.shape[arrayAxis]}`,
    );
  }
  // Basic part first, with ':' where the array was; then gather along that axis.
  const pos = lazy?.at ?? items.findIndex((it) => Array.isArray(it) || it instanceof Int32Array);
  const basicItems = items.map((it, i) => (i === pos ? {} : it));
  const basic = normalizeIndex('get', basicItems, a.shape);
  const y = sliceNormalized(a, basic);
  const at = basic.outAxes.indexOf(arrayAxis);
  const front = norm.outAxes[0] === arrayAxis && at !== 0;
  if (lazy === undefined) {
    const sel = norm.axes[arrayAxis]!;
    return takeWrapped(y, Int32Array.from(sel.kind === 'array' ? sel.indices : []), at, front);
  }
  if (front) {
    throw new IndexError(
      'get: a lazy index array separated from the other indexed axes by an integer is not supported; index in two steps',
    );
  }
  return takeLazy('get', y, lazy.array, at);
}

/** Mask and array must agree in shape; unknown axes must share their chunks. */
function checkMask(fn: string, x: LazyArray, m: LazyArray): void {
  if (m.dtype !== 'bool') {
    throw new DTypeError(`${fn}: mask has dtype '${m.dtype}'; a bool array is needed`);
  }
  const xs = x.shape;
  const ms = m.shape;
  if (ms.length !== xs.length || ms.some((s, ax) => s !== xs[ax])) {
    throw new ShapeError(
      `${fn}: mask shape ${formatTuple(ms)} does not match array shape ${formatTuple(xs)}`,
    );
  }
  x.chunks.forEach((c, ax) => {
    const mc = m.chunks[ax]!;
    if (xs[ax] === null && (mc.length !== c.length || mc.some((v, i) => v !== c[i]))) {
      throw new ChunkError(
        `${fn}: axis ${ax} has unknown size with different chunks in mask and array; call computeChunkSizes() first`,
      );
    }
  });
}

/**
 * `a` with every axis but the first in one chunk, so that blocks in C order hold the
 * elements in C order (as Dask's ravel before a boolean index). Bands taller than
 * config.chunkBytes get 'auto' rows.
 */
function rowBands(fn: string, a: LazyArray): LazyArray {
  if (a.ndim <= 1) return a;
  const spec: Record<number, AxisChunkSpec> = {};
  let rest: number | null = itemsize(a.dtype);
  a.chunks.forEach((c, ax) => {
    if (ax === 0) return;
    if (c.includes(null) && c.length > 1) {
      throw new ChunkError(
        `${fn}: axis ${ax} has unknown chunk sizes ${formatTuple(c)} and must be joined to flatten in C order; call computeChunkSizes() first`,
      );
    }
    const n = a.shape[ax]!;
    if (n !== null) spec[ax] = -1;
    rest = n === null || rest === null ? null : rest * n;
  });
  const rows = a.chunks[0]!;
  if (rest !== null && !rows.includes(null)) {
    const tallest = (rows as number[]).reduce((m, r) => Math.max(m, r), 0);
    if (tallest * rest > config.chunkBytes) spec[0] = 'auto';
  }
  return rechunk(a, spec);
}

/**
 * The elements of `x` where the bool array `m` (same shape) is true, flattened in C order
 * (`x.mask(m)`, NumPy's `x[m]`). The result is 1-D of unknown length: one chunk of unknown
 * size per block, after joining every axis but the first (so blocks follow C order).
 * @example
 * const x = arange(10, { chunks: 4 });
 * const y = mask(x, greater(x, 6)); // y.shape: [null]
 * await compute(y); // [7, 8, 9]
 */
export function mask(x: ArrayLike, m: ArrayLike): LazyArray {
  return maskOf('mask', asLazy(x, 'mask'), asLazy(m, 'mask'));
}

function maskOf(fn: string, x: LazyArray, m: LazyArray): LazyArray {
  checkMask(fn, x, m);
  if (x.ndim >= 2 && bandsFit(x)) return maskBands(x, rechunk(m, x.chunks));
  const a = rowBands(fn, x);
  const mr = rechunk(m, a.chunks);
  const grid = a.numBlocks;
  const n = grid.reduce((p, g) => p * g, 1);
  const layer = defineLayer({
    op: 'mask',
    deps: [a.layer, mr.layer],
    chunks: [new Array<Size>(n).fill(null)],
    dtype: a.dtype,
    fusable: false,
    task: (b) => {
      const blk = unravelBlock(b[0]!, grid);
      return {
        kernel: 'compress',
        inputs: [
          [0, blk],
          [1, blk],
        ],
      };
    },
  });
  return new LazyArray(layer);
}

/** Whether a band of x's blocks (one along axis 0, all along the rest) fits config.chunkBytes. */
function bandsFit(x: LazyArray): boolean {
  const rows = x.chunks[0]!;
  if (rows.includes(null) || x.shape.slice(1).includes(null)) return true;
  const tallest = (rows as number[]).reduce((mx, r) => Math.max(mx, r), 0);
  const rest = (x.shape.slice(1) as number[]).reduce((p, s) => p * s, 1);
  return tallest * rest * itemsize(x.dtype) <= config.chunkBytes;
}

/**
 * The mask as one 'compress-band' task per block row of `x` (2-D and up): each reads the
 * row's blocks of x and of the mask and writes the selected values in C order, so neither
 * is rechunked into row bands first.
 */
function maskBands(x: LazyArray, m: LazyArray): LazyArray {
  const grid = x.numBlocks;
  const rest = grid.slice(1);
  const nb = rest.reduce((p, g) => p * g, 1);
  const params = { grid: rest };
  const layer = defineLayer({
    op: 'mask',
    deps: [x.layer, m.layer],
    chunks: [new Array<Size>(grid[0]!).fill(null)],
    dtype: x.dtype,
    fusable: false,
    task: (b) => {
      const blocks: number[][] = [];
      for (let k = 0; k < nb; k++) blocks.push([b[0]!, ...unravelBlock(k, rest)]);
      const inputs: BlockRef[] = [
        ...blocks.map((blk): BlockRef => [0, blk]),
        ...blocks.map((blk): BlockRef => [1, blk]),
      ];
      return { kernel: 'compress-band', inputs, params };
    },
  });
  return new LazyArray(layer);
}

/** Check that `v` broadcasts to `target` (right-aligned, size-1 axes stretch). */
function checkBroadcast(v: LazyArray, target: readonly Size[]): void {
  const lead = target.length - v.ndim;
  const bad = () =>
    new ShapeError(
      `set: value of shape ${formatTuple(v.shape)} does not broadcast to the selection's shape ${formatTuple(target)}`,
    );
  if (lead < 0) throw bad();
  v.shape.forEach((s, j) => {
    const t = target[j + lead]!;
    if (s === 1) return;
    if (s === null || t === null) {
      throw new ChunkError(
        `set: value of shape ${formatTuple(v.shape)} and selection of shape ${formatTuple(target)} have unknown sizes; call computeChunkSizes() first`,
      );
    }
    if (s !== t) throw bad();
  });
}

/** A value array rechunked so each axis lines up with `targetChunks` (size-1 axes stay [1]). */
function alignValue(v: LazyArray, targetChunks: readonly (readonly Size[] | null)[]): LazyArray {
  const lead = targetChunks.length - v.ndim;
  const chunks: Chunks = v.chunks.map((c, j) =>
    v.shape[j] === 1 ? [1] : [...(targetChunks[j + lead] ?? c)],
  );
  return rechunk(v, chunks);
}

function maskSet(x: LazyArray, m: LazyArray, value: Scalar | ArrayLike): LazyArray {
  checkMask('set', x, m);
  const mr = rechunk(m, x.chunks);
  const scalar = typeof value === 'number' || typeof value === 'boolean';
  const v = scalar ? undefined : asLazy(value, 'set');
  if (v) checkBroadcast(v, x.shape);
  const vr = v ? alignValue(v, x.chunks) : undefined;
  const lead = x.ndim - (vr?.ndim ?? 0);
  const layer = defineLayer({
    op: 'setitem-mask',
    token: [scalar ? Number(value) : null],
    deps: vr ? [x.layer, mr.layer, vr.layer] : [x.layer, mr.layer],
    chunks: x.chunks,
    dtype: x.dtype,
    fusable: vr === undefined || vr.numBlocks.join() === x.numBlocks.join(),
    task: (b) => {
      const inputs: BlockRef[] = [
        [0, b],
        [1, b],
      ];
      if (vr) inputs.push([2, vr.shape.map((s, j) => (s === 1 ? 0 : b[j + lead]!))]);
      return { kernel: 'where-set', inputs, params: scalar ? { scalar: Number(value) } : {} };
    },
  });
  return new LazyArray(layer);
}

/** Per input axis: the slice piece (and its index along the selection) each block holds. */
function piecesByBlock(pieces: readonly SlicePiece[]): Map<number, [number, SlicePiece]> {
  const out = new Map<number, [number, SlicePiece]>();
  pieces.forEach((p, i) => {
    if (p.count !== 0) out.set(p.block, [i, p]);
  });
  return out;
}

/**
 * A new array equal to `x` except where `index` selects, which takes `value` (`x.set`).
 * `index`: integers, slices (any step), `null`, `'...'` (text or items), or a bool
 * LazyArray of x's shape. `value`: a scalar, or an array broadcastable to the selection
 * (for a mask: to x's shape, as `where(m, value, x)`). Values are cast to x's dtype.
 * @example
 * const x = zeros([4, 4], { chunks: 2 });
 * setIndex(x, '1:3, ::3', 7); // rows 1-2, columns 0 and 3 set to 7
 */
export function setIndex<X extends ArrayLike, V extends Scalar | ArrayLike | Complex>(
  x: X,
  index: Index,
  given: V,
): LazyArray<KnownIn<[X, V]>> {
  const a = asLazy(x, 'set');
  // a complex scalar is set as the 0-d complex128 array it is (cast to x's dtype, or refused)
  const value: Scalar | ArrayLike = isComplexValue(given)
    ? new NDArray(Float64Array.of(given.re, given.im), [], 'complex128')
    : (given as Scalar | ArrayLike);
  if (index instanceof LazyArray) return maskSet(a, index, value) as LazyArray<KnownIn<[X, V]>>;
  const { items, lazy } = toItems('set', index);
  if (lazy !== undefined) {
    throw new IndexError(
      `set: a lazy index array ${lazy.array.name} is not supported; use ints, slices, null and '...'`,
    );
  }
  for (const it of items) {
    if (Array.isArray(it) || it instanceof Int32Array) {
      throw new IndexError(
        `set: integer-array index ${formatValue(it)} is not supported; use ints, slices, null and '...'`,
      );
    }
  }
  const norm = normalizeIndex('set', items, a.shape);
  const plan = sliceChunks(a.chunks, norm.axes);
  const scalar = typeof value === 'number' || typeof value === 'boolean';
  const v = scalar ? undefined : asLazy(value, 'set');
  if (v) checkBroadcast(v, norm.shape);
  if (norm.shape.includes(0)) return a as LazyArray<KnownIn<[X, V]>>;
  const byBlock = plan.axes.map((ax) => piecesByBlock(ax.pieces));
  const keptChunks = plan.axes.map((ax) => (ax.keep ? ax.chunks : null));
  const vr = v
    ? alignValue(
        v,
        norm.outAxes.map((ax) => (ax === null ? null : keptChunks[ax]!)),
      )
    : undefined;
  const keep = norm.outAxes.map((ax) => ax ?? -1);
  const lead = keep.length - (vr?.ndim ?? 0);
  const task = (b: readonly number[]): TaskSpec => {
    const hit = b.map((i, ax) => byBlock[ax]!.get(i));
    if (hit.some((h) => h === undefined)) return { kernel: 'passthrough', inputs: [[0, b]] };
    const ps = hit.map((h) => h![1]);
    const inputs: BlockRef[] = [[0, b]];
    if (vr) {
      const vb = vr.shape.map((s, j) => (s === 1 ? 0 : hit[keep[j + lead]!]![0]));
      inputs.push([1, vb]);
    }
    const params = {
      start: ps.map((p) => p.start),
      step: ps.map((p) => p.step),
      count: ps.map((p) => p.count),
      keep,
      ...(scalar ? { scalar: Number(value) } : {}),
    };
    return { kernel: 'set-region', inputs, params };
  };
  const layer = defineLayer({
    op: 'setitem',
    token: [norm.axes, norm.outAxes, scalar ? Number(value) : null],
    deps: vr ? [a.layer, vr.layer] : [a.layer],
    chunks: a.chunks,
    dtype: a.dtype,
    fusable: vr === undefined,
    task,
  });
  return new LazyArray(layer);
}
