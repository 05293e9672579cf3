// User kernels on complex64 and complex128 blocks: mapBlocks, blockwise and lazyApply hand
// them NDArrays of interleaved (re, im) data and take back NDArrays, bare Float32Array/
// Float64Array parts, nested { re, im } arrays, complex scalars and real values (im 0);
// each result is compared with the same operation on a dense reference.

import { describe, expect, it } from 'vitest';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { type Complex, NDArray } from '../../src/array/ndarray.ts';
import * as T from '../../src/index.ts';
import {
  CDTYPES,
  type CDType,
  expectComplex,
  lazy,
  type Parts,
  randomParts,
  randomShape,
  SYNC,
} from '../helpers/complex-ref.ts';
import { randomAxisChunks, rng } from '../helpers/reference.ts';

const { compute, fromArray } = T;

const mapParts = (p: Parts, f: (re: number, im: number) => [number, number]): Parts => {
  const re: number[] = [];
  const im: number[] = [];
  p.re.forEach((a, i) => {
    const [x, y] = f(a, p.im[i]!);
    re.push(x);
    im.push(y);
  });
  return { shape: p.shape, re, im };
};

/**
 * A kernel: conj(b) * 2 + 1 on a complex block, as a block of b's dtype (a plain { data,
 * shape, dtype } object: kernels that travel to workers cannot close over NDArray).
 */
const conj2p1 = (b: NDArray) => {
  const out = b.data.slice();
  for (let i = 0; i < out.length; i += 2) {
    out[i] = (b.data[i] as number) * 2 + 1;
    out[i + 1] = -(b.data[i + 1] as number) * 2;
  }
  return { data: out, shape: b.shape, dtype: b.dtype };
};

/** Computed (not wrapped) inputs too: a lazy multiply by 1 in front. */
const variants = (z: LazyArray): LazyArray[] => [z, T.multiply(z, 1)];

describe.each(CDTYPES)('%s mapBlocks', (d) => {
  const seed = d === 'complex64' ? 1 : 2;
  const other: CDType = d === 'complex64' ? 'complex128' : 'complex64';

  it('kernels get complex NDArrays and return NDArrays, bare parts, nested values', async () => {
    const r = rng(seed);
    for (let t = 0; t < 6; t++) {
      const p = randomParts(randomShape(r), r, d);
      for (const z of variants(lazy(p, d, r))) {
        const [a, b, c, e] = await compute(
          T.mapBlocks(conj2p1, z, { dtype: d }),
          // the interleaved data itself: twice every part
          T.mapBlocks((blk: NDArray) => (blk.data as Float64Array).map((v) => v * 2), z, {
            dtype: d,
          }),
          // nested { re, im } values, cast to the other complex dtype
          T.mapBlocks((blk: NDArray) => blk.toNested(), z, { dtype: other }),
          // the block in the other dtype, cast back to d
          T.mapBlocks((blk: NDArray) => T.astype(fromArray(blk), other).compute(), z, {
            dtype: d,
            inline: true,
          }),
          SYNC,
        );
        expectComplex(
          a!,
          d,
          mapParts(p, (x, y) => [x * 2 + 1, -y * 2]),
        );
        expectComplex(
          b!,
          d,
          mapParts(p, (x, y) => [x * 2, y * 2]),
        );
        expectComplex(c!, other, p);
        expectComplex(e!, d, p);
      }
    }
  });

  it('real results from complex blocks, complex results from real ones', async () => {
    const r = rng(seed + 1);
    const fd = d === 'complex64' ? 'float32' : 'float64';
    for (let t = 0; t < 4; t++) {
      const p = randomParts(randomShape(r), r, d);
      const z = lazy(p, d, r);
      const chunks = p.shape.map((n) => randomAxisChunks(n, r));
      const re = fromArray(new NDArray(Float64Array.from(p.re), p.shape, 'float64'), { chunks });
      const [abs, up, sc] = await compute(
        T.mapBlocks(
          (blk: NDArray) => {
            const out = new Float64Array(blk.size);
            for (let i = 0; i < blk.size; i++) {
              out[i] = Math.hypot(blk.data[2 * i] as number, blk.data[2 * i + 1] as number);
            }
            return out;
          },
          z,
          { dtype: fd },
        ),
        // plain numbers are real values (im 0)
        T.mapBlocks((blk: NDArray) => Array.from(blk.data as Float64Array), re, { dtype: d }),
        // one complex scalar per block along a dropped axis
        T.mapBlocks((): Complex => ({ re: 1.5, im: -0.5 }), T.reshape(z, [-1]), {
          dtype: d,
          dropAxis: 0,
          newAxis: 0,
        }),
        SYNC,
      );
      expect(abs!.dtype).toBe(fd);
      p.re.forEach((x, i) => {
        expect(abs!.data[i]).toBeCloseTo(Math.hypot(x, p.im[i]!), 5);
      });
      expectComplex(up!, d, { ...p, im: p.im.map(() => 0) });
      expectComplex(sc!, d, { shape: [1], re: [1.5], im: [-0.5] });
    }
  });

  it('dropAxis concatenates complex blocks; two inputs, one real', async () => {
    const r = rng(seed + 2);
    for (let t = 0; t < 4; t++) {
      const shape = [1 + Math.floor(r() * 4), 2 + Math.floor(r() * 6)];
      const p = randomParts(shape, r, d);
      const z = lazy(p, d, r);
      // per row: the sum of the row (the blocks along axis 1 are concatenated)
      const rowSum = (blk: NDArray) => {
        const [m, n] = blk.shape as [number, number];
        const out = new Float64Array(2 * m);
        for (let i = 0; i < m; i++) {
          for (let j = 0; j < n; j++) {
            out[2 * i] += blk.data[2 * (i * n + j)] as number;
            out[2 * i + 1] += blk.data[2 * (i * n + j) + 1] as number;
          }
        }
        return out;
      };
      const w = fromArray(
        Float64Array.from({ length: shape[1]! }, (_, j) => j - 1),
        {
          chunks: 2,
        },
      );
      const scale = (blk: NDArray, v: NDArray) => {
        const out = blk.data.slice();
        const n = v.size;
        for (let i = 0; i < blk.size; i++) {
          out[2 * i] = (blk.data[2 * i] as number) * (v.data[i % n] as number);
          out[2 * i + 1] = (blk.data[2 * i + 1] as number) * (v.data[i % n] as number);
        }
        return { data: out, shape: blk.shape, dtype: blk.dtype };
      };
      const [s, sc] = await compute(
        T.mapBlocks(rowSum, z, { dtype: d, dropAxis: 1 }),
        T.mapBlocks(scale, z, w, { dtype: d }),
        SYNC,
      );
      const n = shape[1]!;
      const want: Parts = { shape: [shape[0]!], re: [], im: [] };
      for (let i = 0; i < shape[0]!; i++) {
        let a = 0;
        let b = 0;
        for (let j = 0; j < n; j++) {
          a += p.re[i * n + j]!;
          b += p.im[i * n + j]!;
        }
        want.re.push(a);
        want.im.push(b);
      }
      expectComplex(s!, d, want, 1e-6);
      const col = (k: number) => (k % n) - 1;
      expectComplex(sc!, d, {
        shape,
        re: p.re.map((v, k) => v * col(k)),
        im: p.im.map((v, k) => v * col(k)),
      });
    }
  });

  it('a complex result for a real dtype is an error (its imaginary parts would be lost)', async () => {
    const z = lazy(randomParts([4], rng(3), d), d, rng(3));
    await expect(
      compute(
        T.mapBlocks((b: NDArray) => b, z, { dtype: 'float64' }),
        SYNC,
      ),
    ).rejects.toThrow(/declared dtype is 'float64'/);
  });
});

describe.each(CDTYPES)('%s blockwise and lazyApply', (d) => {
  const seed = d === 'complex64' ? 10 : 20;

  it('blockwise: a transposed operand and a contraction over concatenated blocks', async () => {
    const r = rng(seed);
    for (let t = 0; t < 4; t++) {
      const [m, n] = [1 + Math.floor(r() * 4), 1 + Math.floor(r() * 5)];
      const p = randomParts([m, n], r, d);
      const z = lazy(p, d, r);
      // out[i, j] = z[j, i] (block of the transpose)
      const tr = (blk: NDArray) => {
        const [a, b] = blk.shape as [number, number];
        const out = new (blk.data.constructor as Float64ArrayConstructor)(2 * a * b);
        for (let i = 0; i < a; i++) {
          for (let j = 0; j < b; j++) {
            out[2 * (j * a + i)] = blk.data[2 * (i * b + j)] as number;
            out[2 * (j * a + i) + 1] = blk.data[2 * (i * b + j) + 1] as number;
          }
        }
        return { data: out, shape: [b, a], dtype: blk.dtype };
      };
      const got = await compute(T.blockwise(tr, 'ji', z, 'ij', { dtype: d }), SYNC);
      const want: Parts = { shape: [n, m], re: [], im: [] };
      for (let j = 0; j < n; j++) {
        for (let i = 0; i < m; i++) {
          want.re.push(p.re[i * n + j]!);
          want.im.push(p.im[i * n + j]!);
        }
      }
      expectComplex(got, d, want);
      // each row's blocks concatenated along j: conj of the row reversed
      const rev = (blk: NDArray) => {
        const [a, b] = blk.shape as [number, number];
        const out = blk.data.slice();
        for (let i = 0; i < a; i++) {
          for (let j = 0; j < b; j++) {
            out[2 * (i * b + j)] = blk.data[2 * (i * b + b - 1 - j)] as number;
            out[2 * (i * b + j) + 1] = -(blk.data[2 * (i * b + b - 1 - j) + 1] as number);
          }
        }
        return { data: out, shape: blk.shape, dtype: blk.dtype };
      };
      const g2 = await compute(
        T.blockwise(rev, 'ij', T.rechunk(z, { 1: -1 }), 'ij', { dtype: d }),
        SYNC,
      );
      const w2: Parts = { shape: [m, n], re: [], im: [] };
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          w2.re.push(p.re[i * n + n - 1 - j]!);
          w2.im.push(-p.im[i * n + n - 1 - j]!);
        }
      }
      expectComplex(g2, d, w2);
    }
  });

  it('lazyApply: whole arrays and core axes (wrapped and computed inputs), two outputs', async () => {
    const r = rng(seed + 1);
    for (let t = 0; t < 6; t++) {
      const shape = [1 + Math.floor(r() * 5), 1 + Math.floor(r() * 5)];
      const p = randomParts(shape, r, d);
      for (const z of variants(lazy(p, d, r))) {
        const axis = t % 3 === 0 ? undefined : t % 3 === 1 ? 1 : 0;
        const y = T.lazyApply(conj2p1, z, axis === undefined ? {} : { axis });
        // two outputs: the block itself as nested values, and its real parts
        const fd = d === 'complex64' ? 'float32' : 'float64';
        const [u, v] = T.lazyApply(
          (b: NDArray) => [b.toNested(), Array.from({ length: b.size }, (_, i) => b.data[2 * i])],
          z,
          { shape: [shape, shape], dtype: [d, fd] },
        ) as [LazyArray, LazyArray];
        const [gy, gu, gv] = await compute(y, u, v, SYNC);
        expectComplex(
          gy!,
          d,
          mapParts(p, (x, q) => [x * 2 + 1, -q * 2]),
        );
        expectComplex(gu!, d, p);
        expect(Array.from(gv!.data as Float64Array)).toEqual(p.re);
      }
    }
  });

  it('lazyApply on worker threads', async () => {
    const r = rng(seed + 2);
    const p = randomParts([6, 5], r, d);
    const y = T.lazyApply(conj2p1, lazy(p, d, r), { axis: 1 });
    const got = await compute(y, { scheduler: 'threads', workers: 2 });
    expectComplex(
      got,
      d,
      mapParts(p, (x, q) => [x * 2 + 1, -q * 2]),
    );
  });
});
