// gaussianFilter σ = 2 on a float32 volume (default 512³ in 128³ chunks) on 2 worker
// threads, side by side with Dask's map_overlap running scipy.ndimage.gaussian_filter per
// block (depth 8 = scipy's radius, boundary 'reflect'); time and peak RSS of each.
//
//   npm run bench -- gaussian-filter
//   knobs: BENCH_GAUSS_N (512; 128 with BENCH_SMALL=1), BENCH_GAUSS_CHUNK (128; 64 small)
//
// Target (issue 14): at most Dask's time; peak RSS at most 2 × the array. Times are the best
// of 3 runs after a warm-up on both sides. Peak RSS is the whole process's during the
// warm-up and those runs, above its resident size before them: after a small volume was
// filtered once (the pool started, the kernels compiled, scipy imported), before any memory
// of the full-size runs existed, so what the allocators keep from run to run (free lists,
// freed heap) counts too. No earlier run's result is held while a run computes, on either
// side. The input is a random volume generated chunk by chunk on both sides (never whole);
// the output is computed whole, as Dask's .compute() returns it.

import type { NumberArray } from '../src/array/dtype.ts';
import { compute, gaussianFilter, type NDArray, random, shutdown } from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { knob, resetPeak, rssNow, rssPeak } from './memory.ts';
import { report } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const n = knob('BENCH_GAUSS_N', small ? 128 : 512);
const chunk = knob('BENCH_GAUSS_CHUNK', small ? 64 : 128);
const bytes = n ** 3 * 4;

const x = random.uniform([n, n, n], { seed: 3, chunks: chunk, dtype: 'float32' });
const run = () => compute(gaussianFilter(x, 2), { scheduler: 'threads', workers: 2 });
// the pool started and the kernels compiled on a small volume; the peak counts from here
const tiny = random.uniform([64, 64, 64], { seed: 3, chunks: 32, dtype: 'float32' });
await compute(gaussianFilter(tiny, 2), { scheduler: 'threads', workers: 2 });
globalThis.gc?.();
const base = rssNow();
resetPeak();
await run(); // warm-up, as the Dask side's
let seconds = Number.POSITIVE_INFINITY;
let last: NDArray | undefined;
for (let rep = 0; rep < 3; rep++) {
  last = undefined;
  globalThis.gc?.();
  const t0 = performance.now();
  last = await run();
  seconds = Math.min(seconds, (performance.now() - t0) / 1000);
}
const peak = rssPeak() - base;
const y = last!;
// a smoothed uniform volume: mean 0.5, far smaller spread than uniform's 0.29
let s = 0;
let s2 = 0;
for (let i = 0; i < y.data.length; i += 97) {
  s += (y.data as NumberArray)[i]!;
  s2 += (y.data as NumberArray)[i]! ** 2;
}
const m = s / Math.ceil(y.data.length / 97);
const sd = Math.sqrt(s2 / Math.ceil(y.data.length / 97) - m * m);
if (Math.abs(m - 0.5) > 0.01 || sd > 0.05) throw new Error(`gaussianFilter: mean ${m}, sd ${sd}`);
await shutdown();

const py = `${PY_BEST_OF_3}
import numpy as np, dask.array as da, scipy.ndimage as ndi
def hwm():
    return int([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]) * 1024
def rss():
    return int([l for l in open('/proc/self/status') if l.startswith('VmRSS')][0].split()[1]) * 1024
def filtered(n, chunk):
    x = da.random.random((n, n, n), chunks=chunk).astype(np.float32)
    return da.map_overlap(ndi.gaussian_filter, x, depth=8, boundary='reflect', sigma=2, dtype=np.float32)
filtered(64, 32).compute(scheduler='threads', num_workers=2)
y = filtered(${n}, ${chunk})
base = rss()
open('/proc/self/clear_refs', 'w').write('5')
dt = t(lambda: y.compute(scheduler='threads', num_workers=2))
print(dt, hwm() - base)
`;
const dask = runDaskSnippet(py);

console.log(
  `gaussianFilter σ=2, ${n}³ float32 in ${chunk}³ chunks (${(bytes / 2 ** 20).toFixed(0)} MiB), 2 workers`,
);
report('time', seconds, 's', dask?.[0]);
report(
  'peak RSS over start',
  peak / 2 ** 20,
  'MiB',
  dask && dask[1]! / 2 ** 20,
  `≤ 2 × array = ${((2 * bytes) / 2 ** 20).toFixed(0)} MiB`,
);
