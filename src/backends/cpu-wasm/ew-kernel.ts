// The cpu-wasm 'ew' kernel: the same params and result as cpu-js 'ew', computed by a
// compiled WASM SIMD loop over input tiles copied into WASM memory; other cases run cpu-js's.
// A large output is written in place: it lives in a shared WASM memory of its own (its
// buffer is a SharedArrayBuffer like any chunk's), so no tile is copied out.

import {
  allocate,
  type DType,
  type NumberArray,
  numberData,
  typedArrayCtor,
} from '../../array/dtype.ts';
import { NDArray, shapeSize } from '../../array/ndarray.ts';
import type { Chunk, Kernel } from '../../kernels/types.ts';
import {
  broadcastBlockShapes,
  evaluateExpr,
  simplifyLayout,
} from '../cpu-js/elementwise/elementwise.ts';
import { exprKey } from '../cpu-js/elementwise/ew-codegen.ts';
import type { EwParams, Expr } from '../cpu-js/elementwise/expr.ts';
import { compileEwLoop, OVERRUN_BYTES, Unsupported } from './ew-compile.ts';
import { scratchMemory } from './scratch.ts';
import { compile, instantiateModule, sharedMemory, type WasmMemory } from './wasm-api.ts';

/**
 * Elements per tile: 8 KiB of float64 per operand, so a tile's operands stay in L1. Measured
 * on x*2+1 over 10M elements: float32 15 GB/s at 1024 vs 11.5 at 4096; float64 about equal.
 */
export const TILE = 1024;
const SLOT_BYTES = TILE * 8;
/** Strided layouts whose rows are shorter than this run on cpu-js (per-row cost). */
const MIN_ROW = 256;
const PAGE = 65536;

/** `run(n, inBase, outBase)` of a compiled loop (see compileEwLoop). */
export type RawLoop = (n: number, inBase: number, outBase: number) => void;

export interface Loop {
  /** Over this thread's scratch: input slot k at k·SLOT_BYTES, the output slot after them. */
  readonly run: (n: number) => void;
  /** The loop bound to another memory. */
  readonly bind: (mem: WasmMemory) => RawLoop;
  readonly used: readonly number[];
  readonly slots: number;
}

const loops = new Map<string, Loop | null>();
const MAX_LOOPS = 2000;
const exprKeys = new WeakMap<Expr, string>();

function keyOf(e: Expr): string {
  let k = exprKeys.get(e);
  if (k === undefined) {
    k = exprKey(e);
    exprKeys.set(e, k);
  }
  return k;
}

/** The instantiated loop for a specialisation, or null where the compiler declines. */
export function wasmLoop(
  expr: Expr,
  inputDtypes: readonly DType[],
  scalar: readonly boolean[],
  outDtype: DType,
): Loop | null {
  const key = `${keyOf(expr)}|${inputDtypes.join(',')}|${scalar.map(Number).join('')}|${outDtype}`;
  let loop = loops.get(key);
  if (loop !== undefined) return loop;
  try {
    const c = compileEwLoop({ expr, inputDtypes, scalar, outDtype, slotBytes: SLOT_BYTES });
    const module = compile(c.bytes);
    const bind = (mem: WasmMemory): RawLoop =>
      instantiateModule(module, { mem, ...c.imports }).run as RawLoop;
    const raw = bind(scratchMemory(c.slots * SLOT_BYTES));
    const outSlot = inputDtypes.length * SLOT_BYTES;
    loop = { run: (n) => raw(n, 0, outSlot), bind, used: c.used, slots: c.slots };
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    loop = null;
  }
  if (loops.size >= MAX_LOOPS) loops.clear();
  loops.set(key, loop);
  return loop;
}

/** A view of scratch slot `slot` as `dtype` (stale once the scratch memory grows). */
export function slotView(dtype: DType, slot: number): NumberArray {
  const buf = scratchMemory(0).buffer;
  return numberData(new (typedArrayCtor(dtype))(buf, slot * SLOT_BYTES, TILE), 'ew');
}

const isFloat = (d: DType): boolean => d === 'float32' || d === 'float64';

/**
 * Evaluate `params.expr` as cpu-js `evaluateExpr` does (same values, shape, dtype), with a
 * WASM SIMD loop where it can; falls back to cpu-js for other dtypes and short strided rows.
 * @example
 * evaluateExprWasm([x], { expr: { op: 'multiply', args: [{ in: 0 }, { const: 2 }], dtype: 'float64' }, dtype: 'float64' });
 */
export function evaluateExprWasm(inputs: readonly Chunk[], params: EwParams): NDArray {
  if (!inputs.every((b) => b instanceof NDArray && isFloat(b.dtype)) || !isFloat(params.dtype)) {
    return evaluateExpr(inputs, params);
  }
  const blocks = inputs as readonly NDArray[];
  const outShape = broadcastBlockShapes(blocks.map((b) => b.shape));
  const size = shapeSize(outShape);
  if (size === 0) return evaluateExpr(inputs, params);
  const layout = simplifyLayout(
    outShape,
    blocks.map((b) => b.shape),
  );
  const scalar = layout.modes.map((m) => m === 's');
  const loop = wasmLoop(
    params.expr,
    blocks.map((b) => b.dtype),
    scalar,
    params.dtype,
  );
  const general = loop?.used.some((k) => layout.modes[k] === 'g');
  const inner = layout.shape[layout.shape.length - 1]!;
  if (loop === null || (general && inner < MIN_ROW)) return evaluateExpr(inputs, params);
  // the output goes to pooled (or huge-page) shared memory through the tile scratch: a fresh
  // WebAssembly memory per block (runDirect) cost more than the copy it saves in pipelines
  // (10 persisted 1M-element float32 blocks, sync: x*2+1 in 34 ms against 154 direct)
  const out = runTiles(
    loop,
    blocks,
    layout,
    scalar,
    numberData(allocate(params.dtype, size), 'ew'),
  );
  return new NDArray(out, outShape, params.dtype);
}

/** Where a loop reads its input tiles and puts each run of outputs. */
interface Target {
  /** Input tile k's view. */
  readonly tile: (k: number, dtype: DType) => NumberArray;
  /** Compute outputs [o, o + len) from the tiles. */
  readonly emit: (o: number, len: number) => void;
}

/** A shared WASM memory holding an output of `size` elements at byte 0, tiles at `inBase`. */
export interface DirectOutput {
  readonly mem: WasmMemory;
  readonly inBase: number;
  readonly out: NumberArray;
}

/**
 * A fresh (zeroed) memory for an output of `size` `dtype` elements from `inputs` inputs, for
 * runDirect: bench/wasm.ts times the loop alone writing in place into a warm output with it.
 * The kernel itself writes through tiles into pooled memory (see evaluateExprWasm).
 */
export function directOutput(dtype: DType, size: number, inputs: number): DirectOutput {
  const Ctor = typedArrayCtor(dtype);
  const inBase = Math.ceil((size * Ctor.BYTES_PER_ELEMENT + OVERRUN_BYTES) / 64) * 64;
  const mem = sharedMemory(Math.ceil((inBase + inputs * SLOT_BYTES) / PAGE));
  return { mem, inBase, out: numberData(new Ctor(mem.buffer, 0, size), 'ew') };
}

/**
 * Fill `target.out` in place: the loop, bound to its memory, writes each run of outputs where
 * it belongs, reading input tiles copied to `target.inBase`. Returns the output.
 */
export function runDirect(
  loop: Loop,
  blocks: readonly NDArray[],
  layout: { shape: number[]; strides: number[][]; modes: string[] },
  scalar: readonly boolean[],
  target: DirectOutput,
): NumberArray {
  const { mem, inBase, out } = target;
  const bpe = out.BYTES_PER_ELEMENT;
  const raw = loop.bind(mem);
  const buf = mem.buffer;
  fillTiles(loop, blocks, layout, scalar, out.length, {
    tile: (k, d) => numberData(new (typedArrayCtor(d))(buf, inBase + k * SLOT_BYTES, TILE), 'ew'),
    emit: (o, len) => raw(len, inBase, o * bpe),
  });
  return out;
}

/** Fill `out` (the broadcast output, C order) by running `loop` tile by tile in scratch. */
export function runTiles(
  loop: Loop,
  blocks: readonly NDArray[],
  layout: { shape: number[]; strides: number[][]; modes: string[] },
  scalar: readonly boolean[],
  out: NumberArray,
): NumberArray {
  const outTile = slotView(out instanceof Float32Array ? 'float32' : 'float64', blocks.length);
  fillTiles(loop, blocks, layout, scalar, out.length, {
    tile: (k, d) => slotView(d, k),
    emit: (o, len) => {
      loop.run(len);
      out.set(len === TILE ? outTile : outTile.subarray(0, len), o);
    },
  });
  return out;
}

function fillTiles(
  loop: Loop,
  blocks: readonly NDArray[],
  layout: { shape: number[]; strides: number[][]; modes: string[] },
  scalar: readonly boolean[],
  size: number,
  target: Target,
): void {
  const general = loop.used.some((k) => layout.modes[k] === 'g');
  const ins = loop.used.map((k) => ({
    k,
    data: numberData(blocks[k]!.data, 'ew'),
    tile: target.tile(k, blocks[k]!.dtype),
  }));
  for (const x of ins) if (scalar[x.k]) x.tile[0] = x.data[0]!;
  if (!general) {
    const cs = ins.filter((x) => !scalar[x.k]);
    for (let o = 0; o < size; o += TILE) {
      const len = Math.min(TILE, size - o);
      for (const x of cs) x.tile.set(x.data.subarray(o, o + len));
      target.emit(o, len);
    }
  } else {
    stridedTiles(ins, layout, scalar, size, target);
  }
}

interface TileInput {
  readonly k: number;
  readonly data: NumberArray;
  readonly tile: NumberArray;
}

/** Row by row over a strided layout: each input's row segment is copied, filled or gathered. */
function stridedTiles(
  ins: readonly TileInput[],
  layout: { shape: number[]; strides: number[][]; modes: string[] },
  scalar: readonly boolean[],
  total: number,
  target: Target,
): void {
  const { shape, strides, modes } = layout;
  const nd = shape.length;
  const inner = shape[nd - 1]!;
  const moving = ins.filter((x) => !scalar[x.k]);
  const pos = moving.map(() => 0);
  const idx = new Array<number>(nd).fill(0);
  for (let o = 0; o < total; ) {
    for (let j0 = 0; j0 < inner; j0 += TILE) {
      const len = Math.min(TILE, inner - j0);
      moving.forEach((x, m) => {
        if (modes[x.k] === 'c') x.tile.set(x.data.subarray(o + j0, o + j0 + len));
        else
          copyStrided(
            x.data,
            pos[m]! + j0 * strides[x.k]![nd - 1]!,
            strides[x.k]![nd - 1]!,
            x.tile,
            len,
          );
      });
      target.emit(o + j0, len);
    }
    o += inner;
    for (let ax = nd - 2; ax >= 0; ax--) {
      moving.forEach((x, m) => {
        pos[m] = pos[m]! + strides[x.k]![ax]!;
      });
      if (++idx[ax]! < shape[ax]!) break;
      moving.forEach((x, m) => {
        pos[m] = pos[m]! - strides[x.k]![ax]! * shape[ax]!;
      });
      idx[ax] = 0;
    }
  }
}

function copyStrided(
  src: NumberArray,
  start: number,
  step: number,
  dst: NumberArray,
  len: number,
): void {
  if (step === 1) dst.set(src.subarray(start, start + len));
  else if (step === 0) dst.fill(src[start]!, 0, len);
  else for (let j = 0, p = start; j < len; j++, p += step) dst[j] = src[p]!;
}

/** The elementwise kernels of cpu-wasm. */
export const ewKernels: Record<string, Kernel<never>> = {
  ew: ((inputs: Chunk[], params: EwParams) => evaluateExprWasm(inputs, params)) as Kernel<never>,
};
