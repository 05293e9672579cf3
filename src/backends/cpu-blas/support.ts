// When cpu-blas can and should run an operation: cheap checks on the layer's OpMeta. The
// library itself is opened (once) only to answer whether the backend is available.
//
// Threshold measured on this project's 2-core machine while other jobs ran (best of 5, one
// thread, float64 square blocks, OpenBLAS 0.3.21 through koffi / the cpu-wasm GEMM / cpu-js's
// loop): 8³ 1.5 / 2.5 / 1.6 µs, 16³ 0.8 / 8.0 / 8.9 µs, 32³ 2.9 / 12.5 / 35 µs, 64³ 13 / 63 /
// 598 µs. From 8³ on the FFI call pays for itself.

import type { DType } from '../../array/dtype.ts';
import type { OpMeta, Verdict } from '../../dispatch/types.ts';
import type { LinalgParams } from '../cpu-js/linalg/batched.ts';
import type { EinsumParams } from '../cpu-js/linalg/einsum.ts';
import { matmulBlockShape } from '../cpu-js/linalg/matmul-size.ts';
import { blasLibrary } from './library.ts';

/** The kernel names cpu-blas implements. */
export const IMPLEMENTED: readonly string[] = ['matmul', 'einsum', 'linalg'];

/** The 'linalg' ops cpu-blas runs itself (linalg.ts); the reduced QR needs LAPACK. */
export const BLAS_LINALG_OPS: readonly string[] = ['qr', 'tsqr-stack', 'tsqr-down'];

/** Block products with fewer multiply-adds (m·k·n) run faster on the other CPU backends. */
export const BLAS_MIN_MACS = 8 ** 3;

/**
 * `true` if a BLAS library opens here, else why not (cached).
 * @example
 * blasAvailable(); // true where OpenBLAS and koffi are installed
 */
export function blasAvailable(): Verdict {
  const lib = blasLibrary();
  return typeof lib === 'string' ? lib : true;
}

const isFloat = (d: DType): boolean => d === 'float32' || d === 'float64';

/** The largest chunk along an axis (unknown sizes count as large: they are run as they come). */
const largest = (c: readonly (number | null)[] | undefined): number =>
  c === undefined || c.length === 0 ? 1 : Math.max(...c.map((s) => s ?? Infinity));

/**
 * Whether cpu-blas can run `op` on these inputs at all; a string says why not.
 * @example
 * canRun('matmul', { ...meta, dtype: 'int32' }); // "cpu-blas: 'matmul' on int32 runs on cpu-js"
 */
export function canRun(op: string, meta: OpMeta): Verdict {
  const avail = blasAvailable();
  if (avail !== true) return avail;
  if (!IMPLEMENTED.includes(op)) return `cpu-blas: '${op}' is not implemented`;
  if (!isFloat(meta.dtype)) return `cpu-blas: '${op}' on ${meta.dtype} runs on cpu-js`;
  for (const x of meta.inputs) {
    if (!isFloat(x.dtype)) return `cpu-blas: '${op}' on ${x.dtype} inputs runs on cpu-js`;
  }
  if (op === 'linalg') return canRunLinalg(meta.params as LinalgParams | undefined);
  if (op === 'einsum') {
    const p = meta.params as EinsumParams | undefined;
    if (p?.terms.length !== 2) {
      return `cpu-blas: 'einsum' of ${p?.terms.length ?? 'unknown'} operands is a loop, not a GEMM`;
    }
  }
  return true;
}

function canRunLinalg(p: LinalgParams | undefined): Verdict {
  const op = p?.op ?? 'unknown';
  if (!BLAS_LINALG_OPS.includes(op)) return `cpu-blas: linalg '${op}' runs on cpu-js`;
  if (op === 'qr' && p?.args.complete) return "cpu-blas: linalg 'qr' complete mode runs on cpu-js";
  const lib = blasLibrary();
  if (typeof lib !== 'string' && op !== 'tsqr-down' && lib.qr === undefined) {
    return `cpu-blas: ${lib.vendor} has no LAPACK dgelqf/dorglq for linalg '${op}'`;
  }
  return true;
}

/** Multiply-adds of the largest block product, from the inputs' largest chunks. */
function blockMacs(op: string, meta: OpMeta): number {
  // one input when both operands are the same array (x @ x)
  const a = meta.inputs[0];
  const b = meta.inputs[1] ?? a;
  if (a === undefined || b === undefined) return 0;
  if (op === 'linalg') {
    // a QR of rows × n costs about rows · n² multiply-adds; its first input's block
    const rows = largest(a.chunks[a.chunks.length - 2]);
    const n = largest(a.chunks[a.chunks.length - 1]);
    return rows * n * n;
  }
  if (op === 'matmul') {
    const [rows, inner, cols] = matmulBlockShape(meta);
    return rows * inner * cols;
  }
  // einsum: one GEMM per batch entry multiplies every letter but the batch ones
  const { terms, out } = meta.params as EinsumParams;
  const sizes = new Map<string, number>();
  terms.forEach((term, t) => {
    const chunks = (t === 0 ? a : b).chunks;
    for (let ax = 0; ax < term.length; ax++) {
      sizes.set(term[ax]!, Math.max(sizes.get(term[ax]!) ?? 1, largest(chunks[ax])));
    }
  });
  let macs = 1;
  for (const [l, n] of sizes) {
    const batch = out.includes(l) && terms[0]!.includes(l) && terms[1]!.includes(l);
    if (!batch) macs *= n;
  }
  return macs;
}

/**
 * Whether it should: small block products are deferred with the reason.
 * @example
 * shouldRun('matmul', meta); // true for 1000² blocks
 */
export function shouldRun(op: string, meta: OpMeta): Verdict {
  const macs = blockMacs(op, meta);
  if (macs < BLAS_MIN_MACS) {
    return `cpu-blas: '${op}' blocks of ${macs} multiply-adds are faster without the FFI call (< 8³)`;
  }
  return true;
}
