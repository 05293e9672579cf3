// The process pool ('processes': kernels isolated in child processes, chunks copied over IPC)
// against the thread pool and against Dask's own 'processes' scheduler, 2 workers each:
// a compute-bound pipeline whose data is made in the workers, one whose data comes from
// the main process, and many small tasks.
//
//   npm run bench -- processes

import { compute, fromArray, ones, random, shutdown } from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { uniformData } from './memory.ts';
import { report, time } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const N = small ? 4000 : 8000;
const M = small ? 2000 : 4000;
const TASKS = 2000;

const made = () => random.uniform([N, N], { seed: 1, chunks: 1000 }).mul(2).add(1).sum();
const data = uniformData(M * M);
const moved = () =>
  fromArray(data, { shape: [M, M], chunks: 500 })
    .mul(2)
    .sum({ axis: 0 });
const tiny = () => ones([TASKS], { chunks: 1 }).add(1).sum();

const cases = [
  ['(random*2+1).sum()', `${N}² in 1000² chunks (made in the workers)`, made],
  [
    '(x*2).sum(0)',
    `x = ${M}² from the main process, 500² chunks (${(M * M * 8) / 1e6} MB moved)`,
    moved,
  ],
  ['(ones+1).sum()', `${TASKS} chunks of 1`, tiny],
] as const;

const py = `${PY_BEST_OF_3}
import time, numpy as np, dask, dask.array as da
x = np.random.default_rng(1).random((${M}, ${M}))
run = lambda a: a.compute(scheduler='processes', num_workers=2)
print(t(lambda: run((da.random.random((${N}, ${N}), chunks=1000) * 2 + 1).sum())),
      t(lambda: run((da.from_array(x, chunks=500) * 2).sum(axis=0))),
      t(lambda: run((da.ones(${TASKS}, chunks=1) + 1).sum())))
`;

const ours: { processes: number; threads: number }[] = [];
for (const [, , build] of cases) {
  const processes = await time(() => compute(build(), { scheduler: 'processes', workers: 2 }));
  const threads = await time(() => compute(build(), { scheduler: 'threads', workers: 2 }));
  ours.push({ processes: processes.min, threads: threads.min });
}
await shutdown();
const dask = runDaskSnippet(py);

console.log("scheduler 'processes', 2 workers (dask: scheduler='processes', num_workers=2)");
cases.forEach(([label, what], i) => {
  const { processes, threads } = ours[i]!;
  report(`${label} on ${what}`, processes, 's', dask?.[i]);
  console.log(`  same on 'threads': ${threads.toPrecision(3)} s`);
});
