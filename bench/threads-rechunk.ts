// rechunk of an N × N float64 array from (N, K) to (K, N) chunks, persisted (blocks kept, no
// concatenation), on the thread pool: time and extra peak RSS, against Dask's rechunk.py.
//
//   npm run bench -- threads-rechunk          knobs: BENCH_RC_N (10000), BENCH_RC_K (100)
//
// Targets (issue 4): time at most Dask's (2 threads); extra peak memory at most 1.3 × the
// array's size. Extra peak = VmHWM during the persist minus RSS before it (input held).

import { compute, fromArray, type LazyArray, persist, rechunk, shutdown } from '../src/index.ts';
import { field, runDask } from './dask.ts';
import { knob, resetPeak, rssNow, rssPeak, uniformData } from './memory.ts';
import { report } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const N = knob('BENCH_RC_N', small ? 4000 : 10000);
const K = knob('BENCH_RC_K', 100);
const reps = 3;

const data = uniformData(N * N);
const bytes = data.byteLength;
const build = () =>
  rechunk(fromArray(data, { shape: [N, N], chunks: [N, K], name: false }), [K, N]);

// a small compute starts the workers first
await compute(fromArray(new Float64Array(4)).sum(), { scheduler: 'threads', workers: 2 });

// Extra peak memory of one persist, from a baseline holding the input and two idle workers
// (later runs would start from the garbage of earlier ones, not a clean baseline).
const settle = async () => {
  globalThis.gc?.();
  await new Promise((res) => setTimeout(res, 100));
  globalThis.gc?.();
};
await settle();
resetPeak();
const base = rssNow();
let [held]: (LazyArray | undefined)[] = await persist(build(), {
  scheduler: 'threads',
  workers: 2,
});
const extra = rssPeak() - base;
if (held!.numBlocks.join() !== `${N / K},1`) throw new Error('rechunk: wrong block grid');
held = undefined;

const times: number[] = [];
for (let r = 0; r <= reps; r++) {
  await settle();
  const t0 = performance.now();
  await persist(build(), { scheduler: 'threads', workers: 2 });
  if (r > 0) times.push((performance.now() - t0) / 1000);
}
const check = await compute(build(), { scheduler: 'threads', workers: 2 });
for (let i = 0; i < data.length; i += 9973) {
  if (check.data[i] !== data[i]) throw new Error(`rechunk: element ${i} differs`);
}
await shutdown();

const dask = runDask('rechunk.py', [N, K]);
const dt = field(dask, ['results', 'dask', 'threads2', 'end_to_end_s', 'min']);
const dm = field(dask, ['results', 'dask', 'threads2', 'peak_rss_delta_bytes', 'min']);
const min = (a: number[]) => Math.min(...a);
console.log(
  `rechunk ${N}² float64 (${(bytes / 1e9).toFixed(2)} GB) from (${N}, ${K}) to (${K}, ${N})`,
);
report('time, threads, 2 workers', min(times), 's', dt, '≤ 1 × dask');
report('extra peak RSS', extra / 1e9, 'GB', dm && dm / 1e9, '≤ 1.3 × array size');
console.log(`extra peak / array size: ${(extra / bytes).toFixed(2)} | target ≤ 1.30`);
