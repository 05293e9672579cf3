// Symmetric float32 correlation passes in WebAssembly SIMD: the same sums as symmetricPass
// (float64, w0·x then + wt·(x[-t] + x[+t]) tap by tap), four outputs per step, bit-identical.

import { type WasmMemory, wasmApi } from '../../cpu-wasm/wasm-api.ts';
import { emitModule, fx, I32, MAX_PAGES, op, V128, v } from '../../cpu-wasm/wasm-emit.ts';

const PAGE = 65536;
/** Blocks whose ping-pong buffers need more than this (kept per thread) run in JavaScript. */
const MAX_BYTES = 96 * 2 ** 20;

// params: src (byte address of output 0's centre tap), dst, bytes (a multiple of 16),
// st (tap stride in bytes), w (address of float64 weights w0 … wr), r
const [SRC, DST, BYTES, ST, W, R] = [0, 1, 2, 3, 4, 5];
// locals
const [KB, P, T, OFF, WA, ACC0, ACC1, L, RR, W0, WT] = [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
const HIGH = v.shuffle([8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15]);
const JOIN = v.shuffle([0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]);
const g = op.get;
const s = op.set;

/** lanes 0-1 (lo) or 2-3 (hi) of local `x` as float64x2 */
const half = (x: number, hi: boolean) =>
  hi ? [...g(x), ...g(x), ...HIGH, ...v.promote] : [...g(x), ...v.promote];

function tap(acc: number, hi: boolean): number[] {
  // acc += (L + R) · wt, in float64
  return [
    ...g(acc),
    ...half(L, hi),
    ...half(RR, hi),
    ...fx.f64.add!,
    ...g(WT),
    ...fx.f64.mul!,
    ...fx.f64.add!,
    ...s(acc),
  ];
}

/** line(src, dst, bytes, st, w, r): four outputs per step of the outer loop. */
const code: number[] = [
  // w0 in both lanes; kb = 0
  ...g(W),
  ...v.load64Splat(0),
  ...s(W0),
  ...op.i32(0),
  ...s(KB),
  ...op.block,
  ...op.loop,
  ...g(KB),
  ...g(BYTES),
  ...op.i32GeS,
  ...op.brIf(1),
  // p = src + kb; acc0, acc1 = w0 · x[p] (lanes 0-1, 2-3 as float64)
  ...g(SRC),
  ...g(KB),
  ...op.i32Add,
  ...s(P),
  ...g(P),
  ...v.load(0),
  ...s(L),
  ...half(L, false),
  ...g(W0),
  ...fx.f64.mul!,
  ...s(ACC0),
  ...half(L, true),
  ...g(W0),
  ...fx.f64.mul!,
  ...s(ACC1),
  // t = 1, off = st, wa = w + 8: the mirrored pairs, nearest first
  ...op.i32(1),
  ...s(T),
  ...g(ST),
  ...s(OFF),
  ...g(W),
  ...op.i32(8),
  ...op.i32Add,
  ...s(WA),
  ...op.block,
  ...op.loop,
  ...g(R),
  ...g(T),
  ...op.i32LtS,
  ...op.brIf(1),
  ...g(P),
  ...g(OFF),
  ...op.i32Sub,
  ...v.load(0),
  ...s(L),
  ...g(P),
  ...g(OFF),
  ...op.i32Add,
  ...v.load(0),
  ...s(RR),
  ...g(WA),
  ...v.load64Splat(0),
  ...s(WT),
  ...tap(ACC0, false),
  ...tap(ACC1, true),
  ...g(T),
  ...op.i32(1),
  ...op.i32Add,
  ...s(T),
  ...g(OFF),
  ...g(ST),
  ...op.i32Add,
  ...s(OFF),
  ...g(WA),
  ...op.i32(8),
  ...op.i32Add,
  ...s(WA),
  ...op.br(0),
  ...op.end,
  ...op.end,
  // dst[kb] = the four sums rounded to float32; kb += 16
  ...g(DST),
  ...g(KB),
  ...op.i32Add,
  ...g(ACC0),
  ...v.demote,
  ...g(ACC1),
  ...v.demote,
  ...JOIN,
  ...v.store(0),
  ...g(KB),
  ...op.i32(16),
  ...op.i32Add,
  ...s(KB),
  ...op.br(0),
  ...op.end,
  ...op.end,
];

interface LineKernel {
  readonly memory: WasmMemory;
  readonly line: (
    src: number,
    dst: number,
    bytes: number,
    st: number,
    w: number,
    r: number,
  ) => void;
}

let kernel: LineKernel | null | undefined;

/** This thread's compiled line kernel and its memory, or null without WebAssembly SIMD. */
function lineKernel(): LineKernel | null {
  if (kernel !== undefined) return kernel;
  kernel = null;
  const api = wasmApi();
  if (api === undefined) return kernel;
  try {
    const bytes = emitModule({
      memoryPages: 1,
      imports: [],
      funcs: [
        {
          type: { params: [I32, I32, I32, I32, I32, I32], results: [] },
          locals: [I32, I32, I32, I32, I32, V128, V128, V128, V128, V128, V128],
          code,
          export: 'line',
        },
      ],
    });
    const memory = new api.Memory({ initial: 1, maximum: MAX_PAGES, shared: true });
    const exports = new api.Instance(new api.Module(bytes), { env: { mem: memory } }).exports;
    kernel = { memory, line: exports.line as LineKernel['line'] };
  } catch {
    kernel = null;
  }
  return kernel;
}

/**
 * One pass (as symmetricPass's) from float32 element `from` to `to` of `f`, a view of the
 * kernel's memory at byte `at.base`; the weights at byte `at.weights`.
 */
function wasmPass(
  k: LineKernel,
  f: Float32Array,
  from: number,
  to: number,
  outer: number,
  len: number,
  inner: number,
  w: Float64Array,
  at: { base: number; weights: number },
): void {
  const r = w.length - 1;
  const m = len - 2 * r;
  const { base, weights } = at;
  const line = (c: number, st: number, d: number, n: number) => {
    const n4 = n & ~3;
    if (n4 > 0) k.line(base + (from + c) * 4, base + (to + d) * 4, n4 * 4, st * 4, weights, r);
    for (let j = n4; j < n; j++) {
      // the tail, one output at a time in the same order
      const ck = from + c + j;
      let acc = w[0]! * f[ck]!;
      for (let t = 1, off = st; t <= r; t++, off += st)
        acc += w[t]! * (f[ck - off]! + f[ck + off]!);
      f[to + d + j] = acc;
    }
  };
  if (inner === 1) {
    for (let o = 0; o < outer; o++) line(o * len + r, 1, o * m, m);
    return;
  }
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < m; i++) line((o * len + i + r) * inner, inner, (o * m + i) * inner, inner);
  }
}

/** A symmetric pass of a float32 block: its shape seen as (outer, len, inner) and weights. */
export interface Float32Pass {
  readonly outer: number;
  readonly len: number;
  readonly inner: number;
  readonly weights: Float64Array;
}

/**
 * The passes run in turn on `x` (float32) in WebAssembly memory, the last one's result
 * copied into `out`; false (nothing written) where WebAssembly SIMD is unavailable or the
 * block too large for this thread's kernel memory.
 * @example
 * if (!wasmSymmetricPasses(x.data, passes, out)) runInJavaScript();
 */
export function wasmSymmetricPasses(
  x: Float32Array,
  passes: readonly Float32Pass[],
  out: Float32Array,
): boolean {
  const wBytes = passes.reduce((n, p) => n + p.weights.length * 8, 0);
  const base = Math.ceil(wBytes / 16) * 16;
  const slot = Math.ceil((x.length * 4) / 16) * 16;
  const need = base + 2 * slot;
  if (need > MAX_BYTES) return false;
  const k = lineKernel();
  if (k === null) return false;
  const have = k.memory.buffer.byteLength;
  if (have < need) k.memory.grow(Math.ceil((need - have) / PAGE));
  const buf = k.memory.buffer;
  const weights = new Float64Array(buf, 0, wBytes / 8);
  const f = new Float32Array(buf, base, (2 * slot) / 4);
  const second = slot / 4;
  f.set(x, 0);
  let from = 0;
  let wAt = 0;
  for (const p of passes) {
    weights.set(p.weights, wAt / 8);
    const to = from === 0 ? second : 0;
    wasmPass(k, f, from, to, p.outer, p.len, p.inner, p.weights, { base, weights: wAt });
    wAt += p.weights.length * 8;
    from = to;
  }
  out.set(f.subarray(from, from + out.length));
  return true;
}
