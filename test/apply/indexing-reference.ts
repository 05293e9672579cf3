// A dense NumPy-indexing reference for tests: Python slice arithmetic written out as loops,
// independent of src/chunking, plus random index generators and their text form.

import { type NumberArray, typedArrayCtor } from '../../src/array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../../src/array/ndarray.ts';
import type { IndexItem, SliceItem } from '../../src/chunking/parse-index.ts';

/** Positions a Python slice selects on an axis of length n (by stepping, no formula). */
export function pySlice(n: number, s: SliceItem): number[] {
  const step = s.step ?? 1;
  const norm = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v < 0 ? v + n : v));
  const out: number[] = [];
  if (step > 0) {
    const start = s.start == null ? 0 : norm(s.start, 0, n);
    const stop = s.stop == null ? n : norm(s.stop, 0, n);
    for (let i = start; i < stop; i += step) out.push(i);
  } else {
    const start = s.start == null ? n - 1 : norm(s.start, -1, n - 1);
    const stop = s.stop == null ? -1 : norm(s.stop, -1, n - 1);
    for (let i = start; i > stop; i += step) out.push(i);
  }
  return out;
}

type Axis = { kind: 'new' } | { kind: 'pick'; positions: number[]; keep: boolean; array: boolean };

function axesOf(shape: readonly number[], index: readonly IndexItem[]): Axis[] {
  const consumed = index.filter((it) => it !== null && it !== '...').length;
  const out: Axis[] = [];
  let ax = 0;
  const full = () => {
    out.push({ kind: 'pick', positions: pySlice(shape[ax]!, {}), keep: true, array: false });
    ax++;
  };
  for (const it of index) {
    if (it === null) out.push({ kind: 'new' });
    else if (it === '...') for (let k = 0; k < shape.length - consumed; k++) full();
    else if (typeof it === 'number') {
      const n = shape[ax++]!;
      out.push({ kind: 'pick', positions: [it < 0 ? it + n : it], keep: false, array: false });
    } else if (Array.isArray(it) || it instanceof Int32Array) {
      const n = shape[ax++]!;
      const positions = Array.from(it, (i) => (i < 0 ? i + n : i));
      out.push({ kind: 'pick', positions, keep: true, array: true });
    } else
      out.push({
        kind: 'pick',
        positions: pySlice(shape[ax++]!, it as SliceItem),
        keep: true,
        array: false,
      });
  }
  while (ax < shape.length) full();
  return out;
}

/** x[index] as NumPy computes it (at most one integer array; ints count as advanced). */
export function denseGet(x: NDArray, index: readonly IndexItem[]): NDArray {
  const axes = axesOf(x.shape, index);
  const picks = axes.filter((a) => a.kind === 'pick');
  // output axes: one per kept pick or new axis, in order
  let outAxes = axes.map((a, i) => ({ a, i })).filter(({ a }) => a.kind === 'new' || a.keep);
  const adv = index
    .map((it, i) =>
      typeof it === 'number' || Array.isArray(it) || it instanceof Int32Array ? i : -1,
    )
    .filter((i) => i >= 0);
  const hasArray = picks.some((p) => p.kind === 'pick' && p.array);
  if (hasArray && adv.length > 0 && adv[adv.length - 1]! - adv[0]! >= adv.length) {
    const arr = outAxes.find(({ a }) => a.kind === 'pick' && a.array)!;
    outAxes = [arr, ...outAxes.filter((o) => o !== arr)];
  }
  const shape = outAxes.map(({ a }) => (a.kind === 'new' ? 1 : a.positions.length));
  const out = new (typedArrayCtor(x.dtype))(shapeSize(shape));
  const st = cStrides(x.shape);
  const pickIdx = new Map<Axis, number>();
  picks.forEach((p, k) => {
    pickIdx.set(p, k);
  });
  const cur = new Array<number>(picks.length).fill(0);
  const oIdx = new Array<number>(shape.length).fill(0);
  for (let o = 0; o < out.length; o++) {
    let r = o;
    for (let k = shape.length - 1; k >= 0; k--) {
      oIdx[k] = r % shape[k]!;
      r = Math.floor(r / shape[k]!);
    }
    picks.forEach((p, k) => {
      cur[k] = p.kind === 'pick' ? p.positions[0]! : 0;
    });
    outAxes.forEach(({ a }, k) => {
      if (a.kind === 'pick') cur[pickIdx.get(a)!] = a.positions[oIdx[k]!]!;
    });
    let off = 0;
    for (let k = 0; k < picks.length; k++) off += cur[k]! * st[k]!;
    out[o] = x.data[off]!;
  }
  return new NDArray(out, shape, x.dtype);
}

/** A copy of x with x[index] = value (basic index; value broadcast to the selection). */
export function denseSet(
  x: NDArray,
  index: readonly IndexItem[],
  value: number | NDArray,
): NDArray {
  const out = new (typedArrayCtor(x.dtype))(x.size);
  (out as NumberArray).set(x.data as NumberArray);
  const marker = new NDArray(
    Float64Array.from({ length: x.size }, (_, i) => i),
    x.shape,
    'float64',
  );
  const sel = denseGet(marker, index);
  const vs = typeof value === 'number' ? null : cStrides(value.shape);
  const lead = sel.shape.length - (typeof value === 'number' ? 0 : value.shape.length);
  const ss = sel.shape;
  for (let o = 0; o < sel.size; o++) {
    let v: number;
    if (typeof value === 'number') v = value;
    else {
      let r = o;
      let off = 0;
      for (let k = ss.length - 1; k >= 0; k--) {
        const i = r % ss[k]!;
        r = Math.floor(r / ss[k]!);
        const j = k - lead;
        if (j >= 0 && value.shape[j] !== 1) off += i * vs![j]!;
      }
      v = (value.data as NumberArray)[off]!;
    }
    out[(sel.data as NumberArray)[o]!] = x.dtype === 'bool' ? (v !== 0 ? 1 : 0) : v;
  }
  return new NDArray(out, x.shape, x.dtype);
}

/** A random basic index for `shape` (ints, slices of any step, null, maybe '...'). */
export function randomIndex(
  shape: readonly number[],
  r: () => number,
  basicOnly = true,
): IndexItem[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const items: IndexItem[] = [];
  const useEllipsis = r() < 0.3;
  const nIndexed = useEllipsis ? Math.floor(r() * (shape.length + 1)) : shape.length;
  const ellipsisAt = useEllipsis ? Math.floor(r() * (nIndexed + 1)) : -1;
  let arrayUsed = basicOnly;
  const axisOf = (k: number) => (useEllipsis && k >= ellipsisAt ? shape.length - nIndexed + k : k);
  for (let k = 0; k < nIndexed; k++) {
    if (k === ellipsisAt) items.push('...');
    if (r() < 0.15) items.push(null);
    const n = shape[axisOf(k)]!;
    const u = r();
    if (u < 0.2 && n > 0) items.push(Math.floor(r() * 2 * n) - n);
    else if (u < 0.3 && !arrayUsed && n > 0) {
      arrayUsed = true;
      items.push(Array.from({ length: Math.floor(r() * 5) }, () => Math.floor(r() * 2 * n) - n));
    } else {
      const part = () => (r() < 0.3 ? undefined : Math.floor(r() * (2 * n + 5)) - n - 2);
      const s: { start?: number; stop?: number; step?: number } = {};
      const start = part();
      const stop = part();
      const step = pick([undefined, 1, 2, 3, -1, -2, -3]);
      if (start !== undefined) s.start = start;
      if (stop !== undefined) s.stop = stop;
      if (step !== undefined) s.step = step;
      items.push(s);
    }
  }
  if (ellipsisAt === nIndexed) items.push('...');
  if (r() < 0.15) items.push(null);
  return items;
}

/** NumPy text for index items. */
export function indexText(items: readonly IndexItem[]): string {
  return items
    .map((it) => {
      if (it === null) return 'None';
      if (it === '...') return '...';
      if (typeof it === 'number') return String(it);
      if (Array.isArray(it) || it instanceof Int32Array) return `[${Array.from(it).join(', ')}]`;
      const s = it as SliceItem;
      const base = `${s.start ?? ''}:${s.stop ?? ''}`;
      return s.step == null ? base : `${base}:${s.step}`;
    })
    .join(', ');
}

/** out[..., k, ...] = x[..., idx[k], ...] along `axis` (indices already non-negative). */
export function denseTake(x: NDArray, idx: readonly number[], axis: number): NDArray {
  const shape = [...x.shape];
  shape[axis] = idx.length;
  const inner = shapeSize(x.shape.slice(axis + 1));
  const outer = shapeSize(x.shape.slice(0, axis));
  const m = x.shape[axis]!;
  const out = new (typedArrayCtor(x.dtype))(shapeSize(shape));
  for (let o = 0; o < outer; o++)
    for (let k = 0; k < idx.length; k++)
      for (let i = 0; i < inner; i++)
        out[(o * idx.length + k) * inner + i] = x.data[(o * m + idx[k]!) * inner + i]!;
  return new NDArray(out, shape, x.dtype);
}
