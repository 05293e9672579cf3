// WASM SIMD folds for block reductions: `fold(n)` folds n (a multiple of 4) elements at a
// fixed scratch address into four float64 lanes kept in memory, lane j taking the elements at
// i ≡ j (mod 4): the same partial accumulators, in the same order, as cpu-js's loops.

import { emitModule, fx, I32, op, V128, v } from './wasm-emit.ts';

export type FoldOp = 'sum' | 'prod' | 'min' | 'max';

const N = 0;
const I = 1;
const ADDR = 2;
const A = 3; // lanes 0-1
const B = 4; // lanes 2-3
const X = 5;
const Y = 6;
const NAN = 7; // min/max: lanes that met a NaN

const HIGH_HALF = [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];
const PMIN = [0xfd, 0xf6, 0x01];
const PMAX = [0xfd, 0xf7, 0x01];

function step(fold: FoldOp, acc: number, x: number): number[] {
  const F = fx.f64;
  switch (fold) {
    case 'sum':
      return [...op.get(acc), ...op.get(x), ...F.add!, ...op.set(acc)];
    case 'prod':
      return [...op.get(A), ...op.get(x), ...F.mul!, ...op.set(A)];
    case 'min':
    case 'max':
      return [
        ...op.get(acc),
        ...op.get(x),
        ...(fold === 'min' ? PMIN : PMAX),
        ...op.set(acc),
        ...op.get(NAN),
        ...op.get(x),
        ...op.get(x),
        ...F.ne!,
        ...v.or,
        ...op.set(NAN),
      ];
  }
}

/**
 * Module bytes exporting `fold(n)` for `fold` over float32 or float64 elements at byte
 * `base`, its state (lanes A, B, then NaN flags: 48 bytes) at byte `st`. prod keeps
 * two lanes (i ≡ j mod 2, as cpu-js's two partial products) in A and leaves B alone.
 * @example
 * new WebAssembly.Module(foldModuleBytes('sum', 'float64', 0, 65536, 2));
 */
export function foldModuleBytes(
  fold: FoldOp,
  dtype: 'float32' | 'float64',
  base: number,
  st: number,
  pages: number,
): Uint8Array<ArrayBuffer> {
  const load =
    dtype === 'float64'
      ? [
          ...op.get(ADDR),
          ...v.load(base),
          ...op.set(X),
          ...op.get(ADDR),
          ...v.load(base + 16),
          ...op.set(Y),
        ]
      : [
          ...op.get(ADDR),
          ...v.load(base),
          ...op.tee(Y),
          ...v.promote,
          ...op.set(X),
          ...op.get(Y),
          ...op.get(Y),
          ...v.shuffle(HIGH_HALF),
          ...v.promote,
          ...op.set(Y),
        ];
  const shift = dtype === 'float64' ? 3 : 2;
  const code = [
    ...op.i32(0),
    ...v.load(st),
    ...op.set(A),
    ...op.i32(0),
    ...v.load(st + 16),
    ...op.set(B),
    ...op.i32(0),
    ...v.load(st + 32),
    ...op.set(NAN),
    ...op.block,
    ...op.loop,
    ...op.get(I),
    ...op.get(N),
    ...op.i32GeS,
    ...op.brIf(1),
    ...op.get(I),
    ...op.i32(shift),
    ...op.i32Shl,
    ...op.set(ADDR),
    ...load,
    ...step(fold, A, X),
    ...step(fold, B, Y),
    ...op.get(I),
    ...op.i32(4),
    ...op.i32Add,
    ...op.set(I),
    ...op.br(0),
    ...op.end,
    ...op.end,
    ...op.i32(0),
    ...op.get(A),
    ...v.store(st),
    ...op.i32(0),
    ...op.get(B),
    ...v.store(st + 16),
    ...op.i32(0),
    ...op.get(NAN),
    ...v.store(st + 32),
  ];
  return emitModule({
    memoryPages: pages,
    imports: [],
    funcs: [
      {
        type: { params: [I32], results: [] },
        locals: [I32, I32, V128, V128, V128, V128, V128],
        code,
        export: 'fold',
      },
    ],
  });
}
