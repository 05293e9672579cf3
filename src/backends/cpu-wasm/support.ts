// When cpu-wasm can and should run an operation: pure, cheap checks on the layer's OpMeta
// (no module compilation, except one tiny SIMD validation cached per thread).
//
// Thresholds were measured on this project's 2-core machine, one thread (bench/wasm.ts and
// the figures below; best of 5):
// - 'ew' y = x*2+1: float64 1,024 elements 3.9 µs (cpu-js) vs 3.5 µs (cpu-wasm), 256: 1.5
//   vs 2.7 µs; float32 1,024: 3.1 vs 2.3 µs, 256: 1.5 vs 1.7 µs. Below 1,024 cpu-js wins.
// - 'reduce-partial' over 10M elements: float64 sum 16.7 GB/s (cpu-js, read-only loop) vs
//   11.4 GB/s (cpu-wasm, which copies through scratch), prod 16.9 vs 8.1; float32 sum
//   6.0 vs 8.4, prod 6.7 vs 5.5; min/max float64 8.0 vs 9.4, float32 3.5 vs 6.5.
// - 'ew-reduce' sum(x*2+1) over a block read through a view: float32 100² 2.3 vs 1.8 GB/s,
//   256² 1.6 vs 2.1, 512² 3.3 vs 6.3, 2500×4000 2.9 vs 4.9; float64 2500×4000 13.2 vs 5.4
//   (cpu-js's fused sum reads in place; cpu-wasm copies), 100² 7.2 vs 4.1.
// - 'matmul' float64 square blocks: 16³ 5.1 µs vs 6.2 µs, 32³ 31 µs vs 26 µs, 64³ 225 vs 97.

import { type DType, isComplex } from '../../array/dtype.ts';
import type { OpMeta, Verdict } from '../../dispatch/types.ts';
import type { EwParams, Expr } from '../cpu-js/elementwise/expr.ts';
import { matmulBlockShape } from '../cpu-js/linalg/matmul-size.ts';
import { EW_OPS } from './ew-compile.ts';
import { MIN_RUN } from './reduce-kernel.ts';
import { wasmApi } from './wasm-api.ts';
import { emitModule, op, v } from './wasm-emit.ts';

/** The kernel names cpu-wasm implements. */
export const IMPLEMENTED: readonly string[] = [
  'ew',
  'ew-view',
  'ew-reduce',
  'reduce-partial',
  'matmul',
];

/** 'ew' blocks smaller than this run faster on cpu-js. */
export const EW_MIN_ELEMENTS = 1024;
/** float32 'ew-reduce' blocks smaller than this run faster on cpu-js (float64 always does). */
export const EW_REDUCE_MIN_ELEMENTS = 65536;
/** Matrix products with fewer multiply-adds (m·k·n) run faster on cpu-js. */
export const MATMUL_MIN_MACS = 32 ** 3;

const REDUCE_OPS = new Set(['sum', 'mean', 'prod', 'min', 'max']);
/** Reductions where cpu-wasm measured faster (see above). */
const REDUCE_FASTER: Record<string, readonly string[]> = {
  float32: ['sum', 'mean', 'min', 'max'],
  float64: ['min', 'max'],
};

let available: Verdict | undefined;

/**
 * `true` if this engine has WebAssembly with SIMD, else why not (cached).
 * @example
 * wasmAvailable(); // true on Node 20
 */
export function wasmAvailable(): Verdict {
  if (available !== undefined) return available;
  const api = wasmApi();
  if (api === undefined) {
    available = 'cpu-wasm: WebAssembly is not available';
    return available;
  }
  const probe = emitModule({
    memoryPages: 1,
    imports: [],
    funcs: [
      {
        type: { params: [], results: [] },
        locals: [],
        code: [...v.const(new Array<number>(16).fill(0)), ...op.drop],
      },
    ],
  });
  available = api.validate(probe) ? true : 'cpu-wasm: WebAssembly SIMD is not supported here';
  return available;
}

const isFloat = (d: DType): boolean => d === 'float32' || d === 'float64';

function floatOnly(op: string, meta: OpMeta): Verdict {
  if (!isFloat(meta.dtype)) return `cpu-wasm: '${op}' on ${meta.dtype} is not implemented`;
  for (const x of meta.inputs) {
    if (!isFloat(x.dtype)) return `cpu-wasm: '${op}' on ${x.dtype} inputs is not implemented`;
  }
  return true;
}

/**
 * The first op or node dtype in `e` cpu-wasm does not take (the compiler lacks it, or its
 * answer could differ from cpu-js's), if any.
 * @example
 * unsupportedNode({ op: 'copysign', args: [{ in: 0 }, { op: 'maximum', args: [{ in: 0 }, { in: 1 }], dtype: 'float32' }], dtype: 'float32' });
 * // "'copysign' of a computed sign (NaN sign bits differ)"
 */
export function unsupportedNode(e: Expr): string | undefined {
  if ('in' in e || 'const' in e) return undefined;
  if (!EW_OPS.includes(e.op)) return `op '${e.op}'`;
  // a NaN computed in WebAssembly has its canonical sign, one computed in JavaScript (as NumPy
  // on x86) keeps the sign bit of the NaN it came from: copysign would read them differently
  const sign = e.op === 'copysign' ? e.args[1] : undefined;
  if (sign !== undefined && !('in' in sign || 'const' in sign)) {
    return "'copysign' of a computed sign (NaN sign bits differ)";
  }
  if (!isFloat(e.dtype) && e.dtype !== 'bool') return `${e.dtype} intermediates ('${e.op}')`;
  for (const a of e.args) {
    const bad = unsupportedNode(a);
    if (bad) return bad;
  }
  return undefined;
}

/**
 * Whether cpu-wasm can run `op` on these inputs at all; a string says why not.
 * @example
 * canRun('ew', { ...meta, dtype: 'int32' }); // "cpu-wasm: 'ew' on int32 is not implemented"
 */
export function canRun(op: string, meta: OpMeta): Verdict {
  const avail = wasmAvailable();
  if (avail !== true) return avail;
  if (!IMPLEMENTED.includes(op)) return `cpu-wasm: '${op}' is not implemented`;
  if (isComplex(meta.dtype) || meta.inputs.some((x) => isComplex(x.dtype))) {
    return `cpu-wasm: '${op}' on complex data is not implemented (cpu-js's loops take it)`;
  }
  if (op === 'ew-view') return true; // views are read in place by cpu-js's loop (kernels.ts)
  if (meta.dtype === 'float16' || meta.inputs.some((x) => x.dtype === 'float16')) {
    return `cpu-wasm: '${op}' on float16 is not implemented (cpu-js decodes its bits)`;
  }
  if (meta.params === undefined || meta.params === null) {
    return `cpu-wasm: '${op}' without its params is not implemented`;
  }
  const dtypes = floatOnly(op, meta);
  if (dtypes !== true) return dtypes;
  if (op === 'ew') {
    const bad = unsupportedNode((meta.params as EwParams).expr);
    return bad === undefined ? true : `cpu-wasm: 'ew' with ${bad} is not implemented`;
  }
  if (op === 'ew-reduce') {
    const p = meta.params as EwParams & { reduce: { op: string; castTo?: DType } };
    if (p.reduce.op !== 'sum' && p.reduce.op !== 'mean') {
      return `cpu-wasm: 'ew-reduce' ${p.reduce.op} is not implemented`;
    }
    if (p.reduce.castTo !== undefined)
      return "cpu-wasm: 'ew-reduce' with castTo is not implemented";
    const bad = unsupportedNode(p.expr);
    return bad === undefined ? true : `cpu-wasm: 'ew-reduce' with ${bad} is not implemented`;
  }
  if (op === 'reduce-partial') {
    const p = meta.params as { op: string; castTo?: DType };
    if (!REDUCE_OPS.has(p.op)) return `cpu-wasm: 'reduce-partial' ${p.op} is not implemented`;
    const input = meta.inputs[0]?.dtype;
    if (p.castTo !== undefined && p.castTo !== input) {
      return `cpu-wasm: 'reduce-partial' with castTo ${p.castTo} is not implemented`;
    }
  }
  return true;
}

/** The largest chunk size on an axis; unknown sizes count as large. */
const largest = (sizes: readonly (number | null)[] | undefined): number =>
  Math.max(0, ...(sizes ?? []).map((s) => s ?? Infinity));

/**
 * Whether cpu-wasm should run `op` (measured faster than cpu-js); a string defers it.
 * @example
 * shouldRun('ew', { ...meta, blockElements: 100 }); // 'cpu-wasm: blocks of 100 elements …'
 */
export function shouldRun(op: string, meta: OpMeta): Verdict {
  if (op === 'ew') {
    // float64 is memory-bound, and a block cpu-wasm writes out is a fresh WebAssembly memory
    // it copies input tiles into, while cpu-js writes into pooled (or huge-page) memory and
    // fuses a following sum: on 10 persisted 1M-element blocks (sync, one core) cpu-js ran
    // x*2+1 in 59 ms against 100, a 6-op chain in 82 against 103, and sum(x*2+1) in 8 against
    // 76 (cpu-wasm's 'ew' cannot fuse with cpu-js's float64 sum)
    if (meta.inputs.some((x) => x.dtype === 'float64') || (meta.dtype as string) === 'float64') {
      return "cpu-wasm: float64 'ew' is faster on cpu-js (memory-bound; pooled output memory)";
    }
    if (meta.blockElements > 0 && meta.blockElements < EW_MIN_ELEMENTS) {
      return `cpu-wasm: 'ew' blocks of ${meta.blockElements} elements are faster on cpu-js (< ${EW_MIN_ELEMENTS})`;
    }
    return true;
  }
  if (op === 'reduce-partial') return shouldReduce(meta);
  if (op === 'ew-reduce') {
    // elements of the largest input block (a view's source may be larger: an upper bound)
    const input = Math.max(
      0,
      ...meta.inputs.map((x) => x.chunks.reduce((m, c) => m * largest(c), 1)),
    );
    if (meta.inputs.some((x) => x.dtype !== 'float32')) {
      return "cpu-wasm: 'ew-reduce' on float64 is faster on cpu-js (it sums in place)";
    }
    if (input < EW_REDUCE_MIN_ELEMENTS) {
      return `cpu-wasm: 'ew-reduce' blocks of ${input} elements are faster on cpu-js (< ${EW_REDUCE_MIN_ELEMENTS})`;
    }
    return true;
  }
  if (op === 'matmul') {
    const [rows, inner, cols] = matmulBlockShape(meta);
    const macs = rows * inner * cols;
    if (macs < MATMUL_MIN_MACS) {
      return `cpu-wasm: 'matmul' blocks of ${rows}×${inner}×${cols} are faster on cpu-js (< 32³ multiply-adds)`;
    }
    return true;
  }
  return true;
}

function shouldReduce(meta: OpMeta): Verdict {
  const p = meta.params as { op: string; axes: readonly number[] };
  const input = meta.inputs[0];
  if (input === undefined) return true;
  if (!REDUCE_FASTER[input.dtype]?.includes(p.op)) {
    return `cpu-wasm: 'reduce-partial' ${p.op} on ${input.dtype} is faster on cpu-js`;
  }
  const nd = input.chunks.length;
  const innermost = p.axes.every((ax) => ax >= nd - p.axes.length);
  let run = 1;
  for (const ax of p.axes) run *= largest(input.chunks[ax]);
  if (!innermost || run < MIN_RUN) {
    return `cpu-wasm: 'reduce-partial' runs of ${run} elements${innermost ? '' : ' (axes not innermost)'} are faster on cpu-js`;
  }
  return true;
}
