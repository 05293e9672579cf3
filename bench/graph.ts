// Issue 2 figures: building and materializing a 1,000,000-task graph (x of 1000 × 1000
// blocks, elementwise + sum), and the sync scheduler's per-task overhead on 100,000 tasks.

import { readFileSync } from 'node:fs';
import { fuseLayers } from '../src/graph/fuse.ts';
import { materializeTasks, runnableCount } from '../src/graph/materialize.ts';
import { orderTasks } from '../src/graph/order.ts';
import { add, compute, ones, random } from '../src/index.ts';
import { field, runDask } from './dask.ts';
import { report, time } from './timing.ts';

/** Heap plus typed-array buffers, in MB (the task table lives in typed arrays). */
function heapMB(): number {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 2 ** 20;
}

/** Peak resident set (VmHWM) in MB. */
function peakRssMB(): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

/** Build, fuse, materialize and order x.mul(2).add(1).sum() over 1000 × 1000 blocks. */
function graphScale(coarsen: boolean): void {
  const before = heapMB();
  const rssBefore = peakRssMB();
  const t0 = performance.now();
  const x = random.uniform([1000, 1000], { seed: 1, chunks: 1 });
  const y = x.mul(2).add(1).sum();
  const tBuild = performance.now();
  const [fused] = fuseLayers([y.layer], { coarsen });
  const table = materializeTasks([fused!]);
  const prio = orderTasks(table);
  const t1 = performance.now();
  const held = heapMB() - before;
  const peak = peakRssMB() - rssBefore;
  console.log(
    `graph${coarsen ? ' (tree coarsened, as compute runs it)' : ''}: ${runnableCount(table).toLocaleString()} tasks (${x.numBlocks.join(' × ')} blocks, elementwise + sum)` +
      ` built in ${(tBuild - t0).toFixed(0)} ms, fused + materialized + ordered in ${(t1 - tBuild).toFixed(0)} ms` +
      ` (total ${((t1 - t0) / 1000).toFixed(2)} s, target < 2 s); heap + buffers held +${held.toFixed(0)} MB, peak RSS +${peak.toFixed(0)} MB (target < 1024 MB)`,
  );
  if (prio.length !== table.count) throw new Error('order size');
}

async function syncOverhead(): Promise<void> {
  const n = Number(process.env.BENCH_TASKS ?? 100_000);
  // n one-element blocks, each a fused (ones + 1) task: trivial kernels, all scheduler
  const x = add(ones([n], { chunks: 1 }), 1);
  const dask = runDask('per_task_overhead.py', [n, 20_000]);
  const t = await time(() => compute(x, { scheduler: 'sync' }), 3);
  report(
    'sync scheduler, µs per task (100k trivial tasks)',
    (t.min / n) * 1e6,
    'µs',
    field(dask, ['results', 'raw_graph', 'sync', 'us_per_task_min']),
    '≤ 5 µs',
  );
}

graphScale(false);
graphScale(true);
await syncOverhead();
