// Opening a system BLAS through koffi (an optional dependency, a C FFI with prebuilt
// binaries): the library TESSERA_BLAS names, else an optimized BLAS found by its usual name
// (OpenBLAS, MKL, BLIS, Apple's Accelerate). Opened once per thread, on first use.
//
// tessera's workers are its parallelism, so each call runs on one BLAS thread: the library's
// own thread pool is set to 1 where it has a setter (OpenBLAS, MKL, BLIS).

import { createRequire } from 'node:module';
import { basename } from 'node:path';
import type { GemmT } from '../cpu-js/linalg/matmul.ts';

/**
 * The reduced QR of a row-major m×n float64 matrix, m ≥ n ≥ 1, overwriting `a`: Q (m×n) and
 * R (n×n, upper triangular), both row-major, with LAPACK's signs (NumPy's).
 */
export type LapackQr = (
  a: Float64Array,
  m: number,
  n: number,
) => { q: Float64Array; r: Float64Array };

/** An opened BLAS library. */
export interface BlasLibrary {
  /** The file or name it was opened from. */
  readonly path: string;
  /** What the library says it is ('OpenBLAS 0.3.21 DYNAMIC_ARCH …'), else its file name. */
  readonly vendor: string;
  /** `c[m×n] += op(a) · op(b)`, transposed operands read in place (see GemmT). */
  readonly dgemm: GemmT;
  /** Present where the library carries LAPACK's dgelqf and dorglq (OpenBLAS, MKL, Accelerate). */
  readonly qr?: LapackQr;
}

/** Names tried, per platform, when TESSERA_BLAS is unset: optimized BLAS builds only. */
const CANDIDATES: Readonly<Record<string, readonly string[]>> = {
  linux: [
    'libopenblas.so.0',
    'libopenblas.so',
    'libopenblasp.so.0',
    'libmkl_rt.so.2',
    'libmkl_rt.so',
    'libblis.so.4',
    'libblis.so',
  ],
  darwin: [
    '/System/Library/Frameworks/Accelerate.framework/Accelerate',
    '/opt/homebrew/opt/openblas/lib/libopenblas.dylib',
    '/usr/local/opt/openblas/lib/libopenblas.dylib',
  ],
  win32: ['libopenblas.dll', 'openblas.dll', 'mkl_rt.2.dll'],
};

/**
 * The library names to try: TESSERA_BLAS (a path or a name) alone when set, else the
 * platform's usual names.
 * @example
 * blasCandidates({ TESSERA_BLAS: '/opt/blas/libopenblas.so' }, 'linux'); // ['/opt/blas/libopenblas.so']
 */
export function blasCandidates(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: string = process.platform,
): readonly string[] {
  const named = env.TESSERA_BLAS?.trim();
  if (named) return [named];
  return CANDIDATES[platform] ?? [];
}

// The koffi surface this file uses (its own types are not needed in tessera's public types).
interface KoffiLib {
  func(signature: string): (...args: unknown[]) => unknown;
}
interface Koffi {
  load(path: string): KoffiLib;
}

const ROW_MAJOR = 101;
const NO_TRANS = 111;
const TRANS = 112;

let opened: BlasLibrary | string | undefined;

function loadKoffi(): Koffi | string {
  try {
    const require = createRequire(import.meta.url);
    return require('koffi') as Koffi;
  } catch {
    return 'the optional package koffi is not installed (npm install koffi)';
  }
}

/** A function of `lib` by C signature, or undefined where the symbol is missing. */
function symbol(lib: KoffiLib, signature: string): ((...args: unknown[]) => unknown) | undefined {
  try {
    return lib.func(signature);
  } catch {
    return undefined;
  }
}

function open(koffi: Koffi, path: string): BlasLibrary | undefined {
  let lib: KoffiLib;
  try {
    lib = koffi.load(path);
  } catch {
    return undefined;
  }
  const cblas = symbol(
    lib,
    'void cblas_dgemm(int, int, int, int, int, int, double, const double *, int, const double *, int, double, _Inout_ double *, int)',
  );
  if (cblas === undefined) return undefined;
  symbol(lib, 'void openblas_set_num_threads(int)')?.(1);
  symbol(lib, 'int MKL_Set_Num_Threads_Local(int)')?.(1);
  symbol(lib, 'void bli_thread_set_num_threads(int64_t)')?.(1);
  const config = symbol(lib, 'const char *openblas_get_config()')?.();
  const vendor = typeof config === 'string' ? config : basename(path);
  const dgemm: GemmT = (a, aOff, aT, b, bOff, bT, c, cOff, m, k, n, lda, ldb, beta = 1) => {
    if (m === 0 || n === 0) return;
    if (k === 0) {
      if (beta === 0) c.fill(0, cOff, cOff + m * n);
      return;
    }
    // what is stored: a (m×k, or k×m when aT) and b (k×n, or n×k) rows `ld` apart
    const [aRows, aCols] = aT ? [k, m] : [m, k];
    const [bRows, bCols] = bT ? [n, k] : [k, n];
    const la = lda ?? aCols;
    const lb = ldb ?? bCols;
    cblas(
      ROW_MAJOR,
      aT ? TRANS : NO_TRANS,
      bT ? TRANS : NO_TRANS,
      m,
      n,
      k,
      1,
      a.subarray(aOff, aOff + (aRows - 1) * la + aCols),
      la,
      b.subarray(bOff, bOff + (bRows - 1) * lb + bCols),
      lb,
      beta,
      c.subarray(cOff, cOff + m * n),
      n,
    );
  };
  return { path, vendor, dgemm, ...lapack(lib) };
}

/**
 * QR through LAPACK, where the library has it. A row-major m×n matrix is, read column-major,
 * its n×m transpose; the LQ factorization of that transpose (dgelqf, then dorglq for the
 * orthogonal factor) is the transpose of A's QR, computed by the same Householder steps: L
 * read row-major is R, and the n×m orthogonal factor read row-major is Q. No copies.
 */
function lapack(lib: KoffiLib): { qr?: LapackQr } {
  const sig = (name: string, m: boolean) =>
    `void ${name}(int *m, int *n, ${m ? 'int *k, ' : ''}_Inout_ double *a, int *lda, _Inout_ double *tau, _Inout_ double *work, int *lwork, _Out_ int *info)`;
  const gelqf = symbol(lib, sig('dgelqf_', false));
  const orglq = symbol(lib, sig('dorglq_', true));
  if (gelqf === undefined || orglq === undefined) return {};
  const qr: LapackQr = (a, m, n) => {
    const [M, N, K, lda] = [Int32Array.of(n), Int32Array.of(m), Int32Array.of(n), Int32Array.of(n)];
    const tau = new Float64Array(n);
    const info = new Int32Array(1);
    const query = new Float64Array(1);
    const lwork = Int32Array.of(-1);
    gelqf(M, N, a, lda, tau, query, lwork, info);
    let work = new Float64Array(Math.max(1, query[0]!));
    lwork[0] = work.length;
    gelqf(M, N, a, lda, tau, work, lwork, info);
    if (info[0] !== 0) throw new Error(`cpu-blas: dgelqf failed (info ${info[0]})`);
    const r = new Float64Array(n * n);
    for (let j = 0; j < n; j++) r.set(a.subarray(j * n + j, j * n + n), j * n + j);
    lwork[0] = -1;
    orglq(M, N, K, a, lda, tau, query, lwork, info);
    if (query[0]! > work.length) work = new Float64Array(query[0]!);
    lwork[0] = work.length;
    orglq(M, N, K, a, lda, tau, work, lwork, info);
    if (info[0] !== 0) throw new Error(`cpu-blas: dorglq failed (info ${info[0]})`);
    return { q: a, r };
  };
  return { qr };
}

/**
 * Open the first of `paths` that is a BLAS with `cblas_dgemm`, or say why none is: `named`
 * when the owner chose the one path (TESSERA_BLAS).
 * @example
 * const blas = openBlas(['libopenblas.so.0'], false);
 * if (typeof blas !== 'string') blas.dgemm(a, 0, false, b, 0, false, c, 0, m, k, n);
 */
export function openBlas(paths: readonly string[], named: boolean): BlasLibrary | string {
  const koffi = loadKoffi();
  if (typeof koffi === 'string') return `cpu-blas: ${koffi}`;
  for (const path of paths) {
    const lib = open(koffi, path);
    if (lib) return lib;
  }
  const where = named
    ? `TESSERA_BLAS=${JSON.stringify(paths[0])} does not open as a BLAS with cblas_dgemm`
    : `no BLAS library found (tried ${paths.join(', ') || 'nothing on this platform'}); install OpenBLAS or set TESSERA_BLAS to a BLAS library's path`;
  return `cpu-blas: ${where}`;
}

/**
 * The BLAS library of this thread (opened on the first call), or why there is none.
 * @example
 * const blas = blasLibrary();
 * if (typeof blas !== 'string') console.log(blas.vendor); // 'OpenBLAS 0.3.21 …'
 */
export function blasLibrary(): BlasLibrary | string {
  opened ??= openBlas(blasCandidates(), Boolean(process.env.TESSERA_BLAS?.trim()));
  return opened;
}
