// linalg's factorizations on random inputs, shapes and chunkings: Q R = A with orthonormal Q
// (TSQR trees of several levels included), U S Vh = A, A V = V Λ, L Lᵀ = A, inv, lstsq;
// TSQR's graph shape; bad input at build time and value errors (LinAlgError) at compute.

import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import {
  compute,
  fromArray,
  isTesseraError,
  type LazyArray,
  linalg,
  shutdown,
  TaskError,
  zeros,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';
import { rejection } from '../helpers/rejection.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

/** Dense row-major product of the last two axes of a (…×m×k) and b (…×k×n), same batch. */
function mm(a: NDArray, b: NDArray): Float64Array {
  const [m, k] = a.shape.slice(-2) as [number, number];
  const n = b.shape[b.ndim - 1]!;
  const count = a.size / (m * k);
  const out = new Float64Array(count * m * n);
  for (let t = 0; t < count; t++) {
    for (let i = 0; i < m; i++) {
      for (let p = 0; p < k; p++) {
        const x = a.data[t * m * k + i * k + p] as number;
        for (let j = 0; j < n; j++)
          out[t * m * n + i * n + j]! += x * (b.data as NumberArray)[t * k * n + p * n + j]!;
      }
    }
  }
  return out;
}

function close(got: ArrayLike<number>, want: ArrayLike<number>, tol: number, what: string): void {
  expect(got.length).toBe(want.length);
  let worst = 0;
  for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i]! - want[i]!));
  expect(worst, what).toBeLessThan(tol);
}

/** Qᵀ Q = I for every matrix of q. */
function orthonormal(q: NDArray, tol: number): void {
  const [m, k] = q.shape.slice(-2) as [number, number];
  const count = q.size / (m * k);
  const t = new Float64Array(q.size);
  for (let b = 0; b < count; b++) {
    for (let i = 0; i < m; i++)
      for (let j = 0; j < k; j++)
        t[b * m * k + j * m + i] = (q.data as NumberArray)[b * m * k + i * k + j]!;
  }
  const qt = new NDArray(t, [...q.shape.slice(0, -2), k, m], 'float64');
  const eye = Float64Array.from({ length: count * k * k }, (_, i) =>
    (i % (k * k)) % (k + 1) === 0 ? 1 : 0,
  );
  close(mm(qt, q), eye, tol, 'QᵀQ = I');
}

function randomChunked(
  shape: number[],
  seed: number,
  rowBlocks?: number[],
): { x: LazyArray; d: NDArray } {
  const d = randomDense(shape, 'float64', seed);
  const r = rng(seed);
  const chunks = shape.map((n, ax) =>
    ax === shape.length - 2 && rowBlocks ? rowBlocks : randomAxisChunks(n, r),
  );
  return { x: fromArray(d, { chunks }), d };
}

describe('linalg.qr', () => {
  test.each([
    ['one block', [7, 4], [7]],
    ['TSQR, two row blocks', [40, 5], [20, 20]],
    ['TSQR, uneven blocks, some shorter than n', [23, 6], [3, 10, 4, 6]],
    ['TSQR, wide', [5, 9], [2, 3]],
    ['stack', [3, 6, 4], undefined],
  ] as const)('%s: Q R = A, QᵀQ = I, R upper triangular', async (_, shape, rows) => {
    const { x, d } = randomChunked(
      [...shape],
      shape.length * 13 + shape[0]!,
      rows ? [...rows] : undefined,
    );
    const { Q, R } = linalg.qr(x);
    const [q, r] = await compute(Q, R, SYNC);
    close(mm(q, r), d.data as NumberArray, 1e-11, 'Q R = A');
    orthonormal(q, 1e-12);
    const [k, n] = r.shape.slice(-2) as [number, number];
    for (let i = 0; i < r.size; i++)
      if ((i % (k * n)) % n < Math.floor((i % (k * n)) / n)) expect(r.data[i]).toBe(0);
  });

  test.each([2, 3])(
    'TSQR trees of several levels (splitEvery %i) give the same R up to row signs',
    async (f) => {
      const { x, d } = randomChunked([60, 4], 5, [6, 6, 6, 6, 6, 6, 6, 6, 6, 6]);
      const { Q, R } = linalg.qr(x, { splitEvery: f });
      const [q, r] = await compute(Q, R, SYNC);
      close(mm(q, r), d.data as NumberArray, 1e-11, 'Q R = A');
      orthonormal(q, 1e-12);
      const direct = await linalg.qr(fromArray(d)).R.compute(SYNC);
      close(
        (r.data as NumberArray).map(Math.abs),
        (direct.data as NumberArray).map(Math.abs),
        1e-10,
        '|R|',
      );
    },
  );

  test('complete mode: Q m×m, R m×n', async () => {
    const { x, d } = randomChunked([6, 3], 9);
    const { Q, R } = linalg.qr(x, { mode: 'complete' });
    expect([Q.shape, R.shape]).toEqual([
      [6, 6],
      [6, 3],
    ]);
    const [q, r] = await compute(Q, R, SYNC);
    close(mm(q, r), d.data as NumberArray, 1e-12, 'Q R = A');
    orthonormal(q, 1e-12);
  });

  test('TSQR: one QR task per row block, a root, one Q task per row block', () => {
    const x = zeros([1000, 10], { chunks: [100, 10] });
    const { Q, R } = linalg.qr(x);
    expect(Q.chunks).toEqual([new Array(10).fill(100), [10]]);
    expect(R.chunks).toEqual([[10], [10]]);
    const table = materializeTasks([Q.layer, R.layer]);
    const byOp = new Map<string, number>();
    for (let t = 0; t < table.count; t++) {
      const op = table.layers[table.layerOf[t]!]!.op;
      byOp.set(op, (byOp.get(op) ?? 0) + 1);
    }
    expect(byOp.get('linalg-qr-tsqr-leaf')).toBe(10);
    expect(byOp.get('linalg-qr-tsqr-stack')).toBe(1);
    expect(byOp.get('linalg-qr-tsqr-q')).toBe(10);
  });
});

describe('linalg.svd, eigh, cholesky, inv, lstsq', () => {
  test.each([
    [[6, 4], true, undefined],
    [[4, 6], true, undefined],
    [[2, 5, 3], false, undefined],
    [[30, 4], false, [10, 12, 8]],
  ] as const)(
    'svd of %j (fullMatrices %s): U S Vh = A, orthonormal U and Vhᵀ',
    async (shape, full, rows) => {
      const { x, d } = randomChunked([...shape], 3 + shape.length, rows ? [...rows] : undefined);
      const { U, S, Vh } = linalg.svd(x, { fullMatrices: full });
      const [u, s, vh] = await compute(U, S, Vh, SYNC);
      const [m, n] = shape.slice(-2) as [number, number];
      const k = Math.min(m, n);
      const cu = full ? m : k;
      // U[:, :k] diag(S) Vh[:k, :]
      const us = new Float64Array((d.size / (m * n)) * m * k);
      for (let b = 0; b < us.length / (m * k); b++) {
        for (let i = 0; i < m; i++)
          for (let j = 0; j < k; j++)
            us[b * m * k + i * k + j] =
              (u.data as NumberArray)[b * m * cu + i * cu + j]! *
              (s.data as NumberArray)[b * k + j]!;
      }
      const vk = Float64Array.from({ length: (d.size / (m * n)) * k * n }, (_, i) => {
        const b = Math.floor(i / (k * n));
        return vh.data[b * (full ? n : k) * n + (i % (k * n))] as number;
      });
      const batch = shape.slice(0, -2);
      close(
        mm(
          new NDArray(us, [...batch, m, k], 'float64'),
          new NDArray(vk, [...batch, k, n], 'float64'),
        ),
        d.data as NumberArray,
        1e-11,
        'U S Vh = A',
      );
      orthonormal(u, 1e-12);
      for (let i = 1; i < s.size; i++)
        if (i % k !== 0)
          expect((s.data as NumberArray)[i]!).toBeLessThanOrEqual(
            (s.data as NumberArray)[i - 1]! + 1e-12,
          );
    },
  );

  test('eigh: A V = V diag(w), ascending w, orthonormal V', async () => {
    const a = randomDense([3, 5, 5], 'float64', 4);
    const sym = a.data.slice();
    for (let b = 0; b < 3; b++)
      for (let i = 0; i < 5; i++)
        for (let j = 0; j < i; j++) sym[b * 25 + j * 5 + i] = sym[b * 25 + i * 5 + j]!;
    const A = new NDArray(sym, [3, 5, 5], 'float64');
    const { eigenvalues, eigenvectors } = linalg.eigh(fromArray(A, { chunks: [1, 5, 3] }));
    const [w, v] = await compute(eigenvalues, eigenvectors, SYNC);
    const vw = (v.data as NumberArray).map(
      (x, i) => x * (w.data as NumberArray)[Math.floor(i / 25) * 5 + (i % 5)]!,
    );
    close(mm(A, v), vw, 1e-10, 'A V = V Λ');
    orthonormal(v, 1e-12);
    for (let i = 1; i < 15; i++)
      if (i % 5 !== 0) expect(w.data[i]!).toBeGreaterThanOrEqual(w.data[i - 1]!);
  });

  test('eig of a stack of general matrices: A v = λ v in complex arithmetic, unit vectors', async () => {
    const a = randomDense([3, 6, 6], 'float64', 44);
    const { eigenvalues, eigenvectors } = linalg.eig(fromArray(a, { chunks: [2, 6, 6] }));
    expect([eigenvalues.shape, eigenvectors.shape]).toEqual([
      [3, 6, 2],
      [3, 6, 6, 2],
    ]);
    const [w, v] = await compute(eigenvalues, eigenvectors, SYNC);
    const [ad, wd, vd] = [a.data, w.data, v.data] as NumberArray[];
    let worst = 0;
    let complexSeen = false;
    for (let b = 0; b < 3; b++) {
      for (let j = 0; j < 6; j++) {
        const [lr, li] = [wd[2 * (b * 6 + j)]!, wd[2 * (b * 6 + j) + 1]!];
        if (li !== 0) complexSeen = true;
        let norm = 0;
        for (let i = 0; i < 6; i++) {
          let [ar, ai] = [0, 0];
          for (let k = 0; k < 6; k++) {
            const x = ad[b * 36 + i * 6 + k]!;
            ar += x * vd[2 * (b * 36 + k * 6 + j)]!;
            ai += x * vd[2 * (b * 36 + k * 6 + j) + 1]!;
          }
          const [vr, vi] = [vd[2 * (b * 36 + i * 6 + j)]!, vd[2 * (b * 36 + i * 6 + j) + 1]!];
          norm += vr * vr + vi * vi;
          worst = Math.max(
            worst,
            Math.abs(ar - (lr * vr - li * vi)),
            Math.abs(ai - (lr * vi + li * vr)),
          );
        }
        expect(norm).toBeCloseTo(1, 12);
      }
    }
    expect(worst).toBeLessThan(1e-10);
    expect(complexSeen).toBe(true);
  });

  test('cholesky (lower and upper) and inv reconstruct', async () => {
    const a = randomDense([4, 4], 'float64', 8);
    const spd = new NDArray(
      mm(
        a,
        new NDArray(
          Float64Array.from(
            { length: 16 },
            (_, i) => (a.data as NumberArray)[(i % 4) * 4 + Math.floor(i / 4)]!,
          ),
          [4, 4],
          'float64',
        ),
      ).map((x, i) => x + (i % 5 === 0 ? 1 : 0)),
      [4, 4],
      'float64',
    );
    const [l, u, ai] = await compute(
      linalg.cholesky(spd),
      linalg.cholesky(spd, { upper: true }),
      linalg.inv(fromArray(spd, { chunks: 2 })),
      SYNC,
    );
    const lt = new NDArray(
      Float64Array.from(
        { length: 16 },
        (_, i) => (l.data as NumberArray)[(i % 4) * 4 + Math.floor(i / 4)]!,
      ),
      [4, 4],
      'float64',
    );
    close(mm(l, lt), spd.data as NumberArray, 1e-10, 'L Lᵀ = A');
    close(u.data as NumberArray, lt.data as NumberArray, 1e-14, 'U = Lᵀ');
    close(
      mm(spd, ai),
      Float64Array.from({ length: 16 }, (_, i) => (i % 5 === 0 ? 1 : 0)),
      1e-10,
      'A A⁻¹ = I',
    );
  });

  test('lstsq through TSQR matches the normal equations', async () => {
    const { x, d } = randomChunked([50, 3], 21, [20, 15, 15]);
    const b = randomDense([50, 2], 'float64', 22);
    const res = linalg.lstsq(x, fromArray(b, { chunks: [[20, 15, 15], [2]] }));
    const [sol, rank] = await compute(res.x, res.rank, SYNC);
    expect(rank.data[0]).toBe(3);
    // Aᵀ A x = Aᵀ b
    const at = new NDArray(
      Float64Array.from(
        { length: 150 },
        (_, i) => (d.data as NumberArray)[(i % 50) * 3 + Math.floor(i / 50)]!,
      ),
      [3, 50],
      'float64',
    );
    const ata = new NDArray(mm(at, d), [3, 3], 'float64');
    close(mm(ata, sol), mm(at, b), 1e-9, 'AᵀA x = Aᵀb');
  });
});

describe('batch axes: broadcasting, chunking, dtypes', () => {
  test('solve broadcasts a stack of matrices against one right-hand side; chunks follow the batch', async () => {
    const a = randomDense([5, 3, 3], 'float64', 41);
    const b = randomDense([3, 2], 'float64', 42);
    const y = linalg.solve(fromArray(a, { chunks: [2, 3, 1] }), b);
    expect(y.shape).toEqual([5, 3, 2]);
    expect(y.chunks).toEqual([[2, 2, 1], [3], [2]]);
    const got = await y.compute(SYNC);
    const bb = new NDArray(
      Float64Array.from({ length: 30 }, (_, i) => (b.data as NumberArray)[i % 6]!),
      [5, 3, 2],
      'float64',
    );
    close(mm(a, got), bb.data as NumberArray, 1e-10, 'A X = B');
  });

  test('integer matrices compute in float64; diagonal and trace keep their dtype rules', async () => {
    const a = fromArray(new NDArray(Int32Array.of(2, 1, 1, 3), [2, 2], 'int32'));
    const [d, t, g] = await compute(linalg.det(a), linalg.trace(a), linalg.diagonal(a), SYNC);
    expect([d.dtype, d.data[0]]).toEqual(['float64', 5]);
    expect(g.dtype).toBe('int32');
    expect(g.toNested()).toEqual([2, 3]);
    expect(t.dtype).toBe('int64'); // trace sums: integers accumulate in int64, as NumPy
    expect(t.toNested()).toBe(5n);
  });

  test('vectorNorm over chunked axes and matrixNorm with keepdims', async () => {
    const x = randomDense([6, 4], 'float64', 43);
    const [v, m] = await compute(
      linalg.vectorNorm(fromArray(x, { chunks: [2, 3] }), { axis: 0, ord: 3 }),
      linalg.matrixNorm(fromArray(x, { chunks: 3 }), { keepdims: true }),
      SYNC,
    );
    const want = [0, 1, 2, 3].map((j) => {
      let s = 0;
      for (let i = 0; i < 6; i++) s += Math.abs((x.data as NumberArray)[i * 4 + j]!) ** 3;
      return s ** (1 / 3);
    });
    close(v.data as NumberArray, want, 1e-12, 'vectorNorm ord 3');
    expect(m.shape).toEqual([1, 1]);
    close(
      m.data as NumberArray,
      [Math.sqrt(Array.from(x.data as NumberArray).reduce((s, e) => s + e * e, 0))],
      1e-12,
      'Frobenius',
    );
  });
});

describe('linalg errors', () => {
  test.each([
    ['inv', () => linalg.inv(zeros([3, 4])), 'ValueError', ['linalg.inv', 'square', '(3, 4)']],
    [
      'cholesky',
      () => linalg.cholesky(zeros([2, 3, 4])),
      'ValueError',
      ['linalg.cholesky', 'square'],
    ],
    ['det of a vector', () => linalg.det(zeros([3])), 'ShapeError', ['linalg.det', 'at least 2']],
    [
      'float16',
      () => linalg.qr(zeros([3, 3], { dtype: 'float16' })),
      'DTypeError',
      ['linalg.qr', 'float16'],
    ],
    [
      'solve shapes',
      () => linalg.solve(zeros([3, 3]), zeros([4])),
      'ShapeError',
      ['linalg.solve', '(4,)'],
    ],
    ['qr mode', () => linalg.qr(zeros([3, 3]), { mode: 'r' as 'reduced' }), 'ValueError', ["'r'"]],
    ['matrixPower n', () => linalg.matrixPower(zeros([2, 2]), 1.5), 'ValueError', ['1.5']],
    ['matrixNorm ord', () => linalg.matrixNorm(zeros([2, 2]), { ord: 3 }), 'ValueError', ['ord 3']],
    ['cross size', () => linalg.cross(zeros([4]), zeros([4])), 'ShapeError', ['size 3']],
    [
      'lstsq b',
      () => linalg.lstsq(zeros([5, 2]), zeros([4])),
      'ShapeError',
      ['linalg.lstsq', '[5]'],
    ],
    ['outer', () => linalg.outer(zeros([2, 2]), zeros([2])), 'ShapeError', ['1-d']],
  ] as const)('%s', (_, f, tag, fragments) => expectThrow(f, tag, fragments));

  test.each([
    [
      'inv',
      () =>
        linalg.inv(
          fromArray([
            [1, 2],
            [2, 4],
          ]),
        ),
      'singular',
    ],
    ['solve', () => linalg.solve(zeros([2, 2]), fromArray([1, 1])), 'singular'],
    [
      'cholesky',
      () =>
        linalg.cholesky(
          fromArray([
            [1, 2],
            [2, 1],
          ]),
        ),
      'not positive definite',
    ],
  ] as const)('%s: a TaskError caused by a LinAlgError', async (_, f, what) => {
    const e = await rejection(f().compute(SYNC));
    expect(e).toBeInstanceOf(TaskError);
    expect(isTesseraError((e as TaskError).cause, 'LinAlgError')).toBe(true);
    expect(((e as TaskError).cause as Error).message).toContain(what);
  });

  test('det and slogdet of a singular matrix are 0 and (0, -Infinity), as numpy', async () => {
    const a = fromArray([
      [1, 2],
      [2, 4],
    ]);
    const { sign, logabsdet } = linalg.slogdet(a);
    const [d, s, l] = await compute(linalg.det(a), sign, logabsdet, SYNC);
    expect([Math.abs((d.data as NumberArray)[0]!), s.data[0], l.data[0]]).toEqual([
      0,
      0,
      -Infinity,
    ]);
  });

  test('on threads: TSQR and a LinAlgError that crosses the wire', async () => {
    const { x, d } = randomChunked([40, 3], 31, [10, 10, 20]);
    const { Q, R } = linalg.qr(x);
    const [q, r] = await compute(Q, R, { scheduler: 'threads', workers: 2 });
    close(mm(q, r), d.data as NumberArray, 1e-11, 'Q R = A');
    const e = await rejection(
      linalg.inv(zeros([2, 2])).compute({ scheduler: 'threads', workers: 2 }),
    );
    expect(isTesseraError((e as TaskError).cause, 'LinAlgError')).toBe(true);
  });
});
