// Statistics side by side with Dask: nanmean over axis 0 of a rows × cols float64 array with
// 1% NaN, and the median (percentile 50) over axis 1 of the same array without NaN, both
// persisted in row-band chunks (axis 1 whole in each).
//
//   npm run bench -- stats
//   knobs: BENCH_STATS_ROWS (20000), BENCH_STATS_COLS (2000), BENCH_STATS_CHUNK_ROWS (1000),
//          BENCH_WORKERS (2); BENCH_SMALL=1 runs 2000 × 500
//
// Target (issue 14): each at most Dask's time. Dask runs da.nanmean(x, axis=0) and, as its
// percentile is 1-d only, x.map_blocks(np.percentile, 50, axis=1, drop_axis=1) on the same
// chunks (the exact per-block path tessera takes when axis 1 is whole in a chunk).

import {
  compute,
  less,
  nanmean,
  percentile,
  persist,
  random,
  shutdown,
  where,
} from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { knob } from './memory.ts';
import { report, time } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const rows = knob('BENCH_STATS_ROWS', small ? 2000 : 20000);
const cols = knob('BENCH_STATS_COLS', small ? 500 : 2000);
const band = knob('BENCH_STATS_CHUNK_ROWS', small ? 250 : 1000);
const workers = knob('BENCH_WORKERS', 2);
const opts = { scheduler: 'threads', workers } as const;

const raw = random.uniform([rows, cols], { seed: 14, chunks: [band, cols] });
// the median runs on the NaN-free data: a NaN makes a slice's percentile NaN without a select
const [x, clean] = await persist(where(less(raw, 0.01), Number.NaN, raw), raw, opts);

const nm = nanmean(x, { axis: 0 });
const md = percentile(clean, 50, { axis: 1 });
const tNanmean = await time(() => compute(nm, opts));
const tMedian = await time(() => compute(md, opts));
const [m, p] = await compute(nm, md, opts);
await shutdown();
const col0 = m!.data[0] as number;
const med0 = p!.data[0] as number;
if (!(Math.abs(col0 - 0.505) < 0.05)) throw new Error(`stats: nanmean ${col0} is not ~0.505`);
if (!(Math.abs(med0 - 0.5) < 0.1)) throw new Error(`stats: median ${med0} is not ~0.5`);

const py = `${PY_BEST_OF_3}
import numpy as np, dask, dask.array as da
dask.config.set(scheduler='threads', num_workers=${workers})
raw = da.random.RandomState(14).random_sample((${rows}, ${cols}), chunks=(${band}, ${cols}))
x, clean = dask.persist(da.where(raw < 0.01, np.nan, raw), raw)
a = t(lambda: da.nanmean(x, axis=0).compute())
b = t(lambda: clean.map_blocks(np.percentile, 50, axis=1, drop_axis=1, dtype=x.dtype).compute())
print(a, b)
`;
const dask = runDaskSnippet(py);

console.log(`${rows} × ${cols} float64 in ${rows / band} row bands, ${workers} workers`);
report('nanmean axis 0', tNanmean.min, 's', dask?.[0], '<= dask');
report('percentile 50 axis 1', tMedian.min, 's', dask?.[1], '<= dask');
