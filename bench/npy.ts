// fromNpy: sums over a .npy file in the page cache, read block by block by the workers,
// against Dask reading the same file through np.load(mmap_mode='r') + da.from_array.
//
//   npm run bench -- npy      knobs: BENCH_NPY_N (6000: an N × N float64 file)

import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'npyjs';
import { compute, fromNpy, shutdown } from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { knob, uniformData } from './memory.ts';
import { report, time } from './timing.ts';

const N = knob('BENCH_NPY_N', process.env.BENCH_SMALL === '1' ? 2000 : 6000);
const path = join(tmpdir(), `tessera-bench-${process.pid}.npy`);
writeFileSync(path, new Uint8Array(dump(uniformData(N * N), [N, N])));
const chunkings = [
  [1000, 1000],
  [N, 1000],
  [500, N],
] as const;

const ours: number[] = [];
for (const chunks of chunkings) {
  const build = () => fromNpy(path, { chunks: [...chunks] }).sum();
  ours.push((await time(() => compute(build(), { scheduler: 'threads', workers: 2 }))).min);
}
await shutdown();

const dask = runDaskSnippet(`${PY_BEST_OF_3}
import numpy as np, dask.array as da
x = np.load('${path}', mmap_mode='r')
print(*[t(lambda c=c: da.from_array(x, chunks=c).sum().compute(scheduler='threads', num_workers=2))
        for c in [${chunkings.map((c) => `(${c.join(', ')})`).join(', ')}]])
`);
rmSync(path);

console.log(
  `fromNpy(${N}² float64, ${((N * N * 8) / 1e9).toFixed(2)} GB in the page cache).sum(), 2 workers`,
);
for (let i = 0; i < chunkings.length; i++) {
  report(`chunks ${chunkings[i]!.join(' × ')}`, ours[i]!, 's', dask?.[i]);
}
