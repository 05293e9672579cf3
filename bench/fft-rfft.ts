// fft.rfft along the time axis of a channels × time float32 array chunked along channels
// (the time axis whole, one task per channel block), against dask.array.fft.rfft.
//
//   npm run bench -- fft-rfft   knobs: BENCH_FFT_C (64 channels), BENCH_FFT_LOG2 (22: 2^22
//   samples), BENCH_FFT_ROWS (4 channels per block), BENCH_WORKERS (4); BENCH_SMALL=1: 8 × 2^18

import { astype, compute, fft, persist, random, shutdown } from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { knob } from './memory.ts';
import { report, time } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const C = knob('BENCH_FFT_C', small ? 8 : 64);
const T = 2 ** knob('BENCH_FFT_LOG2', small ? 18 : 22);
const ROWS = knob('BENCH_FFT_ROWS', 4);
const WORKERS = knob('BENCH_WORKERS', 4);
const opts = { scheduler: 'threads', workers: WORKERS } as const;

const signal = astype(random.normal([C, T], { seed: 3, chunks: [ROWS, T] }), 'float32');
const [x] = await persist(signal, opts);
const ours = await time(() => compute(fft.rfft(x!, { axis: 1 }), opts));
await shutdown();

const dask = runDaskSnippet(`${PY_BEST_OF_3}
import dask.array as da, numpy as np
x = da.random.normal(size=(${C}, ${T}), chunks=(${ROWS}, ${T})).astype(np.float32).persist(scheduler='threads', num_workers=${WORKERS})
print(t(lambda: da.fft.rfft(x, axis=1).compute(scheduler='threads', num_workers=${WORKERS})))
`);
console.log(
  `fft.rfft of ${C} × 2^${Math.log2(T)} float32 along time, ${ROWS} channels per block, ${WORKERS} workers`,
);
report('rfft', ours.min, 's', dask?.[0], '<= dask');
