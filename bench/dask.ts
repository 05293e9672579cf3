// Runs a Dask peer script from ../shared/peers/dask (one JSON line on stdout) so each
// benchmark prints tessera and Dask side by side in the same run.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const peers = process.env.TESSERA_DASK_PEERS ?? resolve(here, '../../shared/peers/dask');
const python = process.env.TESSERA_PYTHON ?? '/usr/bin/python3';

let available: boolean | undefined;

/** True when Debian's python3 with dask and the peer scripts are present. */
export function daskAvailable(): boolean {
  if (available === undefined) {
    available =
      existsSync(resolve(peers, '_bench.py')) &&
      spawnSync(python, ['-c', 'import dask, numpy'], { stdio: 'ignore' }).status === 0;
  }
  return available;
}

export type DaskResult = Record<string, unknown>;

/** Run `script` with `args`; the parsed JSON record, or undefined when Dask is missing. */
export function runDask(script: string, args: (string | number)[] = []): DaskResult | undefined {
  if (!daskAvailable()) return undefined;
  const r = spawnSync(python, [resolve(peers, script), ...args.map(String)], {
    cwd: peers,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    env: { ...process.env, BENCH_REPS: process.env.BENCH_REPS ?? '3' },
  });
  if (r.status !== 0) {
    console.error(`dask ${script} failed: ${r.stderr.slice(-2000)}`);
    return undefined;
  }
  const line = r.stdout.trim().split('\n').pop()!;
  return JSON.parse(line) as DaskResult;
}

/** Read a nested field of a Dask record, e.g. path(['results', 'dask', 'sync', 'execute_s', 'min']). */
export function field(rec: DaskResult | undefined, path: (string | number)[]): number | undefined {
  let v: unknown = rec;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return typeof v === 'number' ? v : undefined;
}

/**
 * Run a Python snippet that prints numbers on its last line (with dask importable); the
 * numbers, or undefined when Dask is missing or the snippet failed.
 */
export function runDaskSnippet(py: string): number[] | undefined {
  if (!daskAvailable()) return undefined;
  const r = spawnSync(python, ['-c', py], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const nums = r.stdout.trim().split('\n').pop()?.split(/\s+/).map(Number);
  if (r.status !== 0 || nums === undefined || nums.some(Number.isNaN)) {
    console.error(`dask snippet failed: ${r.stderr.slice(-2000)}`);
    return undefined;
  }
  return nums;
}

/** Python for snippets: t(f) is f's best time of 3 runs after one warm-up, in seconds. */
export const PY_BEST_OF_3 = `
import time
def t(f):
    f()
    best = 1e9
    for _ in range(3):
        t0 = time.perf_counter(); f(); best = min(best, time.perf_counter() - t0)
    return best
`;
