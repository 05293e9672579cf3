// (x * 2 + 1).sum() on an N × N float64 array in C × C chunks, on the thread pool with 1 and
// 2 workers, against Dask's elementwise.py (2 threads) in the same run.
//
//   npm run bench -- threads-elementwise      knobs: BENCH_EW_N (20000), BENCH_EW_C (2000)
//
// Targets (issue 4): at most 0.6 × Dask's 2-thread time; 2 workers at least 1.7 × faster than 1.

import { compute, fromArray, shutdown } from '../src/index.ts';
import { field, runDask } from './dask.ts';
import { knob, uniformData } from './memory.ts';
import { report, time } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const N = knob('BENCH_EW_N', small ? 8000 : 20000);
const C = knob('BENCH_EW_C', small ? 800 : 2000);

const data = uniformData(N * N);
const build = () =>
  fromArray(data, { shape: [N, N], chunks: [C, C], name: false })
    .mul(2)
    .add(1)
    .sum();

let expected = 0;
for (let i = 0; i < data.length; i++) expected += data[i]! * 2 + 1;
const got = (await compute(build(), { scheduler: 'threads', workers: 2 })).data[0] as number;
if (Math.abs(got - expected) > 1e-9 * Math.abs(expected)) {
  throw new Error(`(x*2+1).sum(): got ${got}, expected ${expected}`);
}

const one = await time(() => compute(build(), { scheduler: 'threads', workers: 1 }));
const two = await time(() => compute(build(), { scheduler: 'threads', workers: 2 }));
await shutdown();

const dask = runDask('elementwise.py', [N, C]);
const daskThreads = field(dask, ['results', 'dask', 'threads2', 'end_to_end_s', 'min']);
const gb = (N * N * 8) / 1e9;
console.log(`(x*2+1).sum() on ${N}² float64 (${gb.toFixed(2)} GB) in ${C}² chunks`);
report('threads, 2 workers', two.min, 's', daskThreads, '≤ 0.6 × dask');
console.log(`threads, 1 worker: ${one.min.toFixed(3)} s`);
report('throughput, 2 workers', gb / two.min, 'GB/s', daskThreads && gb / daskThreads);
console.log(`speedup 1 → 2 workers: ${(one.min / two.min).toFixed(2)}× | target ≥ 1.7×`);
