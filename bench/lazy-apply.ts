// lazyApply(sortRows, x, { axis: 1 }) against Dask's x.rechunk({1: -1}).map_blocks(np.sort),
// side by side in one run: build + persist end to end, min of 3 after a warm-up.
//
//   npx tsx bench/lazy-apply.ts [M K R C]        (default 20000 2000 1000 500: 320 MB float64)
//
// Two user kernels (bench/kernels/sort-rows.ts, shipped by defineKernels): 'native' sorts
// each row with TypedArray.prototype.sort (the honest baseline: what a user writes first;
// V8's sort is ~1.4x slower than np.sort per block), 'radix' with a JS radix sort of float64
// rows. x is wrapped data (fromArray): each task reads its whole rows as a view of x, no
// rechunk layer. 'persisted x' runs on x's blocks held in memory, as computed blocks are: each
// task gathers the four blocks of its rows itself. Every line gives the ratio to Dask's time
// on the same scheduler. Wall times swing with other work on the machine: the load average is
// printed, and the CPU seconds of one threaded run are steadier.
//
// Target (issue 3): tessera on threads at most 0.8 × Dask's 2-thread time.

import { availableParallelism, loadavg } from 'node:os';
import { lazyApply } from '../src/apply/lazy-apply.ts';
import { compute } from '../src/array/compute.ts';
import { allocate } from '../src/array/dtype.ts';
import { fromArray } from '../src/array/from-array.ts';
import type { LazyArray } from '../src/array/lazy-array.ts';
import { persist } from '../src/array/persist.ts';
import { shutdownDefaultPool } from '../src/workers/pool.ts';
import { field, runDask } from './dask.ts';
import { sortKernels } from './kernels/sort-rows.ts';
import { report, time } from './timing.ts';

const [M, K, R, C] = [20000, 2000, 1000, 500].map((d, i) => Number(process.argv[2 + i] ?? d)) as [
  number,
  number,
  number,
  number,
];

const threads = { scheduler: 'threads', workers: 2 } as const;

function input(): LazyArray {
  const data = allocate('float64', M * K);
  let s = 12345;
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    data[i] = s / 2 ** 32;
  }
  return fromArray(data, { shape: [M, K], chunks: [R, C], name: 'bench-lazy-apply-x' });
}

async function checkSorted(y: LazyArray): Promise<void> {
  const out = await compute(y, threads);
  for (let i = 0; i < M; i += Math.max(1, Math.floor(M / 50))) {
    for (let j = 1; j < K; j++) {
      if (out.get(i, j - 1) > out.get(i, j)) throw new Error(`row ${i} is not sorted at ${j}`);
    }
  }
}

const load = (): string => loadavg()[0]!.toFixed(2);

async function main(): Promise<void> {
  const x = input();
  const [held] = await persist(x, threads);
  const cases = [
    ['native (TypedArray sort)', sortKernels.sortRowsNative, x],
    ['radix (JS radix sort)', sortKernels.sortRowsRadix, x],
    ['radix, persisted x', sortKernels.sortRowsRadix, held!],
  ] as const;
  const rows: { label: string; sync?: number; threads: number; cpu: number; load: string }[] = [];
  for (const [label, kernel, arr] of cases) {
    const build = () => lazyApply(kernel, arr, { axis: 1 });
    await checkSorted(build());
    const sync =
      label === 'radix, persisted x'
        ? undefined
        : await time(() => persist(build(), { scheduler: 'sync' }));
    const thr = await time(() => persist(build(), threads));
    // CPU seconds of one threaded run (all threads): steadier than wall time on a busy machine
    const before = process.cpuUsage();
    await persist(build(), threads);
    const used = process.cpuUsage(before);
    rows.push({
      label,
      ...(sync ? { sync: sync.min } : {}),
      threads: thr.min,
      cpu: (used.user + used.system) / 1e6,
      load: load(),
    });
  }
  await shutdownDefaultPool();

  const dask = runDask('lazy_apply.py', [M, K, R, C]);
  const daskSync = field(dask, ['results', 'dask', 'sync', 'end_to_end_s', 'min']);
  const daskThreads = field(dask, ['results', 'dask', 'threads2', 'end_to_end_s', 'min']);
  console.log(
    `lazyApply sort along axis 1: ${M}×${K} float64 in (${R}, ${C}) chunks, ` +
      `${availableParallelism()} cores, persist end to end, min of 3 (load after Dask ${load()})`,
  );
  for (const r of rows) {
    if (r.sync !== undefined) report(`${r.label} kernel, sync`, r.sync, 's', daskSync);
    report(`${r.label} kernel, threads (2 workers)`, r.threads, 's', daskThreads, '<= 0.8');
    console.log(`  ${r.cpu.toFixed(2)} CPU s in one threaded run; load ${r.load}`);
  }
  if (dask === undefined)
    console.log('Dask was not found: apt-get install -y python3-dask python3-numpy');
}

await main();
