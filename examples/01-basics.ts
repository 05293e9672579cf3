// The basics: create chunked arrays, do arithmetic, reduce, slice and rechunk — all lazy
// until compute(). Every result is checked against plain JavaScript loops.
//
//   npx tsx examples/01-basics.ts

import assert from 'node:assert/strict';
import { arange, compute, fromArray, ones, random, shutdown } from '../src/index.ts';

// 1. Creation: nothing is computed yet, only the graph grows.
// 0..23 as a 4 × 6 matrix; integer arguments give int64 (NumPy's default integer)
const x = arange(0, 24, 1, { chunks: 5 }).reshape([4, 6]);
const noise = random.uniform([4, 6], { seed: 42, chunks: [2, 3] });
console.log(`x: ${x}`);

// 2. Arithmetic with broadcasting, then reductions.
const y = x.mul(2).add(1); // 2x + 1
const colMeans = y.mean({ axis: 0 }); // mean of each column
const total = y.sum();
const [yv, means, tot] = await compute(y, colMeans, total);
const dense = Array.from({ length: 24 }, (_, i) => 2 * i + 1);
assert.deepEqual(yv.toArray(), dense);
for (let j = 0; j < 6; j++) {
  const expected = (dense[j]! + dense[6 + j]! + dense[12 + j]! + dense[18 + j]!) / 4;
  assert.equal(means.data[j], expected);
}
// integer sums accumulate in int64 (the Array API's default integer): a BigInt element
assert.equal(tot.dtype, 'int64');
assert.equal(tot.item(), BigInt(dense.reduce((a, b) => a + b, 0)));
console.log('column means of 2x + 1:', means.toNested());

// 3. Slicing with NumPy syntax: rows 1.., columns reversed, a new axis.
const s = await x.get('1:, ::-1, None').compute();
assert.deepEqual(s.shape, [3, 6, 1]);
assert.equal(s.get(0, 0, 0), 11n); // row 1 reversed starts at 11 (int64 elements are BigInts)
console.log('x[1:, ::-1] first row:', (await x.get('1, ::-1').compute()).toNested());

// 4. Seeded random numbers do not depend on the chunking.
const a = await noise.compute();
const b = await random.uniform([4, 6], { seed: 42, chunks: -1 }).compute();
assert.deepEqual(a.toArray(), b.toArray());

// 5. Rechunk changes the tiling, never the values.
const big = ones([1000, 1000], { chunks: [1000, 10] });
const tall = big.rechunk([10, 1000]);
assert.deepEqual(tall.chunks[0]!.length, 100);
assert.equal((await tall.sum().compute()).data[0], 1e6);

// 6. Eager data in, transposed product out.
const m = fromArray([
  [1, 2],
  [3, 4],
]);
const mm = await m.matmul(m.T).compute();
assert.deepEqual(mm.toNested(), [
  [5, 11],
  [11, 25],
]);
console.log('m @ m.T =', mm.toNested());

await shutdown();
console.log('01-basics: all results match the dense reference');
