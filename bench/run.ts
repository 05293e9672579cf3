// Runs the benchmarks in bench/, each in a fresh node process (clean memory peaks), one
// after another; prints each file's output and wall time, and fails if any file fails.
//
//   npm run bench                      every benchmark
//   npm run bench -- threads rechunk   files whose name contains any of the words
//
// A benchmark is any bench/*.ts except the helpers below and files starting with '_'.
// Knobs: BENCH_REPS (Dask repetitions), BENCH_SMALL=1 (smaller inputs everywhere), and
// per-file knobs documented at the top of each file.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HELPERS = new Set(['run.ts', 'dask.ts', 'timing.ts', 'memory.ts', 'raw-graph.ts']);
const here = dirname(fileURLToPath(import.meta.url));

const words = process.argv.slice(2).filter((a) => a !== '--');
const files = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !HELPERS.has(f) && !f.startsWith('_'))
  .filter((f) => words.length === 0 || words.some((w) => f.includes(w)))
  .sort();

if (files.length === 0) {
  console.error(`bench: no benchmark matches ${JSON.stringify(words)}`);
  process.exit(1);
}

const failed: string[] = [];
const start = performance.now();
for (const f of files) {
  console.log(`\n# ${f}`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(here, f)], {
    stdio: 'inherit',
    env: process.env,
  });
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  if (r.status !== 0) failed.push(f);
  console.log(`# ${f}: ${r.status === 0 ? 'ok' : `FAILED (${r.status ?? r.signal})`} in ${s} s`);
}
console.log(
  `\n# ${files.length} benchmarks in ${((performance.now() - start) / 1000).toFixed(0)} s`,
);
if (failed.length > 0) {
  console.error(`# failed: ${failed.join(', ')}`);
  process.exit(1);
}
