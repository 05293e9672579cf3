// A noisy 3-D volume: a bright sphere in Gaussian noise is smoothed with gaussianFilter
// (each block reads only its neighbours' halos), coarsened 2× by block means, and its
// histogram printed. The same pipeline on a small volume is checked against a plain dense
// reference (scipy.ndimage's reflect mode written out as loops); exit status 1 on any
// disagreement.
//
//   npx tsx examples/07-volume-filter.ts            (TESSERA_EXAMPLE_N=64 for a quicker run)

import assert from 'node:assert/strict';
import {
  add,
  arange,
  coarsen,
  compute,
  gaussianFilter,
  histogram,
  type LazyArray,
  lessEqual,
  type NDArray,
  random,
  shutdown,
} from '../src/index.ts';

/** A sphere of 1 in a volume of 0 plus N(0, 0.5) noise, chunked `chunk` per axis. */
function noisyVolume(n: number, chunk: number, dtype: 'float32' | 'float64'): LazyArray {
  const i = arange(n, { dtype, chunks: chunk }).sub(n / 2);
  const d2 = i.mul(i);
  const r2 = add(add(d2.reshape([n, 1, 1]), d2.reshape([1, n, 1])), d2.reshape([1, 1, n]));
  const sphere = lessEqual(r2, (n / 4) ** 2).astype(dtype);
  return add(sphere, random.normal([n, n, n], { seed: 7, std: 0.5, chunks: chunk, dtype }));
}

/** The pipeline: smooth, coarsen 2×, histogram of the coarse volume over [-0.5, 1.5]. */
function pipeline(v: LazyArray, sigma: number) {
  const smooth = gaussianFilter(v, sigma);
  const coarse = coarsen('mean', smooth, { 0: 2, 1: 2, 2: 2 });
  const [hist, edges] = histogram(coarse, { bins: 8, range: [-0.5, 1.5] });
  return { smooth, coarse, hist, edges };
}

// ---- 1. The real run, on the worker threads -------------------------------------------
const n = Number(process.env.TESSERA_EXAMPLE_N ?? 96);
const t0 = performance.now();
const big = pipeline(noisyVolume(n, n / 2, 'float32'), 2);
const [hist, edges, coarse] = (await compute(big.hist, big.edges, big.coarse)) as NDArray[];
console.log(
  `${n}³ float32 in ${n / 2}³ chunks: smoothed (σ = 2), coarsened to ${coarse!.shape.join('×')} ` +
    `in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
);
const counts = hist!.toArray();
const edgeValues = edges!.toArray();
counts.forEach((c, i) => {
  const lo = edgeValues[i]!.toFixed(2).padStart(5);
  const hi = edgeValues[i + 1]!.toFixed(2).padStart(5);
  console.log(
    `  [${lo}, ${hi}${i === counts.length - 1 ? ']' : ')'} ${'#'.repeat(Math.round((60 * c) / Math.max(...counts)))} ${c}`,
  );
});
// smoothing separates the two populations: a background mode near 0, a sphere mode near 1
assert.equal(
  counts.reduce((a, b) => a + b, 0),
  coarse!.size,
  'every coarse voxel counted',
);
const background = counts.indexOf(Math.max(...counts.slice(0, 4)));
const inside = counts.indexOf(Math.max(...counts.slice(4)));
assert.ok(
  edges!.data[background]! <= 0 && edges!.data[background + 1]! >= 0,
  'background mode at 0',
);
assert.ok(edges!.data[inside]! <= 1 && edges!.data[inside + 1]! >= 1, 'sphere mode at 1');

// ---- 2. A small volume against a dense reference ----------------------------------------
const m = 24;
const sigma = 1.5;
const small = noisyVolume(m, 8, 'float64');
const got = pipeline(small, sigma);
const [input, smooth, coarseSmall, histSmall] = (await compute(
  small,
  got.smooth,
  got.coarse,
  got.hist,
  { scheduler: 'sync' },
)) as NDArray[];

/** scipy.ndimage.gaussian_filter (mode 'reflect', truncate 4) as three plain 1-D passes. */
function denseGaussian(v: Float64Array, size: number, s: number): Float64Array {
  const radius = Math.trunc(4 * s + 0.5);
  const w = Array.from({ length: 2 * radius + 1 }, (_, k) =>
    Math.exp(-((k - radius) ** 2) / (2 * s * s)),
  );
  const total = w.reduce((a, b) => a + b, 0);
  const reflect = (i: number) => (i < 0 ? -i - 1 : i >= size ? 2 * size - 1 - i : i);
  let cur = v;
  for (let axis = 0; axis < 3; axis++) {
    const out = new Float64Array(cur.length);
    const stride = size ** (2 - axis);
    for (let flat = 0; flat < cur.length; flat++) {
      const i = Math.floor(flat / stride) % size;
      let acc = 0;
      for (let k = -radius; k <= radius; k++)
        acc += (w[k + radius]! / total) * cur[flat + (reflect(i + k) - i) * stride]!;
      out[flat] = acc;
    }
    cur = out;
  }
  return cur;
}

const refSmooth = denseGaussian(input!.data as Float64Array, m, sigma);
const h = m / 2;
const refCoarse = new Float64Array(h ** 3);
for (let z = 0; z < m; z++)
  for (let y = 0; y < m; y++)
    for (let x = 0; x < m; x++) {
      refCoarse[((z >> 1) * h + (y >> 1)) * h + (x >> 1)]! += refSmooth[(z * m + y) * m + x]! / 8;
    }
const refHist = new Array<number>(8).fill(0);
for (const v of refCoarse)
  if (v >= -0.5 && v <= 1.5) refHist[Math.min(7, Math.floor((v + 0.5) * 4))]!++;

const worst = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  Array.from(a).reduce((w, v, i) => Math.max(w, Math.abs(v - b[i]!)), 0);
const dSmooth = worst(smooth!.toArray(), refSmooth);
const dCoarse = worst(coarseSmall!.toArray(), refCoarse);
console.log(
  `dense check on ${m}³ (8³ chunks): max |Δ| smoothed ${dSmooth.toExponential(1)}, coarse ${dCoarse.toExponential(1)}`,
);
assert.ok(dSmooth < 1e-12, `smoothed volume differs from the dense reference by ${dSmooth}`);
assert.ok(dCoarse < 1e-12, `coarse volume differs from the dense reference by ${dCoarse}`);
assert.deepEqual(histSmall!.toArray(), refHist, 'histogram counts');
console.log(`histogram of the ${h}³ coarse volume matches: ${refHist.join(' ')}`);

await shutdown();
