// Reuse of released block buffers (config.bufferPool) on the cases it is for: fresh outputs
// with no reduction, `compute(x.mul(2).add(1))` of persisted blocks, and matmul of wrapped
// data, each with reuse on (the default) and off (bufferPool 0), 2 workers, against Dask in
// the same run. Fresh memory faults in slowly (see ../shared/NOTES.md); reuse avoids it.
//
//   npm run bench -- buffer-reuse      knobs: BENCH_BR_N (4000), BENCH_BR_C (1000)

import { compute, configure, fromArray, type LazyArray, persist, shutdown } from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { knob, uniformData } from './memory.ts';
import { report, time } from './timing.ts';

const N = knob('BENCH_BR_N', 4000);
const C = knob('BENCH_BR_C', 1000);
const M = 2000;
const opts = { scheduler: 'threads', workers: 2 } as const;

const [x] = await persist(fromArray(uniformData(N * N), { shape: [N, N], chunks: C }), opts);
const a = fromArray(uniformData(M * M, 1), { shape: [M, M], chunks: 1000, name: false });
const b = fromArray(uniformData(M * M, 2), { shape: [M, M], chunks: 1000, name: false });

const cases: [string, () => LazyArray][] = [
  [`x * 2 + 1 of persisted ${N}² float64 in ${C}² chunks`, () => x!.mul(2).add(1)],
  [`matmul ${M}² float64 in 1000² chunks`, () => a.matmul(b)],
];
const figures = [];
for (const [label, build] of cases) {
  const on = await time(() => compute(build(), opts), 5);
  configure({ bufferPool: 0 });
  const off = await time(() => compute(build(), opts), 5);
  configure({ bufferPool: 2 ** 30 });
  figures.push({ label, on, off });
}
await shutdown();

const dask = runDaskSnippet(`${PY_BEST_OF_3}
import numpy as np, dask, dask.array as da
dask.config.set(scheduler='threads', num_workers=2)
x = da.random.random((${N}, ${N}), chunks=${C}).persist()
A = np.random.default_rng(1).random((${M}, ${M})); B = np.random.default_rng(2).random((${M}, ${M}))
a = da.from_array(A, chunks=1000, name=False); b = da.from_array(B, chunks=1000, name=False)
print(t(lambda: (x * 2 + 1).compute()), t(lambda: (a @ b).compute()))`);
figures.forEach(({ label, on, off }, i) => {
  console.log(label);
  report('  reuse on (default)', on.min, 's', dask?.[i]);
  report('  reuse off (bufferPool 0)', off.min, 's', dask?.[i]);
});
