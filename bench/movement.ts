// Data-movement kernels side by side with Dask (issue 13): boolean mask, negative-step slice,
// cumsum along axis 0, stack and concat, a mapBlocks user kernel, std/var along axis 0 and
// two rechunks, each on inputs persisted first so the timing is the operation itself.
//
//   npm run bench -- movement                       every case
//   BENCH_MOVE_CASES=mask,cumsum0 npm run bench -- movement
//   knobs: BENCH_MOVE_N (4000: N × N float64), BENCH_MOVE_CHUNK (1000), BENCH_MOVE_N3 (256:
//          the 3-D rechunk's N³), BENCH_WORKERS (2); BENCH_SMALL=1 runs 800², chunks 200, 64³
//
// Target: each case at most Dask's time (2 threads against 2 workers). Array results are
// persisted on both sides (no concatenation into one buffer). The mapBlocks line also prints
// the engine's overhead over calling the same kernel directly on the same blocks in one
// thread (target ≤ 10 %), and the rechunks the extra peak RSS over the input (target ≤ 1.3 ×).

import { allocate } from '../src/array/dtype.ts';
import {
  compute,
  concat,
  cumsum,
  type LazyArray,
  mapBlocks,
  type NDArray,
  persist,
  random,
  rechunk,
  shutdown,
  stack,
} from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { knob, resetPeak, rssNow, rssPeak } from './memory.ts';
import { report, time } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const N = knob('BENCH_MOVE_N', small ? 800 : 4000);
const C = knob('BENCH_MOVE_CHUNK', small ? 200 : 1000);
const N3 = knob('BENCH_MOVE_N3', small ? 64 : 256);
const workers = knob('BENCH_WORKERS', 2);
const opts = { scheduler: 'threads', workers } as const;
const wanted = process.env.BENCH_MOVE_CASES?.split(',');
const K3 = Math.max(1, N3 / 16);

/** The user kernel of the mapBlocks case: (b - mean(b)) / std(b), two passes and a write. */
function normalise(b: NDArray): Float64Array {
  const d = b.data as Float64Array;
  const n = d.length;
  let s = 0;
  for (let i = 0; i < n; i++) s += d[i]!;
  const m = s / n;
  let q = 0;
  for (let i = 0; i < n; i++) q += (d[i]! - m) * (d[i]! - m);
  const r = 1 / Math.sqrt(q / n);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = (d[i]! - m) * r;
  return out;
}

interface Case {
  name: string;
  label: string;
  /** what runs, timed; a LazyArray result is persisted, anything else computed */
  build: () => LazyArray;
  persistResult: boolean;
  /** the same on the Dask side, as a Python expression over x, ys, x3 (persisted) */
  py: string;
  memory?: boolean;
}

const cases: Case[] = [
  {
    name: 'mask',
    label: 'x.mask(x.greater(0.5)).sum()',
    build: () => X.mask(X.greater(0.5)).sum(),
    persistResult: false,
    py: 'x[x > 0.5].sum().compute()',
  },
  {
    name: 'revslice',
    label: "x.get('::-1, :').mean(0)",
    build: () => X.get('::-1, :').mean({ axis: 0 }),
    persistResult: false,
    py: 'x[::-1, :].mean(0).compute()',
  },
  {
    name: 'cumsum0',
    label: 'cumsum(x, axis 0), persisted',
    build: () => cumsum(X, { axis: 0 }),
    persistResult: true,
    py: 'da.cumsum(x, axis=0).persist()',
  },
  {
    name: 'stack',
    label: 'stack(4 arrays).sum(0)',
    build: () => stack(YS).sum({ axis: 0 }),
    persistResult: false,
    py: 'da.stack(ys).sum(0).compute()',
  },
  {
    name: 'concat',
    label: 'concat(4 arrays), persisted',
    build: () => concat(YS),
    persistResult: true,
    py: 'da.concatenate(ys).persist()',
  },
  {
    name: 'mapblocks',
    label: 'mapBlocks(normalise), persisted',
    build: () => mapBlocks(normalise, X, { dtype: 'float64' }),
    persistResult: true,
    py: 'x.map_blocks(lambda b: (b - b.mean()) / b.std()).persist()',
  },
  {
    name: 'std0',
    label: 'x.std(axis 0)',
    build: () => X.std({ axis: 0 }),
    persistResult: false,
    py: 'x.std(axis=0).compute()',
  },
  {
    name: 'var0',
    label: 'x.var(axis 0)',
    build: () => X.var({ axis: 0 }),
    persistResult: false,
    py: 'x.var(axis=0).compute()',
  },
  {
    name: 'rechunk3d',
    label: `rechunk ${N3}³ (${N3},${N3},${K3}) → (${K3},${N3},${N3}), persisted`,
    build: () => rechunk(X3, [K3, N3, N3]),
    persistResult: true,
    py: `x3.rechunk((${K3}, ${N3}, ${N3})).persist()`,
    memory: true,
  },
  {
    name: 'rechunkT',
    label: `rechunk (${N},100) → (100,${N}), persisted`,
    build: () => rechunk(XT, [100, N]),
    persistResult: true,
    py: `xt.rechunk((100, ${N})).persist()`,
    memory: true,
  },
].filter((c) => wanted === undefined || wanted.includes(c.name));

const [X, Y1, Y2, Y3, Y4, X3, XT] = (await persist(
  random.uniform([N, N], { seed: 13, chunks: [C, C] }),
  ...[1, 2, 3, 4].map((s) => random.uniform([N / 2, N], { seed: 13 + s, chunks: [C, C] })),
  random.uniform([N3, N3, N3], { seed: 20, chunks: [N3, N3, K3] }),
  random.uniform([N, N], { seed: 21, chunks: [N, 100] }),
  opts,
)) as LazyArray[] as [LazyArray, ...LazyArray[]];
const YS = [Y1!, Y2!, Y3!, Y4!];

const settle = async () => {
  globalThis.gc?.();
  await new Promise((res) => setTimeout(res, 50));
  globalThis.gc?.();
};

const ours: { c: Case; t: number; extra?: number }[] = [];
for (const c of cases) {
  const run = () => (c.persistResult ? persist(c.build(), opts) : compute(c.build(), opts));
  let extra: number | undefined;
  if (c.memory) {
    await settle();
    resetPeak();
    const base = rssNow();
    await run();
    extra = rssPeak() - base;
  }
  const t = await time(run);
  ours.push({ c, t: t.min, ...(extra !== undefined ? { extra } : {}) });
}

// the mapBlocks overhead: the kernel called directly on the same blocks, one thread
let direct: number | undefined;
if (cases.some((c) => c.name === 'mapblocks')) {
  const whole = await compute(X, opts);
  const blocks: NDArray[] = [];
  const { NDArray: Ctor } = await import('../src/array/ndarray.ts');
  for (let i = 0; i < N; i += C) {
    for (let j = 0; j < N; j += C) {
      // shared memory, as the engine's blocks: the kernel sees the same kind of array
      const b = allocate('float64', C * C) as Float64Array;
      for (let r = 0; r < C; r++)
        b.set(whole.data.subarray((i + r) * N + j, (i + r) * N + j + C) as Float64Array, r * C);
      blocks.push(new Ctor(b, [C, C], 'float64'));
    }
  }
  const sync = await time(() =>
    persist(mapBlocks(normalise, X, { dtype: 'float64' }), { scheduler: 'sync' }),
  );
  const d = await time(() => {
    for (const b of blocks) normalise(b);
  });
  direct = d.min;
  ours.push({
    c: {
      ...cases.find((c) => c.name === 'mapblocks')!,
      label: 'mapBlocks(normalise), sync scheduler',
    },
    t: sync.min,
  });
}
await shutdown();

const py = `${PY_BEST_OF_3}
import os, numpy as np, dask, dask.array as da
dask.config.set(scheduler='threads', num_workers=${workers})
def rss():
    for l in open('/proc/self/status'):
        if l.startswith('VmRSS:'): return int(l.split()[1]) * 1024
def peak():
    for l in open('/proc/self/status'):
        if l.startswith('VmHWM:'): return int(l.split()[1]) * 1024
def extra(f):
    import gc; gc.collect(); open('/proc/self/clear_refs', 'w').write('5'); b = rss(); r = f(); e = peak() - b; del r; return e
rs = da.random.RandomState
x = rs(13).random_sample((${N}, ${N}), chunks=(${C}, ${C}))
ys = [rs(13 + s).random_sample((${N / 2}, ${N}), chunks=(${C}, ${C})) for s in range(1, 5)]
x3 = rs(20).random_sample((${N3}, ${N3}, ${N3}), chunks=(${N3}, ${N3}, ${K3}))
xt = rs(21).random_sample((${N}, ${N}), chunks=(${N}, 100))
x, x3, xt, *ys = dask.persist(x, x3, xt, *ys)
out = []
${cases
  .map((c) =>
    c.memory
      ? `out.append(extra(lambda: ${c.py})); out.append(t(lambda: ${c.py}))`
      : `out.append(t(lambda: ${c.py}))`,
  )
  .join('\n')}
print(*out)
`;
const dask = runDaskSnippet(py);
const daskOf = new Map<string, { t: number; extra?: number }>();
let k = 0;
for (const c of cases) {
  if (dask === undefined) break;
  const e = c.memory ? dask[k++] : undefined;
  daskOf.set(c.name, { t: dask[k++]!, ...(e !== undefined ? { extra: e } : {}) });
}

console.log(
  `${N} × ${N} float64 in ${C}² chunks (stack/concat: 4 × ${N / 2} × ${N}), ${workers} workers, min of 3`,
);
for (const { c, t, extra } of ours) {
  const sync = c.label.endsWith('sync scheduler');
  if (sync) console.log(`${c.label}: ${t.toPrecision(3)} s`);
  else report(c.label, t, 's', daskOf.get(c.name)?.t, '<= dask');
  if (extra !== undefined) {
    const d = daskOf.get(c.name)?.extra;
    const mb = (v: number) => `${(v / 2 ** 20).toFixed(0)} MiB`;
    const arrBytes = c.name === 'rechunk3d' ? N3 ** 3 * 8 : N * N * 8;
    console.log(
      `  extra peak RSS ${mb(extra)} (${(extra / arrBytes).toFixed(2)} × the array)` +
        (d !== undefined ? `, dask ${mb(d)} (${(d / arrBytes).toFixed(2)} ×)` : '') +
        ' | target <= 1.3 ×',
    );
  }
  if (sync && direct !== undefined) {
    console.log(
      `  kernel called directly on the same ${(N / C) ** 2} blocks: ${direct.toPrecision(3)} s; ` +
        `engine overhead ${(((t - direct) / direct) * 100).toFixed(1)} % | target <= 10 %`,
    );
  }
}
