// Strided box copies on the GPU: 'slice' (a strided selection) and 'rechunk-merge' (boxes of
// several inputs placed into one output), through one copy shader over 32-bit words, or for
// packed dtypes (uint8, bool, float16) one that writes whole output words (kernel-copy-packed).

import { cStrides, shapeSize } from '../../array/ndarray.ts';
import type { GetitemParams, MergePiece } from '../cpu-js/layout/gather.ts';
import type { StridedSelection } from '../cpu-js/layout/slice.ts';
import { isPackedDtype } from './gpu-dtype.ts';
import { copyPackedBox } from './kernel-copy-packed.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';

// meta: n, nd, count[nd], srcOffset, srcStrides[nd] (i32), dstOffset, dstStrides[nd]
const COPY_SHADER = /* wgsl */ `
@group(0) @binding(0) var<storage, read> info: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<storage, read> src: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * 256u;
  let n = info[0];
  if (i >= n) { return; }
  let nd = info[1];
  var rest = i;
  var s = i32(info[2u + nd]);
  var d = info[3u + 2u * nd];
  for (var k = i32(nd) - 1; k >= 0; k = k - 1) {
    let ax = u32(k);
    let c = info[2u + ax];
    let q = rest % c;
    rest = rest / c;
    s = s + i32(q) * bitcast<i32>(info[3u + nd + ax]);
    d = d + q * info[4u + 2u * nd + ax];
  }
  dst[d] = src[u32(s)];
}`;

/** Copy the box `count` of `src` (at `srcOffset`, element strides `srcStrides`) into `dst`. */
async function copyBox(
  rt: GpuRuntime,
  dst: GpuTensor,
  src: GpuTensor,
  count: readonly number[],
  srcOffset: number,
  srcStrides: readonly number[],
  dstOffset: number,
  dstStrides: readonly number[],
): Promise<void> {
  const n = shapeSize(count);
  if (n === 0) return;
  const pipe = await rt.pipeline('copy-box', () => COPY_SHADER);
  const meta = rt.meta([
    n,
    count.length,
    ...count,
    srcOffset,
    ...srcStrides.map((v) => v >>> 0),
    dstOffset,
    ...dstStrides,
  ]);
  rt.dispatch(pipe, [meta.buffer, dst.buffer, src.buffer], n);
  rt.free(meta);
}

/**
 * A strided selection of `x` (negative steps allowed), as the CPU's 'slice' kernel.
 * @example
 * const y = await slice(rt, x, { start: [0, 3], step: [1, -1], count: [2, 4] });
 */
export async function slice(rt: GpuRuntime, x: GpuTensor, p: StridedSelection): Promise<GpuTensor> {
  const st = cStrides(x.shape);
  const out = rt.alloc(x.dtype, p.count);
  const offset = p.start.reduce((a, s, ax) => a + s * st[ax]!, 0);
  const strides = p.step.map((s, ax) => s * st[ax]!);
  if (isPackedDtype(x.dtype)) {
    const zero = p.count.map(() => 0);
    await copyPackedBox(rt, out, x, p.count, zero, p.count, offset, strides);
  } else {
    await copyBox(rt, out, x, p.count, offset, strides, 0, cStrides(p.count));
  }
  return out;
}

/**
 * Boxes of `inputs` placed into one output block of `shape`, as the CPU's 'rechunk-merge'.
 * @example
 * const y = await rechunkMerge(rt, [a, b], { pieces }, [4, 6]);
 */
export async function rechunkMerge(
  rt: GpuRuntime,
  inputs: readonly GpuTensor[],
  pieces: readonly MergePiece[],
): Promise<GpuTensor> {
  const first = inputs[0]!;
  const nd = first.shape.length;
  const shape = new Array<number>(nd).fill(0);
  const counts = pieces.map((pc) =>
    pc.count.map((c, ax) => c ?? inputs[pc.input]!.shape[ax]! - pc.start[ax]!),
  );
  pieces.forEach((pc, k) => {
    for (let ax = 0; ax < nd; ax++)
      shape[ax] = Math.max(shape[ax]!, pc.offset[ax]! + counts[k]![ax]!);
  });
  const out = rt.alloc(first.dtype, shape);
  const dstStrides = cStrides(shape);
  for (let k = 0; k < pieces.length; k++) {
    const pc = pieces[k]!;
    const src = inputs[pc.input]!;
    const st = cStrides(src.shape);
    const srcOffset = pc.start.reduce((a, s, ax) => a + s * st[ax]!, 0);
    if (isPackedDtype(first.dtype)) {
      await copyPackedBox(rt, out, src, shape, pc.offset, counts[k]!, srcOffset, st);
      continue;
    }
    const dstOffset = pc.offset.reduce((a, s, ax) => a + s * dstStrides[ax]!, 0);
    await copyBox(rt, out, src, counts[k]!, srcOffset, st, dstOffset, dstStrides);
  }
  return out;
}

/**
 * NumPy basic indexing of one block, as the CPU's 'getitem': a strided selection (null
 * counts run to the end), then the output axes (a source axis, or -1 for a new one).
 * @example
 * const row = await getitem(rt, x, { start: [2, 0], step: [1, 1], count: [1, null], axes: [1] });
 */
export async function getitem(rt: GpuRuntime, x: GpuTensor, p: GetitemParams): Promise<GpuTensor> {
  // as the CPU: a null count (an unknown size) runs from start to the block's end
  const count = p.count.map((c, ax) => (c === null ? x.shape[ax]! - p.start[ax]! : c));
  const sel = await slice(rt, x, { start: p.start, step: p.step, count });
  return { ...sel, shape: p.axes.map((a) => (a < 0 ? 1 : count[a]!)) };
}
