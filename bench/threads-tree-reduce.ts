// x.sum() over G × G chunks of an N × N float64 array (default 10,000 chunks of 100 × 100):
// a wide tree reduction, on the thread pool and inline, against Dask's tree_reduce.py.
//
//   npm run bench -- threads-tree-reduce      knobs: BENCH_TREE_N (10000), BENCH_TREE_G (100)
//
// Target (issue 4): at most 0.1 × Dask's time (threads against threads, sync against sync).

import { compute, fromArray, shutdown } from '../src/index.ts';
import { field, runDask } from './dask.ts';
import { knob, uniformData } from './memory.ts';
import { report, time } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const N = knob('BENCH_TREE_N', small ? 4000 : 10000);
const G = knob('BENCH_TREE_G', 100);
const C = N / G;

const data = uniformData(N * N);
const build = () => fromArray(data, { shape: [N, N], chunks: [C, C], name: false }).sum();

let expected = 0;
for (let i = 0; i < data.length; i++) expected += data[i]!;
const got = (await compute(build(), { scheduler: 'threads', workers: 2 })).data[0] as number;
if (Math.abs(got - expected) > 1e-9 * expected) throw new Error(`sum: ${got} vs ${expected}`);

const threads = await time(() => compute(build(), { scheduler: 'threads', workers: 2 }));
const sync = await time(() => compute(build(), { scheduler: 'sync' }));
await shutdown();

const dask = runDask('tree_reduce.py', [N, G]);
const d = (s: string) => field(dask, ['results', 'dask', s, 'end_to_end_s', 'min']);
console.log(`x.sum() over ${G * G} chunks of ${C}² float64`);
report('threads, 2 workers', threads.min, 's', d('threads2'), '≤ 0.1 × dask');
report('sync', sync.min, 's', d('sync'), '≤ 0.1 × dask');
