// Dispatch overhead (issue 8): building an expression of 1,000 operations on this checkout
// against the same build on a reference checkout from before dispatch existed (cdb59cb).
// Both copies of tessera are loaded into this one process and the builds alternate (A, B,
// A, B, …), so machine load hits both alike; each build is timed with process.cpuUsage()
// and performance.now(), and the best of N is reported with the ratio.
//
//   git worktree add --detach /tmp/cdb cdb59cb && ln -s "$PWD/node_modules" /tmp/cdb/
//   TESSERA_REF=/tmp/cdb npm run bench -- build-overhead
//
// Knobs: TESSERA_REF (reference checkout; default /tmp/cdb, skipped with a message when it
// has no src/index.ts), BENCH_REPS (builds per side, default 40). Target: ratio ≤ 1.10.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { knob } from './memory.ts';

/** The slice of the public API both checkouts share and the build loop uses. */
interface Api {
  fromArray(data: Float64Array, options: { chunks: number }): unknown;
  add(a: unknown, b: unknown): unknown;
  multiply(a: unknown, b: unknown): unknown;
}

const ref = resolve(process.env.TESSERA_REF ?? '/tmp/cdb');
const refEntry = join(ref, 'src', 'index.ts');
if (!existsSync(refEntry)) {
  console.log(
    `build-overhead: skipped, no reference checkout at ${ref} (set TESSERA_REF to a checkout of cdb59cb)`,
  );
  process.exit(0);
}

const REPS = knob('BENCH_REPS', process.env.BENCH_SMALL === '1' ? 15 : 40);
const here = (await import('../src/index.ts')) as unknown as Api;
const before = (await import(pathToFileURL(refEntry).href)) as Api;

/** A build loop: 500 multiply/add pairs (1,000 operations) on `x`. */
type Build = (api: Api, x: unknown) => unknown;

/** The two expressions timed: many blocks (long names to hash) and bench/dispatch.ts's. */
const cases: { label: string; data: Float64Array; chunks: number; build: Build }[] = [
  {
    label: '1e6 elements in 10 blocks, x*2+1',
    data: new Float64Array(1_000_000),
    chunks: 100_000,
    build: (api, x) => {
      let y = x;
      for (let i = 0; i < 500; i++) y = api.add(api.multiply(y, 2), 1);
      return y;
    },
  },
  {
    label: '64 elements in 2 blocks, x*1.0001+(i%7) (bench/dispatch.ts)',
    data: new Float64Array(64),
    chunks: 32,
    build: (api, x) => {
      let y = x;
      for (let i = 0; i < 500; i++) y = api.add(api.multiply(y, 1.0001), i % 7);
      return y;
    },
  },
];

/** CPU and wall milliseconds of one build. */
function measure(build: Build, api: Api, x: unknown): { cpu: number; wall: number } {
  globalThis.gc?.();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  build(api, x);
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1e3, wall };
}

const min = (xs: number[]) => Math.min(...xs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const { label, data, chunks, build } of cases) {
  const xHere = here.fromArray(data, { chunks });
  const xBefore = before.fromArray(data, { chunks });
  // warm both sides up (JIT) before timing
  for (let i = 0; i < 5; i++) {
    build(here, xHere);
    build(before, xBefore);
  }
  const runs = {
    here: { cpu: [] as number[], wall: [] as number[] },
    before: { cpu: [] as number[], wall: [] as number[] },
  };
  for (let i = 0; i < REPS; i++) {
    // alternate which side goes first so that neither always follows the other's garbage
    const order = i % 2 === 0 ? (['here', 'before'] as const) : (['before', 'here'] as const);
    for (const side of order) {
      const m = side === 'here' ? measure(build, here, xHere) : measure(build, before, xBefore);
      runs[side].cpu.push(m.cpu);
      runs[side].wall.push(m.wall);
    }
  }
  console.log(`build 1,000 operations, ${label}:`);
  for (const k of ['cpu', 'wall'] as const) {
    const h = runs.here[k];
    const b = runs.before[k];
    console.log(
      `  ${k}: this checkout ${min(h).toFixed(2)} ms best (${median(h).toFixed(2)} median), ` +
        `reference ${min(b).toFixed(2)} ms best (${median(b).toFixed(2)} median); ` +
        `ratio ${(min(h) / min(b)).toFixed(3)} best, ${(median(h) / median(b)).toFixed(3)} median (target ≤ 1.10)`,
    );
  }
}
