// The WASM SIMD GEMM macro-kernel: C[mc×nc] += Ap·Bp over packed panels (Goto and van de
// Geijn, "Anatomy of high-performance matrix multiplication", 2008), an MR×NR register tile.

import { emitModule, fx, I32, op, V128, v } from './wasm-emit.ts';

/** Rows of the register tile (broadcast A values per step). */
export const MR = 4;
/** Columns of the register tile (NR/2 float64x2 vectors of B per step). */
export const NR = 4;

// params
const MC = 0;
const NC = 1;
const KC = 2;
const AP = 3;
const BP = 4;
const CP = 5;
const LDC = 6;
const K = 7;
// i32 locals
const JR = 8;
const IR = 9;
const A = 10;
const B = 11;
const C = 12;
const P = 13;
const CR = 14;
const FIRST_V128 = 15;

const NV = NR / 2;
const acc = (r: number, c: number): number => FIRST_V128 + r * NV + c;
const bv = (c: number): number => FIRST_V128 + MR * NV + c;
const AV = FIRST_V128 + MR * NV + NV;

const add = fx.f64.add!;
const mul = fx.f64.mul!;

function microTile(): number[] {
  const code: number[] = [];
  // a = ap + ir*K*8 ; b = bp + jr*K*8 ; c = cp + ir*ldc + jr*8
  code.push(...op.get(AP), ...op.get(IR), ...op.get(K), ...op.i32Mul, ...op.i32(3), ...op.i32Shl);
  code.push(...op.i32Add, ...op.set(A));
  code.push(...op.get(BP), ...op.get(JR), ...op.get(K), ...op.i32Mul, ...op.i32(3), ...op.i32Shl);
  code.push(...op.i32Add, ...op.set(B));
  code.push(...op.get(CP), ...op.get(IR), ...op.get(LDC), ...op.i32Mul, ...op.i32Add);
  code.push(...op.get(JR), ...op.i32(3), ...op.i32Shl, ...op.i32Add, ...op.set(C));
  const zero = v.const(new Array<number>(16).fill(0));
  for (let r = 0; r < MR; r++)
    for (let c = 0; c < NV; c++) code.push(...zero, ...op.set(acc(r, c)));
  code.push(...op.get(KC), ...op.set(P));
  code.push(...op.loop);
  for (let c = 0; c < NV; c++) code.push(...op.get(B), ...v.load(c * 16), ...op.set(bv(c)));
  for (let r = 0; r < MR; r++) {
    code.push(...op.get(A), ...v.load64Splat(r * 8), ...op.set(AV));
    for (let c = 0; c < NV; c++) {
      code.push(
        ...op.get(acc(r, c)),
        ...op.get(AV),
        ...op.get(bv(c)),
        ...mul,
        ...add,
        ...op.set(acc(r, c)),
      );
    }
  }
  code.push(...op.get(A), ...op.i32(MR * 8), ...op.i32Add, ...op.set(A));
  code.push(...op.get(B), ...op.i32(NR * 8), ...op.i32Add, ...op.set(B));
  code.push(...op.get(P), ...op.i32(1), ...op.i32Sub, ...op.tee(P), ...op.brIf(0), ...op.end);
  code.push(...op.get(C), ...op.set(CR));
  for (let r = 0; r < MR; r++) {
    for (let c = 0; c < NV; c++) {
      code.push(...op.get(CR), ...op.get(CR), ...v.load(c * 16), ...op.get(acc(r, c)), ...add);
      code.push(...v.store(c * 16));
    }
    code.push(...op.get(CR), ...op.get(LDC), ...op.i32Add, ...op.set(CR));
  }
  return code;
}

/** `for (x = 0; x < limit; x += step) body` */
function countedLoop(x: number, limit: number, step: number, body: number[]): number[] {
  return [
    ...op.i32(0),
    ...op.set(x),
    ...op.block,
    ...op.loop,
    ...op.get(x),
    ...op.get(limit),
    ...op.i32GeS,
    ...op.brIf(1),
    ...body,
    ...op.get(x),
    ...op.i32(step),
    ...op.i32Add,
    ...op.set(x),
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
}

/**
 * Module bytes exporting `gemm(mc, nc, kc, ap, bp, cp, ldc, K)` (byte addresses; mc a
 * multiple of MR, nc of NR, kc ≥ 1): A panels of MR rows hold K steps of MR values, B
 * panels of NR columns K steps of NR values; C rows are ldc bytes apart.
 * @example
 * new WebAssembly.Module(gemmModuleBytes(16));
 */
export function gemmModuleBytes(memoryPages: number): Uint8Array<ArrayBuffer> {
  const code = countedLoop(JR, NC, NR, countedLoop(IR, MC, MR, microTile()));
  const locals = [
    ...new Array<number>(7).fill(I32),
    ...new Array<number>(MR * NV + NV + 1).fill(V128),
  ];
  return emitModule({
    memoryPages,
    imports: [],
    funcs: [
      {
        type: { params: new Array<number>(8).fill(I32), results: [] },
        locals,
        code,
        export: 'gemm',
      },
    ],
  });
}
