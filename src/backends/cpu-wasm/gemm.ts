// Blocked GEMM through WASM scratch: B packed NC columns at a time for all of k, A packed
// MC rows at a time, a C tile accumulated in scratch over KC steps and added back.

import type { NumberArray } from '../../array/dtype.ts';
import { gemmModuleBytes, MR, NR } from './gemm-compile.ts';
import { scratchMemory } from './scratch.ts';
import { instantiate } from './wasm-api.ts';

const MC_BLOCK = 64;
const NC_BLOCK = 512;
const KC_BLOCK = 256;

type GemmFn = (
  mc: number,
  nc: number,
  kc: number,
  ap: number,
  bp: number,
  cp: number,
  ldc: number,
  k: number,
) => void;
let gemmFn: GemmFn | undefined;

const roundUp = (x: number, m: number): number => Math.ceil(x / m) * m;

/**
 * `c[cOff + i·n + j] += Σ_p a[aOff + i·k + p] · b[bOff + p·n + j]` in float64 (a and b may be
 * float32; values convert exactly). Row-major, as cpu-js gemmAccumulate.
 * @example
 * const c = new Float64Array(4);
 * gemmWasm(Float64Array.of(1, 2, 3, 4), 0, Float64Array.of(1, 0, 0, 1), 0, c, 0, 2, 2, 2); // c = [1, 2, 3, 4]
 */
export function gemmWasm(
  a: NumberArray,
  aOff: number,
  b: NumberArray,
  bOff: number,
  c: Float64Array,
  cOff: number,
  m: number,
  k: number,
  n: number,
): void {
  if (m === 0 || n === 0 || k === 0) return;
  const ncMax = roundUp(Math.min(n, NC_BLOCK), NR);
  const mcMax = roundUp(Math.min(m, MC_BLOCK), MR);
  const bBytes = k * ncMax * 8;
  const aBytes = mcMax * k * 8;
  const cBytes = mcMax * ncMax * 8;
  const mem = scratchMemory(bBytes + aBytes + cBytes);
  if (gemmFn === undefined) gemmFn = instantiate(gemmModuleBytes(1), { mem }).gemm as GemmFn;
  const heap = new Float64Array(mem.buffer);
  const bp = 0;
  const ap = bBytes;
  const cp = bBytes + aBytes;
  for (let jc = 0; jc < n; jc += NC_BLOCK) {
    const nc = Math.min(NC_BLOCK, n - jc);
    const ncPad = roundUp(nc, NR);
    packB(b, bOff + jc, n, k, nc, ncPad, heap, bp / 8);
    for (let ic = 0; ic < m; ic += MC_BLOCK) {
      const mc = Math.min(MC_BLOCK, m - ic);
      const mcPad = roundUp(mc, MR);
      packA(a, aOff + ic * k, k, mc, mcPad, heap, ap / 8);
      heap.fill(0, cp / 8, cp / 8 + mcPad * ncPad);
      for (let pc = 0; pc < k; pc += KC_BLOCK) {
        const kc = Math.min(KC_BLOCK, k - pc);
        gemmFn(mcPad, ncPad, kc, ap + pc * MR * 8, bp + pc * NR * 8, cp, ncPad * 8, k);
      }
      for (let i = 0; i < mc; i++) {
        const src = cp / 8 + i * ncPad;
        const dst = cOff + (ic + i) * n + jc;
        for (let j = 0; j < nc; j++) c[dst + j]! += heap[src + j]!;
      }
    }
  }
}

/** B[:, cols] as panels of NR columns, k steps each (zero columns pad the last panel). */
function packB(
  b: NumberArray,
  off: number,
  ldb: number,
  k: number,
  nc: number,
  ncPad: number,
  heap: Float64Array,
  at: number,
): void {
  for (let j0 = 0; j0 < ncPad; j0 += NR) {
    let q = at + j0 * k;
    const w = Math.min(NR, nc - j0);
    for (let p = 0; p < k; p++, q += NR) {
      const row = off + p * ldb + j0;
      for (let j = 0; j < w; j++) heap[q + j] = b[row + j]!;
      for (let j = w; j < NR; j++) heap[q + j] = 0;
    }
  }
}

/** A[rows, :] as panels of MR rows, k steps each (zero rows pad the last panel). */
function packA(
  a: NumberArray,
  off: number,
  k: number,
  mc: number,
  mcPad: number,
  heap: Float64Array,
  at: number,
): void {
  for (let i0 = 0; i0 < mcPad; i0 += MR) {
    const base = at + i0 * k;
    for (let r = 0; r < MR; r++) {
      let q = base + r;
      if (i0 + r >= mc) {
        for (let p = 0; p < k; p++, q += MR) heap[q] = 0;
        continue;
      }
      const row = off + (i0 + r) * k;
      for (let p = 0; p < k; p++, q += MR) heap[q] = a[row + p]!;
    }
  }
}
