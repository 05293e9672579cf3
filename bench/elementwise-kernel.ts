// Throughput of the compiled 'ew' loop for y = x * 2 + 1 on one core (no graph, no scheduler):
// the loop alone into a warm output, and the whole kernel (which allocates a fresh block).
//
//   npx tsx bench/elementwise-kernel.ts [n]        (default 10,000,000 elements)
//
// NOTES.md: a plain JS loop reaches 6.5–7.3 GB/s (float64) and 3.6–3.9 GB/s (float32) here.

import { allocate, type DType } from '../src/array/dtype.ts';
import { NDArray } from '../src/array/ndarray.ts';
import { compileLoop, evaluateExpr } from '../src/backends/cpu-js/elementwise/elementwise.ts';
import type { Expr } from '../src/backends/cpu-js/elementwise/expr.ts';
import { report, time } from './timing.ts';

const n = Number(process.argv[2] ?? 10_000_000);

for (const dtype of ['float64', 'float32'] as DType[]) {
  const x = allocate(dtype, n);
  for (let i = 0; i < n; i++) x[i] = i % 1000;
  const expr: Expr = {
    op: 'add',
    args: [{ op: 'multiply', args: [{ in: 0 }, { const: 2 }], dtype }, { const: 1 }],
    dtype,
  };
  const bytes = 2 * x.byteLength; // read x, write y
  const loop = compileLoop({ expr, inputDtypes: [dtype], modes: ['c'], outDtype: dtype });
  const out = allocate(dtype, n);
  const warm = await time(() => loop(out, [x], [n], [[1]]), 5);
  report(`ew loop x*2+1 ${dtype} (warm output)`, bytes / warm.min / 1e9, 'GB/s');
  const block = new NDArray(x, [n], dtype);
  const whole = await time(() => evaluateExpr([block], { expr, dtype }), 5);
  report(`ew kernel x*2+1 ${dtype} (fresh output block)`, bytes / whole.min / 1e9, 'GB/s');
}
