// Statistics side by side with Dask: nanmean over axis 0 and the median (percentile 50) over
// axis 1 of a rows × cols float64 array with 1% NaN, persisted in row-band chunks.
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
const [x] = await persist(where(less(raw, 0.01), Number.NaN, raw), opts);

const nm = nanmean(x, { axis: 0 });
const md = percentile(x, 50, { axis: 1 });
const tNanmean = await time(() => compute(nm, opts));
const tMedian = await time(() => compute(md, opts));
const [m, p] = await compute(nm, md, opts);
await shutdown();
const col0 = m!.data[0]!;
if (Math.abs(col0 - 0.505) > 0.05) throw new Error(`stats: nanmean ${col0} is not ~0.505`);
if (Math.abs(p!.data[0]! - 0.505) > 0.1) throw new Error(`stats: median ${p!.data[0]} off`);

const py = `${PY_BEST_OF_3}
import numpy as np, dask, dask.array as da
dask.config.set(scheduler='threads', num_workers=${workers})
raw = da.random.RandomState(14).random_sample((${rows}, ${cols}), chunks=(${band}, ${cols}))
x = da.where(raw < 0.01, np.nan, raw).persist()
a = t(lambda: da.nanmean(x, axis=0).compute())
b = t(lambda: x.map_blocks(np.percentile, 50, axis=1, drop_axis=1, dtype=x.dtype).compute())
print(a, b)
`;
const dask = runDaskSnippet(py);

console.log(`${rows} × ${cols} float64 (1% NaN) in ${rows / band} row bands, ${workers} workers`);
report('nanmean axis 0', tNanmean.min, 's', dask?.[0], '<= dask');
report('percentile 50 axis 1', tMedian.min, 's', dask?.[1], '<= dask');
