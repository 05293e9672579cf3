// lazyApply(sortRows, x, { axis: 1 }) against Dask's x.rechunk({1: -1}).map_blocks(np.sort),
// side by side in one run: build + persist end to end, min of 3 after a warm-up.
//
//   npx tsx bench/lazy-apply.ts [M K R C]        (default 20000 2000 1000 500: 320 MB float64)
//
// Target (issue 3): tessera on threads at most 0.8 × Dask's 2-thread time.

import { availableParallelism } from 'node:os';
import { lazyApply } from '../src/apply/lazy-apply.ts';
import { compute } from '../src/array/compute.ts';
import { allocate } from '../src/array/dtype.ts';
import { fromArray } from '../src/array/from-array.ts';
import type { NDArray } from '../src/array/ndarray.ts';
import { persist } from '../src/array/persist.ts';
import { shutdownDefaultPool } from '../src/workers/pool.ts';
import { field, runDask } from './dask.ts';
import { report, time } from './timing.ts';

const [M, K, R, C] = [20000, 2000, 1000, 500].map((d, i) => Number(process.argv[2 + i] ?? d)) as [
  number,
  number,
  number,
  number,
];

/** Shipped to the workers by its source: self-contained, returns shared memory (no copy back). */
const sortRows = (b: NDArray) => {
  const n = b.shape[1]!;
  const out = new Float64Array(new SharedArrayBuffer(b.data.byteLength));
  out.set(b.data);
  for (let i = 0; i < out.length; i += n) out.subarray(i, i + n).sort();
  return out;
};

function input(): ReturnType<typeof fromArray> {
  const data = allocate('float64', M * K);
  let s = 12345;
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    data[i] = s / 2 ** 32;
  }
  return fromArray(data, { shape: [M, K], chunks: [R, C], name: 'bench-lazy-apply-x' });
}

async function main(): Promise<void> {
  const x = input();
  const build = () => lazyApply(sortRows, x, { axis: 1 });
  const check = await compute(build(), { scheduler: 'threads', workers: 2 });
  for (let i = 0; i < M; i += Math.max(1, Math.floor(M / 50))) {
    for (let j = 1; j < K; j++) {
      if (check.get(i, j - 1) > check.get(i, j)) throw new Error(`row ${i} is not sorted at ${j}`);
    }
  }
  const sync = await time(() => persist(build(), { scheduler: 'sync' }));
  const threads = await time(() => persist(build(), { scheduler: 'threads', workers: 2 }));
  // CPU seconds of one threaded run (all threads): less sensitive to a busy machine than wall time
  const before = process.cpuUsage();
  await persist(build(), { scheduler: 'threads', workers: 2 });
  const used = process.cpuUsage(before);
  await shutdownDefaultPool();

  const dask = runDask('lazy_apply.py', [M, K, R, C]);
  const daskSync = field(dask, ['results', 'dask', 'sync', 'end_to_end_s', 'min']);
  const daskThreads = field(dask, ['results', 'dask', 'threads2', 'end_to_end_s', 'min']);
  console.log(
    `lazyApply sort along axis 1: ${M}×${K} float64 in (${R}, ${C}) chunks, ` +
      `${availableParallelism()} cores, persist end to end, min of 3`,
  );
  report('sync', sync.min, 's', daskSync);
  report('threads (2 workers)', threads.min, 's', daskThreads, '<= 0.8');
  console.log(`threads: ${((used.user + used.system) / 1e6).toFixed(2)} CPU s in one run`);
  if (dask === undefined)
    console.log('Dask was not found: apt-get install -y python3-dask python3-numpy');
}

await main();
