// argmin / argmax over one axis (or every axis, as a flat index into the block) as a workgroup
// tree reduction of (value, index) pairs; ties keep the first index, NaN beats any number.

import { cStrides, shapeSize } from '../../array/ndarray.ts';
import { ValueError } from '../../errors.ts';
import { isByteDtype, wordType } from './gpu-dtype.ts';
import { runEw } from './kernel-ew.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';
import { WGSL_SCALAR_PRELUDE } from './wgsl-scalar.ts';

/** Params of argmin/argmax: one axis, or every axis of the block (block-local flat index). */
export interface GpuArgParams {
  readonly op: 'argmin' | 'argmax';
  readonly axes: readonly number[];
  readonly keepdims?: boolean;
}

const GROUP = 256;

function argSource(op: GpuArgParams['op'], dtype: GpuTensor['dtype']): string {
  const t = wordType(op, dtype);
  const read = isByteDtype(dtype)
    ? '(src[j >> 2u] >> ((j & 3u) * 8u)) & 255u'
    : `bitcast<${t}>(src[j])`;
  const better = op === 'argmin' ? 'vb < va' : 'vb > va';
  const nan = t === 'f32' ? '(f_isnan(vb) && !f_isnan(va))' : 'false';
  const same = t === 'f32' ? '(vb == va || (f_isnan(vb) && f_isnan(va)))' : 'vb == va';
  return `${WGSL_SCALAR_PRELUDE}
@group(0) @binding(0) var<storage, read> info: array<u32>;
@group(0) @binding(1) var<storage, read_write> vals: array<u32>;
@group(0) @binding(2) var<storage, read_write> idxs: array<u32>;
@group(0) @binding(3) var<storage, read> src: array<u32>;
var<workgroup> pv: array<${t}, ${GROUP}>;
var<workgroup> pi: array<u32, ${GROUP}>;
fn load(j: u32) -> ${t} { return ${read}; }
// b replaces a: it beats a, or equals it at a smaller index (an unset a has index 0xffffffff)
fn wins(va: ${t}, ia: u32, vb: ${t}, ib: u32) -> bool {
  if (ib == 0xffffffffu) { return false; }
  if (ia == 0xffffffffu) { return true; }
  return ${better} || ${nan} || (${same} && ib < ia);
}
// info: nOut, count, post (stride of the reduced axis run), nOut rows of: pre · count · post layout
@compute @workgroup_size(${GROUP})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let o = wg.x + wg.y * nwg.x;
  let live_out = o < info[0];
  let count = info[1];
  let post = info[2];
  let base = (o / post) * count * post + o % post;
  var bv = load(0u);
  var bi = 0xffffffffu;
  if (live_out) {
    for (var r = lid; r < count; r += ${GROUP}u) {
      let v = load(base + r * post);
      if (wins(bv, bi, v, r)) { bv = v; bi = r; }
    }
  }
  pv[lid] = bv;
  pi[lid] = bi;
  workgroupBarrier();
  for (var w = ${GROUP / 2}u; w > 0u; w = w >> 1u) {
    if (lid < w && wins(pv[lid], pi[lid], pv[lid + w], pi[lid + w])) {
      pv[lid] = pv[lid + w];
      pi[lid] = pi[lid + w];
    }
    workgroupBarrier();
  }
  if (lid == 0u && live_out) { vals[o] = bitcast<u32>(pv[0]); idxs[o] = pi[0]; }
}
`;
}

/**
 * The best values and their int32 indices along the reduced span, in keepdims shape:
 * [values, indices] (the CPU partial's first two parts; its count is the span's length).
 */
export async function argPartial(
  rt: GpuRuntime,
  x: GpuTensor,
  p: GpuArgParams,
): Promise<GpuTensor[]> {
  const nd = x.shape.length;
  const all = p.axes.length === nd && nd !== 1;
  if (!all && (p.axes.length !== 1 || p.axes[0]! < 0 || p.axes[0]! >= nd)) {
    throw new ValueError(
      `${p.op}: expected one axis or every axis of a ${nd}-d block, got ${JSON.stringify(p.axes)}`,
    );
  }
  const axis = all ? 0 : p.axes[0]!;
  const count = all ? shapeSize(x.shape) : x.shape[axis]!;
  if (count === 0) throw new ValueError(`${p.op}: attempt to get ${p.op} of an empty sequence`);
  const post = all ? 1 : cStrides(x.shape)[axis]!;
  const nOut = shapeSize(x.shape) / count;
  const keep = x.shape.map((n, ax) => (all || ax === axis ? 1 : n));
  const wide = isByteDtype(x.dtype) ? 'uint32' : x.dtype;
  const vals = rt.alloc(wide, keep);
  const idxs = rt.alloc('int32', keep);
  const pipe = await rt.pipeline(`arg|${p.op}|${x.dtype}`, () => argSource(p.op, x.dtype));
  const meta = rt.meta([nOut, count, post]);
  const gx = Math.min(nOut, 65535);
  rt.dispatchGroups(
    pipe,
    [meta.buffer, vals.buffer, idxs.buffer, x.buffer],
    gx,
    Math.ceil(nOut / gx),
  );
  rt.free(meta);
  if (wide === x.dtype) return [vals, idxs];
  const [packed] = await runEw(rt, [vals], {
    expr: { op: 'astype', args: [{ in: 0 }], dtype: x.dtype },
    dtype: x.dtype,
  });
  rt.free(vals);
  return [packed!, idxs];
}

/** The int32 indices of argmin/argmax (axes dropped unless keepdims). */
export async function argAggregate(
  rt: GpuRuntime,
  x: GpuTensor,
  p: GpuArgParams,
): Promise<GpuTensor> {
  const [vals, idxs] = await argPartial(rt, x, p);
  rt.free(vals!);
  return p.keepdims ? idxs! : { ...idxs!, shape: x.shape.filter((_, ax) => !p.axes.includes(ax)) };
}
