// x.set, x.mask, overlap, pad and takeAlongAxis on complex64 and complex128 arrays, each against
// the same operation on the real and imaginary parts as float64 arrays (random shapes,
// chunkings, indices and masks).

import { describe, expect, it } from 'vitest';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { type Complex, NDArray } from '../../src/array/ndarray.ts';
import { config, configure } from '../../src/config.ts';
import * as T from '../../src/index.ts';
import {
  CDTYPES,
  type CDType,
  expectComplex,
  lazy,
  type Parts,
  partArray,
  partsOf,
  randomParts,
  randomShape,
  SYNC,
  toNDArray,
} from '../helpers/complex-ref.ts';
import { randomAxisChunks, rng } from '../helpers/reference.ts';

const { compute, fromArray } = T;
type Item = number | { start?: number; stop?: number; step?: number };

/** A random basic index of `shape`: an int, or a slice with a step (negative ones too). */
function randomIndex(shape: number[], r: () => number): Item[] {
  return shape.map((n) => {
    const u = r();
    if (u < 0.25) return Math.floor(r() * n);
    if (u < 0.5) return { step: -1 - Math.floor(r() * 2) };
    const start = Math.floor(r() * n);
    return { start, stop: start + 1 + Math.floor(r() * n), step: 1 + Math.floor(r() * 2) };
  });
}

/** The shape `index` selects from `shape` (as NumPy's basic indexing). */
function selectedShape(shape: number[], index: Item[]): number[] {
  const out: number[] = [];
  index.forEach((it, ax) => {
    if (typeof it === 'number') return;
    const n = shape[ax]!;
    const step = it.step ?? 1;
    const start = it.start ?? (step > 0 ? 0 : n - 1);
    const stop = Math.min(it.stop ?? (step > 0 ? n : -1), n);
    out.push(Math.max(0, Math.ceil((stop - start) / step)));
  });
  return out;
}

const randomMask = (shape: number[], r: () => number, density = 0.5): NDArray =>
  new NDArray(
    Uint8Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => (r() < density ? 1 : 0)),
    shape,
    'bool',
  );

/**
 * `f(z)` for complex z against `f` on z's parts: `value(part)` is what f sets on that part
 * ('c' for the complex value itself).
 */
async function checkParts(
  d: CDType,
  p: Parts,
  chunks: number[][],
  f: (x: LazyArray, part: 'c' | 're' | 'im') => LazyArray,
): Promise<void> {
  const z = lazy(p, d, () => 0, chunks);
  const [got, wr, wi] = await compute(
    f(z, 'c'),
    f(partArray(p, 're', chunks), 're'),
    f(partArray(p, 'im', chunks), 'im'),
    SYNC,
  );
  expectComplex(got!, d, partsOf(wr!, wi!));
}

describe.each(CDTYPES)('%s x.set(index, value)', (d) => {
  const seed = d === 'complex64' ? 10 : 20;
  const other: CDType = d === 'complex64' ? 'complex128' : 'complex64';

  it('complex scalars (0-d complex arrays) and real scalars', async () => {
    const r = rng(seed + 1);
    for (let t = 0; t < 8; t++) {
      const shape = randomShape(r);
      const p = randomParts(shape, r, d);
      const chunks = shape.map((n) => randomAxisChunks(n, r));
      const index = randomIndex(shape, r);
      const c: Complex = { re: 1.5, im: -2.25 };
      await checkParts(d, p, chunks, (x, part) =>
        x.set(
          index,
          part === 'c' ? toNDArray({ shape: [], re: [c.re], im: [c.im] }, d) : fromArray(c[part]),
        ),
      );
      await checkParts(d, p, chunks, (x, part) => x.set(index, part === 'im' ? 0 : 3.5));
      await checkParts(d, p, chunks, (x, part) => x.set(index, part === 'im' ? 0 : true));
    }
  });

  it('complex arrays (of both complex dtypes), broadcast, and real arrays', async () => {
    const r = rng(seed + 2);
    for (let t = 0; t < 8; t++) {
      const shape = randomShape(r);
      const p = randomParts(shape, r, d);
      const chunks = shape.map((n) => randomAxisChunks(n, r));
      const index = randomIndex(shape, r);
      const sel = selectedShape(shape, index);
      if (sel.includes(0)) continue;
      // the value: the whole selection, or its last axis only (broadcast over the rest)
      const vshape = t % 2 === 0 ? sel : sel.slice(-1);
      const v = randomParts(vshape, r, d);
      const vchunks = vshape.map((n) => randomAxisChunks(n, r));
      const vd = t % 4 < 2 ? d : other;
      const parts = (part: 're' | 'im') => partArray(v, part, vchunks);
      await checkParts(d, p, chunks, (x, part) =>
        x.set(index, part === 'c' ? lazy(v, vd, r, vchunks) : parts(part)),
      );
      // a real (float64) value array: im 0 where it is set
      const zero = T.zeros(vshape, { chunks: vchunks });
      await checkParts(d, p, chunks, (x, part) => x.set(index, part === 'im' ? zero : parts('re')));
    }
  });

  it('a bool mask with scalars, complex arrays and real arrays', async () => {
    const r = rng(seed + 3);
    for (let t = 0; t < 8; t++) {
      const shape = randomShape(r);
      const p = randomParts(shape, r, d);
      const chunks = shape.map((n) => randomAxisChunks(n, r));
      const m = fromArray(randomMask(shape, r), {
        chunks: shape.map((n) => randomAxisChunks(n, r)),
      });
      await checkParts(d, p, chunks, (x, part) => x.set(m, part === 'im' ? 0 : -1.75));
      const v = randomParts(t % 2 === 0 ? shape : shape.slice(-1), r, d);
      const vchunks = v.shape.map((n) => randomAxisChunks(n, r));
      await checkParts(d, p, chunks, (x, part) =>
        x.set(
          m,
          part === 'c' ? lazy(v, t % 4 < 2 ? d : other, r, vchunks) : partArray(v, part, vchunks),
        ),
      );
      await checkParts(d, p, chunks, (x, part) =>
        x.set(m, part === 'im' ? T.zeros(v.shape) : partArray(v, 're', vchunks)),
      );
    }
  });

  it('complex values into a real array are refused at build time (imaginary parts lost)', () => {
    const x = T.zeros([4], { chunks: 2 });
    const z = fromArray(toNDArray(randomParts([4], rng(1), d), d), { chunks: 3 });
    expect(() => x.set([{ start: 1 }], z.get([{ start: 1 }]))).toThrow(T.DTypeError);
    expect(() => x.set(T.greater(x, 0), z)).toThrow(/^set: /);
  });
});

describe.each(CDTYPES)('%s x.mask(bool)', (d) => {
  it.each([
    ['one band task per block row', 128 * 2 ** 20],
    ['row bands rechunked first', 64],
  ])('random masks, sparse, dense and empty: %s', async (_, chunkBytes) => {
    const saved = config.chunkBytes;
    configure({ chunkBytes });
    try {
      const r = rng((d === 'complex64' ? 30 : 40) + chunkBytes);
      for (let t = 0; t < 10; t++) {
        const shape = randomShape(r, 4);
        const p = randomParts(shape, r, d);
        const chunks = shape.map((n) => randomAxisChunks(n, r));
        const m = fromArray(randomMask(shape, r, [0, 0.2, 0.5, 1][t % 4]), {
          chunks: shape.map((n) => randomAxisChunks(n, r)),
        });
        await checkParts(d, p, chunks, (x) => x.mask(m));
      }
    } finally {
      configure({ chunkBytes: saved });
    }
  });
});

describe.each(CDTYPES)('%s overlap, pad and takeAlongAxis', (d) => {
  const seed = d === 'complex64' ? 50 : 60;

  it.each([
    ['none', 'none'],
    ['constant', 2.5],
    ['periodic', 'periodic'],
    ['reflect', 'reflect'],
    ['nearest', 'nearest'],
  ] as const)('overlap and trimOverlap, boundary %s', async (_, boundary) => {
    const r = rng(seed + String(boundary).length);
    for (let t = 0; t < 6; t++) {
      const shape = randomShape(r).map((n) => n + 2);
      const p = randomParts(shape, r, d);
      const chunks = shape.map((n) => randomAxisChunks(n, r).filter((c) => c > 0));
      // depths no larger than the smallest chunk of each axis
      const depth = chunks.map((c) => Math.min(1 + Math.floor(r() * 2), ...c));
      const bound = (part: 'c' | 're' | 'im') =>
        typeof boundary === 'number' && part === 'im' ? 0 : boundary;
      await checkParts(d, p, chunks, (x, part) => T.overlap(x, depth, bound(part)));
      await checkParts(d, p, chunks, (x, part) =>
        T.trimOverlap(T.overlap(x, depth, bound(part)), depth, bound(part)),
      );
    }
  });

  it.each(['constant', 'edge', 'reflect', 'symmetric', 'wrap'] as const)(
    'pad, mode %s',
    async (mode) => {
      const r = rng(seed + mode.length * 3);
      for (let t = 0; t < 4; t++) {
        const shape = randomShape(r).map((n) => n + 1);
        const p = randomParts(shape, r, d);
        const chunks = shape.map((n) => randomAxisChunks(n, r));
        const widths = shape.map(() => [Math.floor(r() * 3), Math.floor(r() * 3)] as const);
        await checkParts(d, p, chunks, (x, part) =>
          T.pad(x, widths, {
            mode,
            ...(mode === 'constant' ? { constantValues: part === 'im' ? 0 : -1.5 } : {}),
          }),
        );
      }
    },
  );

  it('takeAlongAxis (negative indices, broadcast indices)', async () => {
    const r = rng(seed + 9);
    for (let t = 0; t < 8; t++) {
      const shape = randomShape(r);
      const p = randomParts(shape, r, d);
      const chunks = shape.map((n) => randomAxisChunks(n, r));
      const axis = Math.floor(r() * shape.length);
      const ishape = shape.map((n, ax) =>
        ax === axis ? 1 + Math.floor(r() * 4) : t % 2 === 0 ? n : 1,
      );
      const size = ishape.reduce((a, b) => a * b, 1);
      const n = shape[axis]!;
      const idx = Int32Array.from({ length: size }, () => Math.floor(r() * 2 * n) - n);
      const ix = fromArray(new NDArray(idx, ishape, 'int32'), {
        chunks: ishape.map((m) => randomAxisChunks(m, r)),
      });
      await checkParts(d, p, chunks, (x) => T.takeAlongAxis(x, ix, { axis }));
    }
  });
});
