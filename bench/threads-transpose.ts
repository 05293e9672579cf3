// (x + x.T).mean(0) on an N × N float64 array in C × C chunks, on the thread pool, against
// Dask's transpose_add_reduce.py (2 threads) in the same run.
//
//   npm run bench -- threads-transpose        knobs: BENCH_TR_N (20000), BENCH_TR_C (1000)
//
// Target (issue 4): at most 0.8 × Dask's 2-thread time.

import type { NumberArray } from '../src/array/dtype.ts';
import { compute, fromArray, shutdown } from '../src/index.ts';
import { field, runDask } from './dask.ts';
import { knob, uniformData } from './memory.ts';
import { report, time } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const N = knob('BENCH_TR_N', small ? 8000 : 20000);
const C = knob('BENCH_TR_C', small ? 500 : 1000);

const data = uniformData(N * N);
const build = () => {
  const x = fromArray(data, { shape: [N, N], chunks: [C, C], name: false });
  return x.add(x.T).mean({ axis: 0 });
};

const got = await compute(build(), { scheduler: 'threads', workers: 2 });
for (const j of [0, N >> 1, N - 1]) {
  let s = 0;
  for (let i = 0; i < N; i++) s += data[i * N + j]! + data[j * N + i]!;
  if (Math.abs((got.data as NumberArray)[j]! - s / N) > 1e-12)
    throw new Error(`mean(0)[${j}]: ${got.data[j]}`);
}

const two = await time(() => compute(build(), { scheduler: 'threads', workers: 2 }));
await shutdown();

const dask = runDask('transpose_add_reduce.py', [N, C]);
const daskThreads = field(dask, ['results', 'dask', 'threads2', 'end_to_end_s', 'min']);
console.log(`(x + x.T).mean(0) on ${N}² float64 in ${C}² chunks`);
report('threads, 2 workers', two.min, 's', daskThreads, '≤ 0.8 × dask');
