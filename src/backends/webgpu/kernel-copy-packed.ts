// Strided box copies of dtypes packed several to a 32-bit word (uint8 and bool four, float16
// two): each invocation owns one output word, so no two invocations write the same word.

import { shapeSize } from '../../array/ndarray.ts';
import { elementsPerWord } from './gpu-dtype.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';

// meta: n, nd, per, shape[nd], boxOffset[nd], boxCount[nd], srcOffset (i32), srcStrides[nd] (i32)
// Elements of an output word outside the box keep their value (earlier pieces of a merge).
const PACKED_COPY_SHADER = /* wgsl */ `
@group(0) @binding(0) var<storage, read> info: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<storage, read> src: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let w = gid.x + gid.y * nwg.x * 256u;
  let n = info[0];
  let nd = info[1];
  let per = info[2];
  if (w * per >= n) { return; }
  let width = 32u / per;
  let mask = (1u << width) - 1u;
  var word = dst[w];
  for (var e = 0u; e < per; e++) {
    let o = w * per + e;
    if (o >= n) { break; }
    var rest = o;
    var s = bitcast<i32>(info[3u + 3u * nd]);
    var inside = true;
    for (var k = i32(nd) - 1; k >= 0; k = k - 1) {
      let ax = u32(k);
      let c = rest % info[3u + ax];
      rest = rest / info[3u + ax];
      let lo = info[3u + nd + ax];
      if (c < lo || c - lo >= info[3u + 2u * nd + ax]) { inside = false; }
      s = s + i32(c - lo) * bitcast<i32>(info[4u + 3u * nd + ax]);
    }
    if (inside) {
      let j = u32(s);
      let v = (src[j / per] >> ((j % per) * width)) & mask;
      word = (word & ~(mask << (e * width))) | (v << (e * width));
    }
  }
  dst[w] = word;
}`;

/**
 * Copy the box `count` at `boxOffset` of `dst` (C-contiguous, shape `shape`) from `src`
 * read at `srcOffset` with element strides `srcStrides`; `dst` and `src` share a packed dtype.
 * @example
 * await copyPackedBox(rt, out, x, [4], [0], [4], 1, [2]); // out = x[1:9:2]
 */
export async function copyPackedBox(
  rt: GpuRuntime,
  dst: GpuTensor,
  src: GpuTensor,
  shape: readonly number[],
  boxOffset: readonly number[],
  count: readonly number[],
  srcOffset: number,
  srcStrides: readonly number[],
): Promise<void> {
  const n = shapeSize(shape);
  if (n === 0 || shapeSize(count) === 0) return;
  const per = elementsPerWord(dst.dtype);
  const pipe = await rt.pipeline('copy-packed-box', () => PACKED_COPY_SHADER);
  const meta = rt.meta([
    n,
    shape.length,
    per,
    ...shape,
    ...boxOffset,
    ...count,
    srcOffset,
    ...srcStrides.map((v) => v >>> 0),
  ]);
  rt.dispatch(pipe, [meta.buffer, dst.buffer, src.buffer], Math.ceil(n / per));
  rt.free(meta);
}
