// float32 matrix product tiled in workgroup memory (16×16 tiles of a and b per step; each
// invocation accumulates a 4×4 block of outputs), with batch axes and 1-d operands.

import { shapeSize } from '../../array/ndarray.ts';
import { DTypeError, ShapeError } from '../../errors.ts';
import { wordType } from './gpu-dtype.ts';
import { runEw } from './kernel-ew.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';

/** Params of 'matmul' (as the CPU's MatmulParams): inputs are pairs (a, b) whose products sum. */
export interface GpuMatmulParams {
  readonly dtype: 'float32';
  readonly aVec: boolean;
  readonly bVec: boolean;
  /** The result keeps a trailing unit axis (a partial of a contraction tree). */
  readonly unitAxis?: boolean;
}

const T = 64; // output tile edge: 16×16 invocations × 4×4 outputs each
const KT = 16;

const SOURCE = /* wgsl */ `
@group(0) @binding(0) var<storage, read> info: array<u32>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@group(0) @binding(2) var<storage, read> a: array<f32>;
@group(0) @binding(3) var<storage, read> b: array<f32>;
var<workgroup> ta: array<array<f32, ${KT}>, ${T}>;
var<workgroup> tb: array<array<f32, ${T}>, ${KT}>;
@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let m = info[0]; let k = info[1]; let n = info[2];
  let batch = wg.z;
  let aOff = batch * info[3]; let bOff = batch * info[4]; let cOff = batch * m * n;
  let row0 = wg.y * ${T}u; let col0 = wg.x * ${T}u;
  let flat = lid.y * 16u + lid.x;
  var acc: array<array<f32, 4>, 4>;
  for (var k0 = 0u; k0 < k; k0 += ${KT}u) {
    for (var l = flat; l < ${T * KT}u; l += 256u) {
      let r = l / ${KT}u; let q = l % ${KT}u;
      let gr = row0 + r; let gk = k0 + q;
      ta[r][q] = select(0.0, a[aOff + gr * k + gk], gr < m && gk < k);
      let br = l / ${T}u; let bc = l % ${T}u;
      let gk2 = k0 + br; let gc = col0 + bc;
      tb[br][bc] = select(0.0, b[bOff + gk2 * n + gc], gk2 < k && gc < n);
    }
    workgroupBarrier();
    for (var q = 0u; q < ${KT}u; q++) {
      var bv: array<f32, 4>;
      for (var j = 0u; j < 4u; j++) { bv[j] = tb[q][lid.x + 16u * j]; }
      for (var i = 0u; i < 4u; i++) {
        let av = ta[lid.y + 16u * i][q];
        for (var j = 0u; j < 4u; j++) { acc[i][j] = fma(av, bv[j], acc[i][j]); }
      }
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < 4u; i++) {
    let r = row0 + lid.y + 16u * i;
    for (var j = 0u; j < 4u; j++) {
      let cc = col0 + lid.x + 16u * j;
      if (r < m && cc < n) { c[cOff + r * n + cc] = acc[i][j]; }
    }
  }
}
`;

interface Operand {
  batch: number[];
  rows: number;
  cols: number;
}

function operand(x: GpuTensor, isVec: boolean, isLeft: boolean): Operand {
  if (x.dtype !== 'float32') {
    wordType('matmul', x.dtype);
    throw new DTypeError(
      `matmul: the WebGPU matmul takes float32 operands, got '${x.dtype}'; use astype('float32')`,
    );
  }
  const s = x.shape;
  if (isVec)
    return isLeft ? { batch: [], rows: 1, cols: s[0]! } : { batch: [], rows: s[0]!, cols: 1 };
  return { batch: s.slice(0, -2), rows: s[s.length - 2]!, cols: s[s.length - 1]! };
}

/** c = a · b for one pair; batch axes must be equal, or one side has none. */
async function product(
  rt: GpuRuntime,
  a: GpuTensor,
  b: GpuTensor,
  p: GpuMatmulParams,
): Promise<GpuTensor> {
  const A = operand(a, p.aVec, true);
  const B = operand(b, p.bVec, false);
  if (A.cols !== B.rows)
    throw new ShapeError(`matmul: contraction sizes ${A.cols} and ${B.rows} differ`);
  const batch = A.batch.length >= B.batch.length ? A.batch : B.batch;
  const nb = shapeSize(batch);
  const aB = shapeSize(A.batch);
  const bB = shapeSize(B.batch);
  if ((aB !== nb && aB !== 1) || (bB !== nb && bB !== 1)) {
    throw new ShapeError(`matmul: batch shapes [${A.batch}] and [${B.batch}] differ`);
  }
  const m = A.rows;
  const n = B.cols;
  const k = A.cols;
  const shape = [...batch, ...(p.aVec ? [] : [m]), ...(p.bVec ? [] : [n])];
  const out = rt.alloc('float32', shape);
  if (m * n * nb === 0) return out;
  const pipe = await rt.pipeline('matmul|f32', () => SOURCE);
  const meta = rt.meta([m, k, n, aB === 1 ? 0 : m * k, bB === 1 ? 0 : k * n]);
  rt.dispatchGroups(
    pipe,
    [meta.buffer, out.buffer, a.buffer, b.buffer],
    Math.ceil(n / T),
    Math.ceil(m / T),
    nb,
  );
  rt.free(meta);
  return out;
}

/**
 * Sum of a_i · b_i over the pairs in `inputs` (float32, NumPy matmul semantics for 1-d operands).
 * @example
 * const c = await matmul(rt, [a, b], { dtype: 'float32', aVec: false, bVec: false });
 */
export async function matmul(
  rt: GpuRuntime,
  inputs: readonly GpuTensor[],
  p: GpuMatmulParams,
): Promise<GpuTensor> {
  if (inputs.length === 0 || inputs.length % 2 !== 0) {
    throw new ShapeError(`matmul: expected pairs of operands, got ${inputs.length} inputs`);
  }
  let acc = await product(rt, inputs[0]!, inputs[1]!, p);
  for (let i = 2; i < inputs.length; i += 2) {
    const next = await product(rt, inputs[i]!, inputs[i + 1]!, p);
    const [sum] = await runEw(rt, [acc, next], {
      expr: { op: 'add', args: [{ in: 0 }, { in: 1 }], dtype: 'float32' },
      dtype: 'float32',
    });
    rt.free(acc);
    rt.free(next);
    acc = sum!;
  }
  // a partial of a contraction tree keeps a unit axis for the tree's sum (as on the CPU)
  return p.unitAxis ? { ...acc, shape: [...acc.shape, 1] } : acc;
}
