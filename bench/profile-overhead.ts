// What recording a profile costs: the 100,000 independent trivial tasks of threads-overhead,
// computed with and without `onProfile`, runs interleaved; the ratio is the overhead.
//
//   npm run bench -- profile-overhead          knobs: BENCH_TASKS (100000), BENCH_REPS (5)
//
// Target (issue 15): under 5% on 'threads' (2 workers) and 'sync'. The profile's columns are
// built when first read; the callback reads one number column (the task count), and what
// reading the key column (100,000 strings) costs on its own is printed apart.

import { computeBlocks } from '../src/array/compute.ts';
import type { Profile } from '../src/index.ts';
import { shutdown } from '../src/index.ts';
import { knob } from './memory.ts';
import { rawLayer } from './raw-graph.ts';

const small = process.env.BENCH_SMALL === '1';
const N = knob('BENCH_TASKS', small ? 20000 : 100_000);
const REPS = knob('BENCH_REPS', small ? 3 : 5);
const layer = rawLayer(N);

/** Wall and CPU seconds (this process, all its threads) of one run. */
async function measure(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  globalThis.gc?.();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const c = process.cpuUsage(c0);
  return { wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

const min = (xs: number[]) => Math.min(...xs);
const pct = (a: number, b: number) => `${((b / a - 1) * 100).toFixed(1)}%`;
console.log(`${N} independent trivial tasks, with and without a profile (min of ${REPS})`);
for (const scheduler of ['sync', 'threads'] as const) {
  const opts = { scheduler, workers: 2 };
  let tasks = 0;
  let last: Profile | undefined;
  const onProfile = (p: Profile) => {
    tasks = p.tasks.start.length;
    last = p;
  };
  await computeBlocks([layer], opts); // warm-up: pool started, code compiled
  await computeBlocks([layer], { ...opts, onProfile });
  const plain: { wall: number; cpu: number }[] = [];
  const profiled: { wall: number; cpu: number }[] = [];
  for (let r = 0; r < REPS; r++) {
    plain.push(await measure(() => computeBlocks([layer], opts)));
    profiled.push(await measure(() => computeBlocks([layer], { ...opts, onProfile })));
  }
  if (tasks !== N) throw new Error(`profile-overhead: the profile held ${tasks} tasks, not ${N}`);
  const wall = [min(plain.map((m) => m.wall)), min(profiled.map((m) => m.wall))] as const;
  const cpu = [min(plain.map((m) => m.cpu)), min(profiled.map((m) => m.cpu))] as const;
  const us = (s: number) => ((s * 1e6) / N).toFixed(2);
  const k0 = performance.now();
  const keys = last!.tasks.key.length;
  const keyMs = performance.now() - k0;
  if (keys !== N) throw new Error(`profile-overhead: the profile held ${keys} keys, not ${N}`);
  console.log(
    `  ${scheduler.padEnd(8)} wall ${us(wall[0])} → ${us(wall[1])} µs/task (${pct(...wall)}), ` +
      `cpu ${us(cpu[0])} → ${us(cpu[1])} µs/task (${pct(...cpu)}); target < 5%; ` +
      `reading the key column once: ${keyMs.toFixed(1)} ms`,
  );
}
await shutdown();
