// int64 against float64 on 10M elements held in memory (persisted chunks of 1M), one core
// ('sync'): an elementwise chain and a sum, each beside Dask's on the same dtypes.
//
//   npm run bench -- int64          knobs: BENCH_I64_N (10,000,000), BENCH_I64_C (1,000,000)

import type { LazyArray } from '../src/array/lazy-array.ts';
import { arange, compute, persist, shutdown } from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { knob } from './memory.ts';
import { report, time } from './timing.ts';

const N = knob('BENCH_I64_N', 10_000_000);
const C = knob('BENCH_I64_C', 1_000_000);
const SYNC = { scheduler: 'sync' } as const;

const [f, i] = await persist(
  arange(N, { chunks: C, dtype: 'float64' }),
  arange(N, { chunks: C, dtype: 'int64' }),
);
const chain = (x: LazyArray) => x.mul(3).add(x).sub(7);
const timeOf = async (x: LazyArray) => (await time(() => compute(x, SYNC), 5)).min;
const ours = {
  f64Chain: await timeOf(chain(f!)),
  i64Chain: await timeOf(chain(i!)),
  f64Sum: await timeOf(f!.sum()),
  i64Sum: await timeOf(i!.sum()),
};
await shutdown();

const dask = runDaskSnippet(`${PY_BEST_OF_3}
import numpy as np, dask.array as da, dask
dask.config.set(scheduler='synchronous')
f = da.arange(${N}, chunks=${C}, dtype='float64').persist()
i = da.arange(${N}, chunks=${C}, dtype='int64').persist()
print(t(lambda: (f * 3 + f - 7).compute()), t(lambda: (i * 3 + i - 7).compute()),
      t(lambda: f.sum().compute()), t(lambda: i.sum().compute()))`);

console.log(`${N} elements in chunks of ${C}, one core (sync), persisted inputs, fresh outputs`);
report('x*3+x-7 float64', ours.f64Chain, 's', dask?.[0]);
report('x*3+x-7 int64', ours.i64Chain, 's', dask?.[1]);
report('sum float64', ours.f64Sum, 's', dask?.[2]);
report('sum int64', ours.i64Sum, 's', dask?.[3]);
console.log(
  `int64 / float64 time: chain ${(ours.i64Chain / ours.f64Chain).toFixed(2)}, sum ${(ours.i64Sum / ours.f64Sum).toFixed(2)}`,
);
