// normalizeIndex: NumPy index items resolved against a shape into one concrete selection per
// axis (ints, Python slice arithmetic, integer arrays), plus where new axes and the array go.

import { ChunkError, IndexError } from '../errors.ts';
import { formatTuple, formatValue } from './format.ts';
import type { IndexItem, SliceItem } from './parse-index.ts';
import type { Size } from './types.ts';

/**
 * What an index selects along one input axis. A slice selects positions
 * `start + k * step` for `k < count` (step may be negative; count may be 0, and is
 * `null` only for `:` on an axis of unknown size, where start is 0 and step 1).
 */
export type AxisSelection =
  | { readonly kind: 'int'; readonly index: number }
  | { readonly kind: 'slice'; readonly start: number; readonly step: number; readonly count: Size }
  | { readonly kind: 'array'; readonly indices: number[] };

/** An index resolved against a shape. */
export interface NormalizedIndex {
  /** One selection per input axis. */
  readonly axes: AxisSelection[];
  /** For each output axis, the input axis it comes from, or `null` for a new axis. */
  readonly outAxes: (number | null)[];
  /** Output positions of the new axes (where `outAxes` is `null`). */
  readonly newAxes: number[];
  /** The shape of the result. */
  readonly shape: Size[];
}

/**
 * Resolve index items against `shape`: expand `'...'` (missing trailing axes are `:`),
 * bounds-check integers and arrays (negative values count from the end), and reduce
 * slices to start/step/count as Python does. With one integer array, the output axis it
 * makes goes where NumPy puts it (in place, or first when advanced indices are split).
 * Raises `IndexError` for bad items or bounds, and `ChunkError` when an axis of unknown
 * size is indexed with anything but `:`.
 * @example
 * normalizeIndex('get', [{ step: -1 }, null, 2], [4, 5]).axes;
 * // [{ kind: 'slice', start: 3, step: -1, count: 4 }, { kind: 'int', index: 2 }]
 */
export function normalizeIndex(
  fn: string,
  index: readonly IndexItem[],
  shape: readonly Size[],
): NormalizedIndex {
  const nd = shape.length;
  const ellipses = index.filter((it) => it === '...').length;
  if (ellipses > 1) {
    throw new IndexError(`${fn}: index ${formatTuple(index)} has more than one ellipsis ('...')`);
  }
  const consumed = index.filter((it) => it !== null && it !== '...').length;
  if (consumed > nd) {
    throw new IndexError(
      `${fn}: too many indices for array: array is ${nd}-dimensional, but ${consumed} were indexed (index ${formatTuple(index)})`,
    );
  }
  const axes: AxisSelection[] = [];
  const outAxes: (number | null)[] = [];
  const advanced: number[] = [];
  let arrayAxis = -1;
  const full = (): void => {
    const ax = axes.length;
    axes.push(selectSlice(fn, {}, shape[ax]!, ax));
    outAxes.push(ax);
  };
  index.forEach((item, pos) => {
    const ax = axes.length;
    if (item === null) outAxes.push(null);
    else if (item === '...') for (let k = 0; k < nd - consumed; k++) full();
    else if (typeof item === 'number') {
      axes.push({ kind: 'int', index: checkInt(fn, item, shape[ax]!, ax) });
      advanced.push(pos);
    } else if (Array.isArray(item) || item instanceof Int32Array) {
      if (arrayAxis >= 0) {
        throw new IndexError(
          `${fn}: index ${formatTuple(index)} has more than one integer array; index one axis at a time`,
        );
      }
      arrayAxis = ax;
      axes.push({
        kind: 'array',
        indices: Array.from(item, (i) => checkInt(fn, i, shape[ax]!, ax)),
      });
      outAxes.push(ax);
      advanced.push(pos);
    } else if (typeof item === 'object') {
      axes.push(selectSlice(fn, item, shape[ax]!, ax));
      outAxes.push(ax);
    } else {
      throw new IndexError(`${fn}: bad index item ${formatValue(item)}`);
    }
  });
  while (axes.length < nd) full();
  // NumPy: integers count as advanced indices next to an array; if the advanced
  // indices are not adjacent in the index, the array's output axis goes first.
  const split =
    advanced.length > 0 && advanced[advanced.length - 1]! - advanced[0]! >= advanced.length;
  if (arrayAxis >= 0 && split) {
    outAxes.splice(outAxes.indexOf(arrayAxis), 1);
    outAxes.unshift(arrayAxis);
  }
  const newAxes: number[] = [];
  outAxes.forEach((a, i) => {
    if (a === null) newAxes.push(i);
  });
  const outShape = outAxes.map((a): Size => {
    if (a === null) return 1;
    const sel = axes[a]!;
    return sel.kind === 'slice' ? sel.count : sel.kind === 'array' ? sel.indices.length : 1;
  });
  return { axes, outAxes, newAxes, shape: outShape };
}

/** An integer index along an axis of size `n`, negative from the end, bounds-checked. */
function checkInt(fn: string, i: number, n: Size, ax: number): number {
  if (!Number.isInteger(i)) {
    throw new IndexError(`${fn}: index ${formatValue(i)} on axis ${ax} is not an integer`);
  }
  if (n === null) {
    throw new ChunkError(
      `${fn}: cannot index axis ${ax} of unknown size with ${i}; call computeChunkSizes() first`,
    );
  }
  if (i < -n || i >= n) {
    throw new IndexError(`${fn}: index ${i} is out of bounds for axis ${ax} with size ${n}`);
  }
  return i < 0 ? i + n : i;
}

/** Python's slice.indices(n), as start/step/count. */
function selectSlice(fn: string, item: SliceItem, n: Size, ax: number): AxisSelection {
  for (const part of ['start', 'stop', 'step'] as const) {
    const v = item[part];
    if (v !== null && v !== undefined && !Number.isInteger(v)) {
      throw new IndexError(
        `${fn}: slice ${part} ${formatValue(v)} on axis ${ax} is not an integer or null`,
      );
    }
  }
  const step = item.step ?? 1;
  if (step === 0) throw new IndexError(`${fn}: slice step 0 on axis ${ax} cannot be zero`);
  const start = item.start ?? null;
  const stop = item.stop ?? null;
  if (n === null) {
    if ((start === null || start === 0) && stop === null && step === 1) {
      return { kind: 'slice', start: 0, step: 1, count: null };
    }
    throw new ChunkError(
      `${fn}: cannot slice axis ${ax} of unknown size with ${formatValue(item)}; call computeChunkSizes() first`,
    );
  }
  let s: number;
  let count: number;
  if (step > 0) {
    s = start === null ? 0 : clamp(start < 0 ? start + n : start, 0, n);
    const e = stop === null ? n : clamp(stop < 0 ? stop + n : stop, 0, n);
    count = Math.max(0, Math.ceil((e - s) / step));
  } else {
    s = start === null ? n - 1 : clamp(start < 0 ? start + n : start, -1, n - 1);
    const e = stop === null ? -1 : clamp(stop < 0 ? stop + n : stop, -1, n - 1);
    count = Math.max(0, Math.ceil((s - e) / -step));
  }
  return { kind: 'slice', start: count === 0 ? 0 : s, step, count };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
