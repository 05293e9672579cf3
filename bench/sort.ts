// sort along axis 1 of an N × M float64 array (default 20000 × 2000, 320 MB) in row bands
// of R rows: tessera with the axis whole (one sort per block) and with the axis in B blocks
// (blocks sorted in parallel, then merged in a tree), against Dask, which has no sort: its
// users rechunk the axis whole and map_blocks(np.sort), as the peer snippet does.
//
//   npm run bench -- sort      knobs: BENCH_SORT_N (20000), BENCH_SORT_M (2000),
//                              BENCH_SORT_R (1000 rows per band), BENCH_SORT_B (2 blocks)
//
// Target (issue 12): at most Dask's time (threads against threads, 2 workers).

import { compute, fromArray, shutdown, sort } from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { knob, uniformData } from './memory.ts';
import { report, time } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const N = knob('BENCH_SORT_N', small ? 2000 : 20000);
const M = knob('BENCH_SORT_M', small ? 500 : 2000);
const R = knob('BENCH_SORT_R', small ? 250 : 1000);
const B = knob('BENCH_SORT_B', 2);

const data = uniformData(N * M);
const whole = () =>
  sort(fromArray(data, { shape: [N, M], chunks: [R, -1], name: false }), { axis: 1 });
const split = () =>
  sort(fromArray(data, { shape: [N, M], chunks: [R, Math.ceil(M / B)], name: false }), {
    axis: 1,
  });

// correctness: every row ascending, both paths equal
const a = await compute(whole(), { scheduler: 'threads', workers: 2 });
const b = await compute(split(), { scheduler: 'threads', workers: 2 });
for (let i = 0; i < N; i++) {
  for (let j = 1; j < M; j++) {
    if (a.data[i * M + j]! < a.data[i * M + j - 1]!) throw new Error(`row ${i} is not sorted`);
  }
}
if (a.data.some((v, k) => v !== b.data[k])) throw new Error('the merge path differs');

const tWhole = await time(() => compute(whole(), { scheduler: 'threads', workers: 2 }));
const tSplit = await time(() => compute(split(), { scheduler: 'threads', workers: 2 }));
await shutdown();

const dask = runDaskSnippet(`${PY_BEST_OF_3}
import numpy as np, dask, dask.array as da
x = np.random.default_rng(0).random((${N}, ${M}))
def run():
    d = da.from_array(x, chunks=(${R}, ${Math.ceil(M / B)}), name=False)
    d.rechunk({1: -1}).map_blocks(np.sort, axis=1).compute(scheduler='threads', num_workers=2)
print(t(run))
`);
console.log(`sort(x, { axis: 1 }) of ${N} × ${M} float64, ${R}-row bands`);
report('axis whole, threads 2', tWhole.min, 's', dask?.[0], '≤ dask');
report(`axis in ${B} blocks (merge tree), threads 2`, tSplit.min, 's', dask?.[0], '≤ dask');
