// Streaming: the sum of a virtual random.uniform array far larger than memory (default 64 GiB
// in 128 MiB chunks) on the thread pool, with the process's peak RSS (VmHWM).
//
//   npm run bench -- threads-streaming
//   knobs: BENCH_STREAM_GIB (64), BENCH_STREAM_DASK_GIB (4: Dask runs a smaller array)
//
// Target (issue 4): completes with peak RSS under 2 GB. Dask (no peer script for this) runs
// da.random.random(...).sum() with 2 threads on a smaller array for a throughput comparison.

import { compute, random, shutdown } from '../src/index.ts';
import { runDaskSnippet } from './dask.ts';
import { knob, rssPeak } from './memory.ts';
import { report } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const gib = knob('BENCH_STREAM_GIB', small ? 8 : 64);
const daskGib = knob('BENCH_STREAM_DASK_GIB', small ? 1 : 4);
const CHUNK = 2 ** 24; // float64 elements: 128 MiB
const n = Math.round((gib * 2 ** 30) / 8 / CHUNK) * CHUNK;

let events = 0;
const t0 = performance.now();
const total = await compute(random.uniform([n], { seed: 7, chunks: CHUNK }).sum(), {
  scheduler: 'threads',
  workers: 2,
  progress: () => {
    events++;
  },
});
const seconds = (performance.now() - t0) / 1000;
const peak = rssPeak();
await shutdown();
const mean = (total.data[0] as number) / n;
if (Math.abs(mean - 0.5) > 1e-3) throw new Error(`streaming sum: mean ${mean} is not ~0.5`);

const py = `
import time, dask.array as da
n = ${Math.round((daskGib * 2 ** 30) / 8)}
t0 = time.perf_counter()
s = da.random.random(n, chunks=${CHUNK}).sum().compute(scheduler='threads', num_workers=2)
dt = time.perf_counter() - t0
hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]
print(dt, int(hwm) * 1024, s / n)
`;
const dask = runDaskSnippet(py);
const daskRate = dask && (daskGib * 2 ** 30) / 1e9 / dask[0]!;
const daskPeak = dask?.[1];

const gb = (n * 8) / 1e9;
console.log(
  `sum of random.uniform, ${gib} GiB virtual (${n / CHUNK} chunks of 128 MiB), 2 workers`,
);
console.log(`time: ${seconds.toFixed(1)} s`);
report('throughput', gb / seconds, 'GB/s', daskRate, `(dask on ${daskGib} GiB)`);
report('peak RSS', peak / 1e9, 'GB', daskPeak && daskPeak / 1e9, '< 2 GB');
console.log(`progress events: ${events}`);
