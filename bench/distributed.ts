// The 'distributed' scheduler (BullMQ + Redis, one `tessera worker` of 2 threads on this
// machine) against the thread pool and against Dask's distributed scheduler (a LocalCluster
// of one worker process with 2 threads), on three shapes of work: compute-bound fused blocks,
// blocks that move between tasks, and many tiny tasks.
//
//   npm run bench -- distributed      (starts its own redis-server; skipped without one)

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  compute,
  configure,
  ones,
  random,
  shutdown,
  startDistributedWorker,
} from '../src/index.ts';
import { PY_BEST_OF_3, runDaskSnippet } from './dask.ts';
import { report, time } from './timing.ts';

const PORT = 6393;
if (spawnSync('redis-server', ['--version']).status !== 0) {
  console.log('redis-server is not installed: distributed benchmark skipped');
  process.exit(0);
}
const redis = spawn('redis-server', ['--port', String(PORT), '--save', '', '--appendonly', 'no'], {
  stdio: 'ignore',
});
await new Promise((r) => setTimeout(r, 300));
configure({ redis: `redis://127.0.0.1:${PORT}` });
// jobs are signed: its worker and its computes share a secret made for this run
process.env.TESSERA_SECRET ??= randomBytes(32).toString('hex');
const worker = await startDistributedWorker({ workers: 2 });

const cases = [
  [
    '(x*2+1).sum(), 8000² in 1000² chunks',
    () => random.uniform([8000, 8000], { seed: 1, chunks: 1000 }).mul(2).add(1).sum(),
  ],
  [
    '(x + x.T).sum(0), 4000² in 500² chunks',
    () => {
      const x = random.uniform([4000, 4000], { seed: 1, chunks: 500 });
      return x.add(x.T).sum({ axis: 0 });
    },
  ],
  ['(ones(2000, chunks=1) + 1).sum()', () => ones([2000], { chunks: 1 }).add(1).sum()],
] as const;

const ours: { distributed: number; threads: number }[] = [];
for (const [, build] of cases) {
  const distributed = await time(() => compute(build(), { scheduler: 'distributed' }));
  const threads = await time(() => compute(build(), { scheduler: 'threads', workers: 2 }));
  ours.push({ distributed: distributed.min, threads: threads.min });
}
await shutdown();
await worker.close();
redis.kill();

const dask = runDaskSnippet(`${PY_BEST_OF_3}
import time, dask.array as da
from dask.distributed import Client, LocalCluster
cluster = LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None)
client = Client(cluster)
def xt():
    x = da.random.random((4000, 4000), chunks=500)
    return (x + x.T).sum(axis=0).compute()
print(t(lambda: (da.random.random((8000, 8000), chunks=1000) * 2 + 1).sum().compute()),
      t(xt),
      t(lambda: (da.ones(2000, chunks=1) + 1).sum().compute()))
client.close(); cluster.close()
`);

console.log(
  "scheduler 'distributed', one worker of 2 threads (dask: LocalCluster, 1 worker × 2 threads)",
);
cases.forEach(([label], i) => {
  report(label, ours[i]!.distributed, 's', dask?.[i]);
  console.log(`  same on 'threads': ${ours[i]!.threads.toPrecision(3)} s`);
});
