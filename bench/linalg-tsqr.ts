// TSQR: linalg.qr of a tall-skinny float64 matrix in row blocks (one QR task per block and a
// tree of small QRs), against dask.array.linalg.qr (its tsqr) on the same shape and chunks.
//
//   npm run bench -- linalg-tsqr   knobs: BENCH_TSQR_M (1e6 rows), BENCH_TSQR_N (100),
//   BENCH_TSQR_BLOCKS (10 row blocks), BENCH_WORKERS (4); BENCH_SMALL=1: 100000 × 50

import { compute, linalg, persist, random, shutdown } from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { knob } from './memory.ts';
import { report, time } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const M = knob('BENCH_TSQR_M', small ? 100_000 : 1_000_000);
const N = knob('BENCH_TSQR_N', small ? 50 : 100);
const BLOCKS = knob('BENCH_TSQR_BLOCKS', 10);
const WORKERS = knob('BENCH_WORKERS', 4);
const rows = Math.ceil(M / BLOCKS);
const opts = { scheduler: 'threads', workers: WORKERS } as const;

const [x] = await persist(random.normal([M, N], { seed: 1, chunks: [rows, N] }), opts);
const ours = await time(() => {
  const { Q, R } = linalg.qr(x!);
  return compute(Q, R, opts);
});
await shutdown();

const dask = runDaskSnippet(`${PY_BEST_OF_3}
import dask, dask.array as da
x = da.random.normal(size=(${M}, ${N}), chunks=(${rows}, ${N})).persist(scheduler='threads', num_workers=${WORKERS})
print(t(lambda: dask.compute(*da.linalg.qr(x), scheduler='threads', num_workers=${WORKERS})))
`);
console.log(`linalg.qr (TSQR) of ${M} × ${N} float64 in ${BLOCKS} row blocks, ${WORKERS} workers`);
report('qr: Q and R computed', ours.min, 's', dask?.[0], '<= 1.5 × dask');
