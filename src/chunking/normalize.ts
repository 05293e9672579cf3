// normalizeChunks: the only door from a user's chunk spec to explicit chunk sizes per axis.
// After Dask's normalize_chunks; 'auto' axes are sized by autoChunks.

import { type DType, itemsize } from '../array/dtype.ts';
import { config } from '../config.ts';
import { ChunkError, ShapeError, ValueError } from '../errors.ts';
import { autoChunks } from './auto.ts';
import { formatTuple, formatValue } from './format.ts';
import type { AxisChunkSpec, ChunkSpec, Chunks, Size } from './types.ts';

/** Options of normalizeChunks. */
export interface NormalizeChunksOptions {
  /** Element type for 'auto' (default float64). */
  readonly dtype?: DType;
  /** Target bytes per block for 'auto' (default config.chunkBytes). */
  readonly limitBytes?: number;
  /** The array's current chunks: kept for `null` axes and unknown sizes, shape 'auto'. */
  readonly previousChunks?: readonly (readonly Size[])[];
  /** Function name for error messages (default 'normalizeChunks'). */
  readonly fn?: string;
}

/** One axis after expanding the spec: a block size, 'auto', explicit sizes, or keep (null). */
type AxisSpec = AxisChunkSpec | undefined;

/**
 * Explicit chunk sizes per axis from any chunk spec: a block size for every axis, -1 (whole
 * axis), 'auto' (blocks of about `limitBytes`), one entry per axis (number, -1, 'auto',
 * `null` = keep `previousChunks` or whole axis, explicit sizes), a record keyed by axis
 * (missing axes are kept), or explicit `number[][]`. `undefined` means 'auto'. For a 1-D
 * shape, a flat list of several sizes is read as explicit sizes (as Dask does).
 * Block sizes are clipped to the axis; the last chunk is ragged; an empty axis is `[0]`.
 * On an axis of unknown size (`null`), only explicit sizes (which may hold `null`) are
 * accepted; other specs keep `previousChunks`, else `ChunkError`.
 * @example
 * normalizeChunks(3, [10]); // [[3, 3, 3, 1]]
 * normalizeChunks([-1, 2], [3, 5]); // [[3], [2, 2, 1]]
 * normalizeChunks({ 1: 2 }, [3, 4]); // [[3], [2, 2]]
 */
export function normalizeChunks(
  spec: ChunkSpec | Chunks | undefined,
  shape: readonly Size[],
  opts: NormalizeChunksOptions = {},
): Chunks {
  const fn = opts.fn ?? 'normalizeChunks';
  checkShape(fn, shape);
  const prev = opts.previousChunks;
  if (prev !== undefined && prev.length !== shape.length) {
    throw new ChunkError(
      `${fn}: previous chunks ${formatValue(prev)} have ${prev.length} axes, shape ${formatTuple(shape)} has ${shape.length}`,
    );
  }
  const specs = expandSpec(fn, spec ?? 'auto', shape);
  checkBlockCount(
    fn,
    specs.map((s, ax) => blocksOnAxis(s, shape[ax]!, prev?.[ax])),
    shape,
  );
  const out: (Size[] | 'auto')[] = specs.map((s, ax) => resolveAxis(fn, s, shape, ax, prev));
  if (!out.includes('auto')) return out as Chunks;
  const limitBytes = opts.limitBytes ?? config.chunkBytes;
  if (!(limitBytes > 0)) {
    throw new ValueError(`${fn}: limitBytes ${formatValue(limitBytes)} is not a positive number`);
  }
  const sizes = autoChunks(
    out.map((c) => (c === 'auto' ? 'auto' : largest(c))),
    shape,
    { limitBytes, itemsize: itemsize(opts.dtype ?? 'float64'), previousChunks: prev },
  );
  checkBlockCount(
    fn,
    out.map((c, ax) => (c === 'auto' ? Math.ceil((shape[ax] as number) / sizes[ax]!) : c.length)),
    shape,
  );
  return out.map((c, ax) => (c === 'auto' ? regularChunks(shape[ax] as number, sizes[ax]!) : c));
}

/** Blocks an axis spec gives, computed without building the sizes (1 when not yet known). */
function blocksOnAxis(s: AxisSpec, n: Size, kept: readonly Size[] | undefined): number {
  if (Array.isArray(s)) return s.length;
  if (typeof s === 'number' && s >= 1 && n !== null) return Math.ceil(n / s);
  if ((s === undefined || s === null) && kept !== undefined) return kept.length;
  return 1;
}

/** A grid of more than config.maxTasks blocks is refused before any per-block work. */
function checkBlockCount(fn: string, perAxis: readonly number[], shape: readonly Size[]): void {
  const blocks = perAxis.reduce((a, b) => a * Math.max(1, b), 1);
  if (blocks > config.maxTasks) {
    throw new ChunkError(
      `${fn}: chunks give ${blocks} blocks (${formatTuple(perAxis)} per axis) over shape ${formatTuple(shape)}, ` +
        `more than config.maxTasks (${config.maxTasks}); use larger chunks`,
    );
  }
}

/**
 * Chunks of `size` covering `length`, the last one ragged; `[0]` for an empty axis.
 * @example
 * regularChunks(10, 3); // [3, 3, 3, 1]
 */
export function regularChunks(length: number, size: number): number[] {
  if (length === 0) return [0];
  const step = Math.max(1, Math.min(size, length));
  const out = new Array<number>(Math.floor(length / step)).fill(step);
  if (length % step !== 0) out.push(length % step);
  return out;
}

function checkShape(fn: string, shape: readonly Size[]): void {
  for (const n of shape) {
    if (n !== null && !(Number.isInteger(n) && n >= 0)) {
      throw new ShapeError(`${fn}: shape ${formatTuple(shape)} has a bad size ${formatValue(n)}`);
    }
  }
}

/** One spec per axis; `undefined`/`null` entries mean "keep". */
function expandSpec(fn: string, spec: ChunkSpec | Chunks, shape: readonly Size[]): AxisSpec[] {
  const nd = shape.length;
  if (typeof spec === 'number' || typeof spec === 'string') {
    return new Array<AxisSpec>(nd).fill(checkAxisSpec(fn, spec, spec));
  }
  if (Array.isArray(spec)) {
    const items = spec as readonly unknown[];
    // Dask reads a flat list of several sizes for a 1-D array as explicit sizes.
    if (nd === 1 && items.length > 1 && items.every((v) => typeof v === 'number')) {
      return [items as number[]];
    }
    if (items.length !== nd) {
      throw new ChunkError(
        `${fn}: chunks ${formatValue(spec)} have ${items.length} axes, shape ${formatTuple(shape)} has ${nd}`,
      );
    }
    return items.map((v) => checkAxisSpec(fn, v, spec));
  }
  if (typeof spec === 'object' && spec !== null) {
    const out = new Array<AxisSpec>(nd).fill(undefined);
    for (const [key, v] of Object.entries(spec)) {
      const k = Number(key);
      if (!Number.isInteger(k) || k < -nd || k >= nd) {
        throw new ChunkError(
          `${fn}: chunks key ${formatValue(key)} is not an axis of shape ${formatTuple(shape)}`,
        );
      }
      out[k < 0 ? k + nd : k] = checkAxisSpec(fn, v, spec);
    }
    return out;
  }
  throw new ChunkError(`${fn}: chunks ${formatValue(spec)} is not a chunk spec`);
}

function checkAxisSpec(fn: string, v: unknown, spec: unknown): AxisSpec {
  if (v === null || v === undefined || v === 'auto' || typeof v === 'number') return v;
  if (Array.isArray(v)) return v as Size[];
  throw new ChunkError(`${fn}: chunks ${formatValue(spec)} hold a bad entry ${formatValue(v)}`);
}

function resolveAxis(
  fn: string,
  s: AxisSpec,
  shape: readonly Size[],
  ax: number,
  prev: readonly (readonly Size[])[] | undefined,
): Size[] | 'auto' {
  const n = shape[ax]!;
  if (Array.isArray(s)) return explicitSizes(fn, s as readonly unknown[], n, ax);
  if (typeof s === 'number' && !(Number.isInteger(s) && (s >= 1 || s === -1))) {
    throw new ChunkError(
      `${fn}: chunk size ${formatValue(s)} on axis ${ax} is not a positive integer or -1`,
    );
  }
  const kept = prev?.[ax];
  if (n === null) {
    if (kept !== undefined) return [...kept];
    throw new ChunkError(
      `${fn}: axis ${ax} has unknown size; give explicit chunks or call computeChunkSizes() first`,
    );
  }
  if (s === undefined || s === null) {
    return kept !== undefined ? explicitSizes(fn, kept, n, ax) : [n];
  }
  if (s === 'auto') return 'auto';
  return s === -1 ? [n] : regularChunks(n, s as number);
}

/** Validate explicit sizes: non-negative integers summing to the axis (`null` only if unknown). */
function explicitSizes(fn: string, sizes: readonly unknown[], n: Size, ax: number): Size[] {
  let total = 0;
  for (const c of sizes) {
    if (c === null && n === null) continue;
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 0) {
      throw new ChunkError(
        `${fn}: chunks ${formatTuple(sizes)} on axis ${ax} hold a bad size ${formatValue(c)}`,
      );
    }
    total += c;
  }
  if (n !== null && total !== n) {
    throw new ChunkError(
      `${fn}: chunks ${formatTuple(sizes)} sum to ${total}, not ${n}, on axis ${ax}`,
    );
  }
  if (sizes.length === 0) {
    if (n === 0) return [0];
    throw new ChunkError(`${fn}: chunks () on axis ${ax} are empty`);
  }
  return [...sizes] as Size[];
}

function largest(c: readonly Size[]): number {
  let m = 1;
  for (const v of c) if (v !== null && v > m) m = v;
  return m;
}
