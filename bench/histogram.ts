// histogram of 1e9 float32 values streamed (random.uniform generated chunk by chunk, never
// whole) on 2 worker threads, 100 bins over [0, 1], side by side with dask.array.histogram
// on the same kind of stream; time and peak RSS.
//
//   npm run bench -- histogram
//   knobs: BENCH_HIST_N (1e9; 2e7 with BENCH_SMALL=1), BENCH_HIST_CHUNK (2^24 elements)
//
// Target (issue 14): at most Dask's time, peak RSS under 1 GB.

import type { NumberArray } from '../src/array/dtype.ts';
import { compute, histogram, random, shutdown } from '../src/index.ts';
import { runDaskSnippet } from './dask.ts';
import { knob, rssPeak } from './memory.ts';
import { report } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const n = knob('BENCH_HIST_N', small ? 2e7 : 1e9);
const chunk = knob('BENCH_HIST_CHUNK', 2 ** 24);

// the pool started and warm before timing (Dask's threads exist already too)
await compute(random.uniform([8], { seed: 1, chunks: 2 }).sum(), {
  scheduler: 'threads',
  workers: 2,
});
const x = random.uniform([n], { seed: 11, chunks: chunk, dtype: 'float32' });
const t0 = performance.now();
const [hist] = histogram(x, { bins: 100, range: [0, 1] });
const counts = await compute(hist, { scheduler: 'threads', workers: 2 });
const seconds = (performance.now() - t0) / 1000;
const peak = rssPeak();
await shutdown();
const total = Array.from(counts.data as NumberArray).reduce((a, b) => a + b, 0);
if (total !== n) throw new Error(`histogram: counted ${total} of ${n}`);
const spread =
  Math.max(...(counts.data as NumberArray)) / Math.min(...(counts.data as NumberArray));
if (spread > 1.05) throw new Error(`histogram: uniform counts spread by ${spread}`);

const py = `
import time, numpy as np, dask.array as da
n = ${n}
x = da.random.random(n, chunks=${chunk}).astype(np.float32)
t0 = time.perf_counter()
h, e = da.histogram(x, bins=100, range=(0, 1))
h = h.compute(scheduler='threads', num_workers=2)
dt = time.perf_counter() - t0
hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]
assert h.sum() == n
print(dt, int(hwm) * 1024)
`;
const dask = runDaskSnippet(py);

console.log(`histogram of ${n.toExponential(0)} float32 (chunks of ${chunk}), 100 bins, 2 workers`);
report('time', seconds, 's', dask?.[0]);
report('throughput', n / 1e6 / seconds, 'M values/s', dask && n / 1e6 / dask[0]!);
report('peak RSS', peak / 1e9, 'GB', dask && dask[1]! / 1e9, '< 1 GB');
