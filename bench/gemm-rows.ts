// The dense linear algebra rows of the performance issue, side by side with Dask (2 threads
// against 2 workers, inputs persisted in chunks, results compared): x.T @ x of a tall-skinny
// array, tensordot over two axes, batched einsum 'bij,bjk->bik'. Each runs on the default
// backends (cpu-blas where OpenBLAS and koffi are installed).
//
//   npm run bench -- gemm-rows      knobs: BENCH_SMALL=1 (each size / 4 or so)

import { blasAvailable } from '../src/backends/cpu-blas/support.ts';
import {
  compute,
  einsum,
  fromArray,
  type LazyArray,
  matrixTranspose,
  persist,
  shutdown,
  tensordot,
} from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { uniformData } from './memory.ts';
import { report, time } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const R = small ? 50_000 : 200_000;
const [TA, TB, TC, TN] = small ? [400, 50, 40, 300] : [1000, 50, 40, 800];
const [EB, EN] = small ? [16, 150] : [64, 300];

console.log(`cpu-blas: ${blasAvailable() === true ? 'available' : blasAvailable()}`);

const persisted = async (n: number, shape: number[], chunks: number[], seed: number) =>
  (await persist(fromArray(uniformData(n, seed), { shape, chunks }), { workers: 2 }))[0];

const tall = await persisted(R * 100, [R, 100], [R / 10, 100], 1);
const ta = await persisted(TA * TB * TC, [TA, TB, TC], [TA / 4, TB, TC], 2);
const tb = await persisted(TB * TC * TN, [TB, TC, TN], [TB, TC, TN / 4], 3);
const ea = await persisted(EB * EN * EN, [EB, EN, EN], [EB / 4, EN, EN], 4);
const eb = await persisted(EB * EN * EN, [EB, EN, EN], [EB / 4, EN, EN], 5);

const rows: [string, () => LazyArray, number][] = [
  [
    `x.T @ x, x ${R} × 100 in 10 row blocks`,
    () => matrixTranspose(tall).matmul(tall),
    2 * R * 100 * 100,
  ],
  [
    `tensordot (${TA}×${TB}×${TC}) · (${TB}×${TC}×${TN}) over two axes`,
    () =>
      tensordot(ta, tb, {
        axes: [
          [1, 2],
          [0, 1],
        ],
      }),
    2 * TA * TB * TC * TN,
  ],
  [`einsum 'bij,bjk->bik' ${EB} × ${EN}²`, () => einsum('bij,bjk->bik', ea, eb), 2 * EB * EN ** 3],
];
const ours: number[] = [];
for (const [, build] of rows) ours.push((await time(() => compute(build(), { workers: 2 }))).min);
await shutdown();

const dask = runDaskSnippet(`${PY_BEST_OF_3}
import numpy as np, dask.array as da
def arr(shape, chunks, seed):
    return da.from_array(np.random.default_rng(seed).random(shape), chunks=chunks).persist()
x = arr((${R}, 100), (${R / 10}, 100), 1)
a = arr((${TA}, ${TB}, ${TC}), (${TA / 4}, ${TB}, ${TC}), 2)
b = arr((${TB}, ${TC}, ${TN}), (${TB}, ${TC}, ${TN / 4}), 3)
p = arr((${EB}, ${EN}, ${EN}), (${EB / 4}, ${EN}, ${EN}), 4)
q = arr((${EB}, ${EN}, ${EN}), (${EB / 4}, ${EN}, ${EN}), 5)
go = lambda e: e.compute(scheduler='threads', num_workers=2)
print(t(lambda: go(x.T @ x)), t(lambda: go(da.tensordot(a, b, axes=([1, 2], [0, 1])))),
      t(lambda: go(da.einsum('bij,bjk->bik', p, q))))`);
rows.forEach(([label, , flops], i) => {
  report(label, ours[i]!, 's', dask?.[i], '≤ 1 × dask');
  const per = (s: number) => (flops / s / 2 / 1e9).toFixed(1);
  console.log(`  ${per(ours[i]!)} GFLOP/s per core${dask ? `; dask ${per(dask[i]!)}` : ''}`);
});
