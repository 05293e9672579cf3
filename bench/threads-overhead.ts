// Per-task overhead of the schedulers: 100,000 independent trivial tasks (a raw graph, as
// Dask's per_task_overhead.py builds one), and (ones(n, chunks=1) + 1).sum() per task.
//
//   npm run bench -- threads-overhead         knobs: BENCH_TASKS (100000), BENCH_ARR (20000)
//
// Target (issue 4): at most 15 µs per task with 2 workers (Dask, 2 threads: ~67 µs).

import { computeBlocks } from '../src/array/compute.ts';
import { fuseLayers } from '../src/graph/fuse.ts';
import { materializeTasks, runnableCount } from '../src/graph/materialize.ts';
import { ones, shutdown } from '../src/index.ts';
import { field, runDask } from './dask.ts';
import { knob } from './memory.ts';
import { rawLayer } from './raw-graph.ts';
import { report, time } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const N_RAW = knob('BENCH_TASKS', small ? 20000 : 100_000);
const N_ARR = knob('BENCH_ARR', small ? 5000 : 20000);

const layer = rawLayer(N_RAW);
const opts = { scheduler: 'threads', workers: 2 } as const;
const raw = await time(() => computeBlocks([layer], opts));
const rawSync = await time(() => computeBlocks([layer], { scheduler: 'sync' }));

const arr = () => ones([N_ARR], { chunks: 1 }).add(1).sum();
const arrTasks = runnableCount(materializeTasks(fuseLayers([arr().layer])));
const arrThreads = await time(() => computeBlocks([arr().layer], opts));
await shutdown();

const dask = runDask('per_task_overhead.py', [N_RAW, N_ARR]);
const us = (s: number, n: number) => (s / n) * 1e6;
const d = (path: string[]) => field(dask, ['results', ...path]);
console.log(`${N_RAW} independent trivial tasks (end to end: order, schedule, run, collect)`);
report(
  'µs/task, threads, 2 workers',
  us(raw.min, N_RAW),
  'µs',
  d(['raw_graph', 'threads2', 'us_per_task_min']),
  '≤ 15 µs',
);
report('µs/task, sync', us(rawSync.min, N_RAW), 'µs', d(['raw_graph', 'sync', 'us_per_task_min']));
console.log(`(ones(${N_ARR}, chunks=1) + 1).sum(): ${arrTasks} tasks after fusion and coarsening`);
report(
  'end to end, threads, 2 workers',
  arrThreads.min,
  's',
  d(['array_sum', 'dask', 'threads2', 'end_to_end_s', 'min']),
);
