// matmul of 2000 × 2000 float64 in 1000² chunks on 2 worker threads, on the default backend
// (cpu-blas where OpenBLAS and koffi are installed), cpu-wasm and cpu-js, against Dask
// (NumPy's BLAS) in the same run; GFLOP/s per core against NumPy's GEMM.
//
//   npm run bench -- backends-matmul        knobs: BENCH_MM_N (2000), BENCH_MM_C (1000)

import { blasAvailable } from '../src/backends/cpu-blas/support.ts';
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

const names = listBackends().map((k) => k.name);
/** Time x @ y with only `backend` and cpu-js enabled (cpu-js runs what it declines). */
const on = (backend: string, reps?: number) =>
  time(
    () =>
      compute(
        withBackend({ disable: names.filter((n) => n !== backend && n !== 'cpu-js') }, () =>
          x.matmul(y),
        ),
        { workers: 2 },
      ),
    reps,
  );
const blas = blasAvailable() === true ? await on('cpu-blas') : undefined;
const wasm = await on('cpu-wasm');
const js = await on('cpu-js', 1);
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
if (blas) report('cpu-blas (default)', blas.min, 's', dask?.[0], '≤ 1 × dask');
else console.log(`cpu-blas: not run (${blasAvailable()})`);
report('cpu-wasm', wasm.min, 's', dask?.[0]);
report('cpu-js', js.min, 's', dask?.[0]);
const perCore = (s: number): string => `${(flops / s / 2 / 1e9).toFixed(1)} GFLOP/s per core`;
console.log(
  `${blas ? `cpu-blas ${perCore(blas.min)}; ` : ''}cpu-wasm ${perCore(wasm.min)}; cpu-js ${perCore(js.min)}`,
);
if (dask) {
  console.log(
    `dask ${perCore(dask[0]!)}; numpy one call (BLAS threads as configured): ${(flops / dask[1]! / 1e9).toFixed(1)} GFLOP/s`,
  );
}
