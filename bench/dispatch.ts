// Dispatch figures: building an expression of 1,000 operations (every layer asks the cascade
// which backend runs it), and backendFor's cost per call. No Dask counterpart.
//
//   npx tsx bench/dispatch.ts

import { add, backendFor, fromArray, listBackends, multiply, ndarray, sum } from '../src/index.ts';
import { time } from './timing.ts';

/** 1,000 elementwise operations and reductions chained on a 2-block array. */
function build1000(): unknown {
  const x = fromArray(new Float64Array(64), { chunks: 32 });
  let y = x;
  for (let i = 0; i < 500; i++) y = add(multiply(y, 1.0001), i % 7);
  return sum(y);
}

const backends = listBackends()
  .map((b) => b.name)
  .join(', ');
const t = await time(() => build1000(), 9);
console.log(
  `build 1,000 operations (backends: ${backends}): ${(t.median * 1e3).toFixed(2)} ms median, ${(t.min * 1e3).toFixed(2)} ms min`,
);

const x = fromArray(new Float64Array(8), { chunks: 4 });
const nd = ndarray(new Float64Array(4), [4]);
const n = 1_000_000;
backendFor(x, nd, 3);
const t0 = performance.now();
for (let i = 0; i < n; i++) backendFor(x, nd, 3);
const per = ((performance.now() - t0) / n) * 1e6; // ms → ns
console.log(`backendFor(lazy, ndarray, number): ${per.toFixed(0)} ns per call`);
