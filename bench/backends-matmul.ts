// matmul of 2000 × 2000 float64 in 1000² chunks on 2 worker threads, on cpu-wasm (the
// default) and cpu-js, against Dask (NumPy's BLAS) in the same run; GFLOP/s per core
// against NumPy's one-thread GEMM.
//
//   npm run bench -- backends-matmul        knobs: BENCH_MM_N (2000), BENCH_MM_C (1000)

import { compute, fromArray, listBackends, shutdown, withBackend } from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { knob, uniformData } from './memory.ts';
import { report, time } from './timing.ts';

const N = knob('BENCH_MM_N', 2000);
const C = knob('BENCH_MM_C', 1000);
const a = uniformData(N * N);
const b = uniformData(N * N);
const x = fromArray(a, { shape: [N, N], chunks: C, name: false });
const y = fromArray(b, { shape: [N, N], chunks: C, name: false });
const flops = 2 * N ** 3;

const others = listBackends()
  .map((k) => k.name)
  .filter((n) => n !== 'cpu-js');
const wasm = await time(() => compute(x.matmul(y), { workers: 2 }));
const js = await time(
  () =>
    compute(
      withBackend({ disable: others }, () => x.matmul(y)),
      { workers: 2 },
    ),
  1,
);
await shutdown();

const dask = runDaskSnippet(`${PY_BEST_OF_3}
import numpy as np, dask.array as da
rng = np.random.default_rng(1)
A = rng.random((${N}, ${N})); B = rng.random((${N}, ${N}))
x = da.from_array(A, chunks=${C}, name=False); y = da.from_array(B, chunks=${C}, name=False)
d = t(lambda: (x @ y).compute(scheduler='threads', num_workers=2))
n = t(lambda: A @ B)
print(d, n)`);
console.log(`matmul ${N}² float64 in ${C}² chunks, 2 workers (${(flops / 1e9).toFixed(0)} GFLOP)`);
report('cpu-wasm (default)', wasm.min, 's', dask?.[0], '≤ 1 × dask');
report('cpu-js', js.min, 's', dask?.[0]);
const perCore = (s: number): string => `${(flops / s / 2 / 1e9).toFixed(1)} GFLOP/s per core`;
console.log(`cpu-wasm ${perCore(wasm.min)}; cpu-js ${perCore(js.min)}`);
if (dask) {
  console.log(
    `dask ${perCore(dask[0]!)}; numpy one call (BLAS threads as configured): ${(flops / dask[1]! / 1e9).toFixed(1)} GFLOP/s`,
  );
}
