// cpu-blas: matrix products through the system BLAS. Where no BLAS opens (no koffi, no
// OpenBLAS) the tier is skipped, saying why; .ci/run installs OpenBLAS and then requires it.

import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { blasCandidates, openBlas } from '../../../src/backends/cpu-blas/library.ts';
import { blasAvailable } from '../../../src/backends/cpu-blas/support.ts';
import { gemmAccumulate, transpose2d } from '../../../src/backends/cpu-js/linalg/matmul.ts';
import {
  compute,
  einsum,
  fromArray,
  type LazyArray,
  linalg,
  matmul,
  matrixTranspose,
  type NDArray,
  shutdown,
  tensordot,
  withBackend,
} from '../../../src/index.ts';
import { expectThrow } from '../../helpers/expect-throw.ts';

afterAll(() => shutdown());

const avail = blasAvailable();
const why = avail === true ? undefined : avail;
const opened = openBlas(blasCandidates(), false);
console.log(
  why === undefined ? '[blas tier] RAN' : `[blas tier] SKIPPED: ${why}`,
  typeof opened === 'string' ? '' : opened.vendor,
);

describe('opening a BLAS', () => {
  test('TESSERA_BLAS names the one library tried; else the platform list', () => {
    expect(blasCandidates({ TESSERA_BLAS: ' /opt/x/libopenblas.so ' }, 'linux')).toEqual([
      '/opt/x/libopenblas.so',
    ]);
    expect(blasCandidates({}, 'linux')).toContain('libopenblas.so.0');
    expect(blasCandidates({}, 'darwin')[0]).toMatch(/Accelerate/);
    expect(blasCandidates({}, 'plan9')).toEqual([]);
  });

  test('a library that does not open says which and how to fix it', () => {
    const named = openBlas(['/nonexistent/libblas.so'], true);
    expect(typeof named).toBe('string');
    // without koffi the reason names koffi instead; with it, the path the owner gave
    expect(named).toMatch(/^cpu-blas: (TESSERA_BLAS="\/nonexistent\/libblas\.so"|.*koffi)/);
    expect(openBlas([], false)).toMatch(/^cpu-blas: (no BLAS library found|.*koffi)/);
  });
});

/** Dense reference product of row-major float64 matrices. */
function reference(a: Float64Array, b: Float64Array, m: number, k: number, n: number) {
  const c = new Float64Array(m * n);
  for (let i = 0; i < m; i++)
    for (let p = 0; p < k; p++)
      for (let j = 0; j < n; j++) c[i * n + j]! += a[i * k + p]! * b[p * n + j]!;
  return c;
}

function closeTo(got: ArrayLike<number>, want: ArrayLike<number>, rel: number): void {
  expect(got.length).toBe(want.length);
  let scale = 1e-300;
  for (let i = 0; i < want.length; i++) scale = Math.max(scale, Math.abs(want[i]!));
  for (let i = 0; i < want.length; i++) {
    if (Math.abs(got[i]! - want[i]!) > rel * scale) {
      expect.fail(`element ${i}: ${got[i]} vs ${want[i]} (scale ${scale})`);
    }
  }
}

const randomArray = (n: number, seed: number): Float64Array => {
  let s = seed >>> 0;
  return Float64Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  });
};

describe.skipIf(why !== undefined)('cpu-blas (needs koffi and a BLAS)', () => {
  const lib = opened;

  test('dgemm accumulates c += op(a)·op(b) at offsets, for any sizes (0 and 1 included)', () => {
    if (typeof lib === 'string') throw new Error(lib);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.nat(7),
        fc.boolean(),
        fc.boolean(),
        (m, k, n, off, aT, bT) => {
          const a = randomArray(off + m * k, m + 1);
          const b = randomArray(off + k * n, k + 2);
          const c0 = randomArray(off + m * n, n + 3);
          const got = c0.slice();
          lib.dgemm(a, off, aT, b, off, bT, got, off, m, k, n);
          const want = c0.slice();
          // the reference on untransposed copies of what a and b hold
          const ap = aT ? transpose2d(a, off, k, m) : a.subarray(off);
          const bp = bT ? transpose2d(b, off, n, k) : b.subarray(off);
          gemmAccumulate(ap, 0, bp, 0, want, off, m, k, n);
          closeTo(got, want, 1e-13);
          // nothing before the offset was touched
          for (let i = 0; i < off; i++) expect(got[i]).toBe(c0[i]);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('dgemm reads blocks of larger matrices in place (lda, ldb) and overwrites c with beta 0', () => {
    if (typeof lib === 'string') throw new Error(lib);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        fc.nat(5),
        fc.nat(5),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (m, k, n, padA, padB, aT, bT, overwrite) => {
          // what a and b store: rows of `cols` values, `ld` apart (the rest is other data)
          const [aRows, aCols] = aT ? [k, m] : [m, k];
          const [bRows, bCols] = bT ? [n, k] : [k, n];
          const lda = aCols + padA;
          const ldb = bCols + padB;
          const a = randomArray(Math.max(1, aRows * lda), m + 7);
          const b = randomArray(Math.max(1, bRows * ldb), n + 8);
          const packed = (x: Float64Array, rows: number, cols: number, ld: number) => {
            const out = new Float64Array(rows * cols);
            for (let r = 0; r < rows; r++) out.set(x.subarray(r * ld, r * ld + cols), r * cols);
            return out;
          };
          const c0 = randomArray(m * n, k + 9);
          const got = c0.slice();
          lib.dgemm(a, 0, aT, b, 0, bT, got, 0, m, k, n, lda, ldb, overwrite ? 0 : 1);
          const want = overwrite ? new Float64Array(m * n) : c0.slice();
          const ap = packed(a, aRows, aCols, lda);
          const bp = packed(b, bRows, bCols, ldb);
          gemmAccumulate(
            aT ? transpose2d(ap, 0, k, m) : ap,
            0,
            bT ? transpose2d(bp, 0, n, k) : bp,
            0,
            want,
            0,
            m,
            k,
            n,
          );
          closeTo(got, want, 1e-13);
        },
      ),
      { numRuns: 60 },
    );
  });

  const cases: [string, number, number, number, number, number][] = [
    // m, k, n, row chunk, inner chunk
    ['one block each', 70, 50, 40, 70, 50],
    ['inner axis in three blocks (sums of products)', 64, 90, 33, 20, 30],
    ['ragged blocks', 101, 77, 59, 40, 25],
  ];

  test.each(cases)(
    'matmul on cpu-blas equals the dense product: %s',
    async (_, m, k, n, rc, kc) => {
      for (const dtype of ['float64', 'float32'] as const) {
        const ad = randomArray(m * k, m);
        const bd = randomArray(k * n, n);
        const a = fromArray(dtype === 'float32' ? Float32Array.from(ad) : ad, {
          shape: [m, k],
          chunks: [rc, kc],
        });
        const b = fromArray(dtype === 'float32' ? Float32Array.from(bd) : bd, {
          shape: [k, n],
          chunks: [kc, 30],
        });
        const traced = withBackend({ trace: true }, () => matmul(a, b));
        expect(traced.decisions.find((d) => d.op === 'matmul')?.backend).toBe('cpu-blas');
        const got = await compute(traced.value, { scheduler: 'threads' });
        expect(got.dtype).toBe(dtype);
        expect(got.shape).toEqual([m, n]);
        const want = reference(
          Float64Array.from(a.dtype === 'float32' ? Float32Array.from(ad) : ad),
          Float64Array.from(dtype === 'float32' ? Float32Array.from(bd) : bd),
          m,
          k,
          n,
        );
        closeTo(got.data as ArrayLike<number>, want, dtype === 'float32' ? 1e-6 : 1e-13);
      }
    },
  );

  const agree = async (build: () => LazyArray, tol: number): Promise<void> => {
    const blas = withBackend({ trace: true }, build);
    expect(blas.decisions.some((d) => d.backend === 'cpu-blas')).toBe(true);
    const js = withBackend('cpu-js', build);
    const [g, w] = (await compute(blas.value, js, { scheduler: 'threads' })) as NDArray[];
    expect(g!.shape).toEqual(w!.shape);
    closeTo(g!.data as ArrayLike<number>, w!.data as ArrayLike<number>, tol);
  };

  test('batched matmul, vector operands and x.T @ x agree with cpu-js', async () => {
    const x = fromArray(randomArray(3 * 40 * 30, 1), { shape: [3, 40, 30], chunks: [2, 20, 15] });
    const y = fromArray(randomArray(3 * 30 * 25, 2), { shape: [3, 30, 25], chunks: [2, 15, 25] });
    await agree(() => matmul(x, y), 1e-13);
    const v = fromArray(randomArray(300, 3), { chunks: 150 });
    const m = fromArray(randomArray(300 * 40, 4), { shape: [300, 40], chunks: [150, 40] });
    await agree(() => matmul(v, m), 1e-13);
    const tall = fromArray(randomArray(2000 * 20, 5), { shape: [2000, 20], chunks: [300, 20] });
    await agree(() => matmul(matrixTranspose(tall), tall), 1e-13);
  });

  test('tensordot and two-operand einsum run as BLAS GEMMs', async () => {
    const a = fromArray(randomArray(6 * 20 * 30, 6), { shape: [6, 20, 30], chunks: [3, 10, 30] });
    const b = fromArray(randomArray(30 * 20 * 7, 7), { shape: [20, 30, 7], chunks: [10, 30, 7] });
    await agree(
      () =>
        tensordot(a, b, {
          axes: [
            [1, 2],
            [0, 1],
          ],
        }),
      1e-13,
    );
    const c = fromArray(randomArray(6 * 40 * 30, 8), { shape: [6, 40, 30], chunks: [2, 20, 30] });
    await agree(() => einsum('bik,bjk->bij', a, c), 1e-13);
  });

  test('small block products are deferred, integer ones declined, each with its reason', () => {
    const small = fromArray(randomArray(64, 9), { shape: [8, 8], chunks: [4, 4] });
    const t = withBackend({ trace: true }, () => matmul(small, small));
    const tried = t.decisions[0]!.tried.find((x) => x.backend === 'cpu-blas');
    expect(tried?.verdict).toMatch(/cpu-blas: 'matmul' blocks of 64 multiply-adds/);
    const ints = fromArray(
      Int32Array.from({ length: 64 }, (_, i) => i),
      { shape: [8, 8] },
    );
    const ti = withBackend({ trace: true }, () => matmul(ints, ints));
    const triedInt = ti.decisions[0]!.tried.find((x) => x.backend === 'cpu-blas');
    expect(triedInt?.verdict).toBe("cannot run: cpu-blas: 'matmul' on int32 runs on cpu-js");
    expectThrow(() => matmul(ints, ints, { backend: 'cpu-blas' }), 'ValueError', /cpu-blas/);
  });

  test('QR through LAPACK: TSQR of row blocks and single matrices equal cpu-js, Q orthonormal', async () => {
    const cases: [number, number, number][] = [
      // rows, cols, row chunk
      [900, 12, 100],
      [500, 40, 500],
      [333, 17, 50],
      [60, 60, 60],
    ];
    for (const [m, n, rc] of cases) {
      for (const dtype of ['float64', 'float32'] as const) {
        const d = randomArray(m * n, m + n);
        const x = fromArray(dtype === 'float32' ? Float32Array.from(d) : d, {
          shape: [m, n],
          chunks: [rc, n],
        });
        const traced = withBackend({ trace: true }, () => linalg.qr(x));
        expect(traced.decisions.filter((t) => t.op === 'linalg').map((t) => t.backend)).toContain(
          'cpu-blas',
        );
        const ref = withBackend('cpu-js', () => linalg.qr(x));
        const [q, r, qj, rj] = (await compute(traced.value.Q, traced.value.R, ref.Q, ref.R, {
          scheduler: 'threads',
        })) as NDArray[];
        const tol = dtype === 'float32' ? 1e-4 : 1e-10;
        // LAPACK's Householder signs are cpu-js's (NumPy's): the factors agree, not only QR = A
        closeTo(q!.data as ArrayLike<number>, qj!.data as ArrayLike<number>, tol);
        closeTo(r!.data as ArrayLike<number>, rj!.data as ArrayLike<number>, tol);
        for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) expect(r!.data[i * n + j]).toBe(0);
      }
    }
  });

  test('linalg ops cpu-blas does not run are declined with the reason', () => {
    const x = fromArray(randomArray(400, 1), { shape: [20, 20] });
    const inv = withBackend({ trace: true }, () => linalg.inv(x));
    const tried = inv.decisions
      .find((d) => d.op === 'linalg')
      ?.tried.find((t) => t.backend === 'cpu-blas');
    expect(tried?.verdict).toBe("cannot run: cpu-blas: linalg 'inv' runs on cpu-js");
    const full = withBackend({ trace: true }, () => linalg.qr(x, { mode: 'complete' }));
    const triedQ = full.decisions
      .find((d) => d.op === 'linalg')
      ?.tried.find((t) => t.backend === 'cpu-blas');
    expect(triedQ?.verdict).toMatch(/complete mode runs on cpu-js/);
  });
});
