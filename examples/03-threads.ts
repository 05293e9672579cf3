// A multi-GB pipeline on the worker pool: 2 GiB of random numbers that never exist at once,
// an elementwise transform and several reductions, with a progress callback; the results
// are checked bit for bit against the inline ('sync') scheduler.
//
//   npx tsx examples/03-threads.ts            (TESSERA_EXAMPLE_GIB=0.5 for a quick run)

import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { compute, type NDArray, type ProgressEvent, random } from '../src/index.ts';

const gib = Number(process.env.TESSERA_EXAMPLE_GIB ?? 2);
const cols = 16384;
const rows = Math.round((gib * 2 ** 30) / 8 / cols / 1024) * 1024;

// 1. The pipeline: nothing runs yet. Chunks of 1024 × 8192 float64 (64 MiB).
const x = random.uniform([rows, cols], { seed: 42, chunks: [1024, 8192] });
const y = x.mul(2).sub(1); // uniform on [-1, 1)
const outputs = {
  mean: y.mean(),
  std: y.std(),
  rowMaxAbs: y.abs().max({ axis: 1 }),
  colEnergy: y.mul(y).sum({ axis: 0 }),
  tail: y.greater(0.99).sum(),
};
const names = Object.keys(outputs) as (keyof typeof outputs)[];
const arrays = names.map((k) => outputs[k]);
console.log(`${rows} × ${cols} float64: ${((rows * cols * 8) / 2 ** 30).toFixed(2)} GiB virtual`);

// 2. On the thread pool (the default scheduler), reporting progress about every 10%.
let shown = 0;
const progress = (e: ProgressEvent): void => {
  if (e.done === e.total || e.done / e.total >= shown + 0.1) {
    shown = e.done / e.total;
    console.log(
      `  ${e.done}/${e.total} tasks, ${(e.elapsedMs / 1000).toFixed(1)} s` +
        (e.done < e.total ? `, about ${(e.etaMs / 1000).toFixed(1)} s left` : ''),
    );
  }
};
let t0 = performance.now();
const onThreads = (await compute(arrays[0]!, arrays[1]!, ...arrays.slice(2), {
  progress,
})) as NDArray[];
const threadsSeconds = (performance.now() - t0) / 1000;
console.log(`threads (${availableParallelism()} workers): ${threadsSeconds.toFixed(2)} s`);

// 3. The same graph inline on this thread: identical bits, whatever order tasks finished in.
t0 = performance.now();
const onSync = (await compute(arrays[0]!, arrays[1]!, ...arrays.slice(2), {
  scheduler: 'sync',
})) as NDArray[];
const syncSeconds = (performance.now() - t0) / 1000;
console.log(
  `sync: ${syncSeconds.toFixed(2)} s (${(syncSeconds / threadsSeconds).toFixed(2)}× the pool's time)`,
);

names.forEach((name, i) => {
  const a = onThreads[i]!;
  const b = onSync[i]!;
  assert.deepEqual(a.shape, b.shape, name);
  for (let k = 0; k < a.size; k++) assert.ok(Object.is(a.data[k], b.data[k]), `${name}[${k}]`);
});

// 4. And the values are what a uniform distribution on [-1, 1) should give.
const [mean, std, rowMaxAbs, colEnergy, tail] = onThreads as [
  NDArray,
  NDArray,
  NDArray,
  NDArray,
  NDArray,
];
const meanV = mean.data[0] as number;
const stdV = std.data[0] as number;
const tailV = Number(tail.data[0]); // a count: an integer dtype
assert.ok(Math.abs(meanV) < 1e-3, `mean ${meanV}`);
assert.ok(Math.abs(stdV - 1 / Math.sqrt(3)) < 1e-3, `std ${stdV}`);
assert.equal(rowMaxAbs.shape[0], rows);
for (const v of rowMaxAbs.data as Float64Array) assert.ok(v > 0.99 && v <= 1);
for (const v of colEnergy.data as Float64Array) assert.ok(Math.abs(v / rows - 1 / 3) < 0.05);
const expectedTail = 0.005 * rows * cols;
assert.ok(Math.abs(tailV - expectedTail) < 0.05 * expectedTail, `tail ${tailV}`);
console.log(
  `mean ${meanV.toExponential(2)}, std ${stdV.toFixed(5)}, ` +
    `${tailV} values above 0.99; threads and sync agree bit for bit`,
);
// No shutdown(): idle workers never keep the process alive.
