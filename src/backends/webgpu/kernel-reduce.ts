// Reductions (sum, prod, mean, min, max) over some or all axes as workgroup tree reductions:
// one workgroup per output element and split of the reduced span, then a second pass over splits.

import type { DType } from '../../array/dtype.ts';
import { cStrides, shapeSize } from '../../array/ndarray.ts';
import { ValueError } from '../../errors.ts';
import { isByteDtype, wordType } from './gpu-dtype.ts';
import { runEw } from './kernel-ew.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';
import { WGSL_SCALAR_PRELUDE, wgslConvert } from './wgsl-scalar.ts';

export type GpuReduceOp = 'sum' | 'prod' | 'mean' | 'min' | 'max';

/** Params of 'reduce-partial' and 'reduce-aggregate' on the GPU (as the CPU's MonoidParams). */
export interface GpuReduceParams {
  readonly op: GpuReduceOp;
  readonly axes: readonly number[];
  /** Aggregate only: keep the reduced axes as size 1. */
  readonly keepdims?: boolean;
}

const GROUP = 256;
const MIN_CHUNK = 16384;
// Reduced spans up to this long get one invocation per output instead of a workgroup.
const THREAD_SPAN = 64;

/** The accumulator dtype: float32 for sum/prod/mean; the input's (widened) for min/max. */
export function accDtype(op: GpuReduceOp, d: DType): DType {
  if (op === 'sum' || op === 'prod' || op === 'mean') return 'float32';
  return isByteDtype(d) ? 'uint32' : d;
}

function identity(op: GpuReduceOp, acc: DType): string {
  if (op === 'sum' || op === 'mean') return '0.0';
  if (op === 'prod') return '1.0';
  const t = wordType('reduce', acc);
  if (t === 'f32') return op === 'min' ? 'f_bits(0x7f800000u)' : 'f_bits(0xff800000u)';
  if (t === 'i32') return op === 'min' ? 'bitcast<i32>(0x7fffffffu)' : 'bitcast<i32>(0x80000000u)';
  return op === 'min' ? '0xffffffffu' : '0u';
}

function combine(op: GpuReduceOp, t: string): string {
  if (op === 'sum' || op === 'mean') return '(a + b)';
  if (op === 'prod') return '(a * b)';
  if (t === 'f32') return op === 'min' ? 'f_min(a, b)' : 'f_max(a, b)';
  return `${op}(a, b)`;
}

type Variant = 'group' | 'thread';

/** One invocation per output: for short reduced spans (a workgroup each would idle). */
const THREAD_MAIN = (init: string, offset: string) => `
@compute @workgroup_size(${GROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let o = gid.x + gid.y * nwg.x * ${GROUP}u;
  if (o >= info[0]) { return; }
  let base = outer_offset(o);
  var acc = ${init};
  for (var r = 0u; r < info[1]; r++) { acc = comb(acc, load(base + ${offset})); }
  out[o] = bitcast<u32>(acc);
}
`;

/** One workgroup per output and span, then a tree over workgroup memory. */
const GROUP_MAIN = (init: string, offset: string) => `
@compute @workgroup_size(${GROUP})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let id = wg.x + wg.y * nwg.x;
  let splits = info[2];
  let o = id / splits;
  let s = id % splits;
  let live_out = o < info[0];
  var acc = ${init};
  if (live_out) {
    let base = outer_offset(o);
    let start = s * info[3];
    let end = min(info[1], start + info[3]);
    for (var r = start + lid; r < end; r += ${GROUP}u) { acc = comb(acc, load(base + ${offset})); }
  }
  part[lid] = acc;
  workgroupBarrier();
  for (var w = ${GROUP / 2}u; w > 0u; w = w >> 1u) {
    if (lid < w) { part[lid] = comb(part[lid], part[lid + w]); }
    workgroupBarrier();
  }
  if (lid == 0u && live_out) { out[id] = bitcast<u32>(part[0]); }
}
`;

function reduceSource(
  op: GpuReduceOp,
  inDtype: DType,
  acc: DType,
  contiguous: boolean,
  variant: Variant,
): string {
  const t = wordType('reduce', acc);
  const init = `${t}(${identity(op, acc)})`;
  const offset = contiguous ? 'r' : 'red_offset(r)';
  const read = isByteDtype(inDtype)
    ? '(src[j >> 2u] >> ((j & 3u) * 8u)) & 255u'
    : `bitcast<${wordType('reduce', inDtype)}>(src[j])`;
  return `${WGSL_SCALAR_PRELUDE}
@group(0) @binding(0) var<storage, read> info: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<storage, read> src: array<u32>;
var<workgroup> part: array<${t}, ${GROUP}>;
fn load(j: u32) -> ${t} { let v = ${read}; return ${wgslConvert('v', inDtype, acc)}; }
fn comb(a: ${t}, b: ${t}) -> ${t} { return ${combine(op, t)}; }
// meta: nOut, count, splits, chunk, no, outer shape, outer strides, nr, red shape, red strides
fn outer_offset(o: u32) -> u32 {
  let no = info[4];
  var rem = o; var off = 0u;
  for (var ax = i32(no) - 1; ax >= 0; ax--) {
    let n = info[5u + u32(ax)];
    off += (rem % n) * info[5u + no + u32(ax)];
    rem = rem / n;
  }
  return off;
}
fn red_offset(r: u32) -> u32 {
  let base = 5u + 2u * info[4];
  let nr = info[base];
  var rem = r; var off = 0u;
  for (var ax = i32(nr) - 1; ax >= 0; ax--) {
    let n = info[base + 1u + u32(ax)];
    off += (rem % n) * info[base + 1u + nr + u32(ax)];
    rem = rem / n;
  }
  return off;
}
${variant === 'thread' ? THREAD_MAIN(init, offset) : GROUP_MAIN(init, offset)}`;
}

/** One pass: out[o · splits + s] reduces span s of output o. */
async function reducePass(
  rt: GpuRuntime,
  x: GpuTensor,
  op: GpuReduceOp,
  outer: { shape: number[]; strides: number[] },
  red: { shape: number[]; strides: number[] },
  splits: number,
): Promise<GpuTensor> {
  const acc = accDtype(op, x.dtype);
  const nOut = shapeSize(outer.shape);
  const count = shapeSize(red.shape);
  const chunk = Math.max(1, Math.ceil(count / splits));
  // Reduced axes that are the trailing, C-contiguous ones read at base + r (no index math).
  let contiguous = true;
  for (let i = red.shape.length - 1, st = 1; i >= 0; st *= red.shape[i]!, i--) {
    if (red.shape[i] !== 1 && red.strides[i] !== st) contiguous = false;
  }
  const variant: Variant =
    splits === 1 && count <= THREAD_SPAN && nOut >= GROUP ? 'thread' : 'group';
  const key = `reduce|${op}|${x.dtype}|${contiguous ? 'c' : 'g'}|${variant}`;
  const pipe = await rt.pipeline(key, () => reduceSource(op, x.dtype, acc, contiguous, variant));
  const out = rt.alloc(acc, [nOut * splits]);
  const meta = rt.meta([
    nOut,
    count,
    splits,
    chunk,
    outer.shape.length,
    ...outer.shape,
    ...outer.strides,
    red.shape.length,
    ...red.shape,
    ...red.strides,
  ]);
  const buffers = [meta.buffer, out.buffer, x.buffer];
  if (variant === 'thread') rt.dispatch(pipe, buffers, nOut);
  else {
    const groups = nOut * splits;
    const gx = Math.min(groups, 65535);
    rt.dispatchGroups(pipe, buffers, gx, Math.ceil(groups / gx));
  }
  rt.free(meta);
  return out;
}

/**
 * Reduce `x` over `axes` to the keepdims shape: the values of the CPU's 'reduce-partial'
 * intermediate (sums for mean; its count is the product of the reduced sizes).
 */
export async function reducePartial(
  rt: GpuRuntime,
  x: GpuTensor,
  p: GpuReduceParams,
): Promise<GpuTensor> {
  const nd = x.shape.length;
  for (const ax of p.axes) {
    if (!Number.isInteger(ax) || ax < 0 || ax >= nd) {
      throw new ValueError(`reduce: axis ${ax} out of range for a ${nd}-d block`);
    }
  }
  const st = cStrides(x.shape);
  const keep = x.shape.map((_, ax) => ax).filter((ax) => !p.axes.includes(ax));
  const outer = { shape: keep.map((a) => x.shape[a]!), strides: keep.map((a) => st[a]!) };
  const red = { shape: p.axes.map((a) => x.shape[a]!), strides: p.axes.map((a) => st[a]!) };
  const nOut = shapeSize(outer.shape);
  const count = shapeSize(red.shape);
  if (count === 0 && (p.op === 'min' || p.op === 'max')) {
    throw new ValueError(
      `${p.op}: zero-size reduction over axes ${JSON.stringify(p.axes)} has no identity`,
    );
  }
  const splits = Math.max(
    1,
    Math.min(Math.ceil(1024 / Math.max(nOut, 1)), Math.ceil(count / MIN_CHUNK)),
  );
  const keepShape = x.shape.map((n, ax) => (p.axes.includes(ax) ? 1 : n));
  let v = await reducePass(rt, x, p.op, outer, red, splits);
  if (splits > 1) {
    const step = p.op === 'mean' ? 'sum' : p.op;
    const next = await reducePass(
      rt,
      v,
      step,
      { shape: [nOut], strides: [splits] },
      { shape: [splits], strides: [1] },
      1,
    );
    rt.free(v);
    v = next;
  }
  const out = { ...v, shape: keepShape };
  if (isByteDtype(x.dtype) && (p.op === 'min' || p.op === 'max')) {
    const [packed] = await runEw(rt, [out], {
      expr: { op: 'astype', args: [{ in: 0 }], dtype: x.dtype },
      dtype: x.dtype,
    });
    rt.free(out);
    return packed!;
  }
  return out;
}

/** Reduce one block to its final values (mean divided by the count; axes dropped unless keepdims). */
export async function reduceAggregate(
  rt: GpuRuntime,
  x: GpuTensor,
  p: GpuReduceParams,
): Promise<GpuTensor> {
  let v = await reducePartial(rt, x, p);
  if (p.op === 'mean') {
    const count = p.axes.reduce((a, ax) => a * x.shape[ax]!, 1);
    const [m] = await runEw(rt, [v], {
      expr: { op: 'divide', args: [{ in: 0 }, { const: count }], dtype: 'float32' },
      dtype: 'float32',
    });
    rt.free(v);
    v = m!;
  }
  return p.keepdims ? v : { ...v, shape: x.shape.filter((_, ax) => !p.axes.includes(ax)) };
}
