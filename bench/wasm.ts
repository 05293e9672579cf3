// cpu-wasm kernels against cpu-js on one thread (no graph, no scheduler): (a) an elementwise
// chain on 10M elements, float32 and float64; (b) matmul of 2000² float64 as one block and
// as 1000² blocks, in GFLOP/s per core, next to NumPy's (one BLAS thread) on this machine.
//
//   npx tsx bench/wasm.ts          knobs: BENCH_WASM_N (10,000,000), BENCH_WASM_M (2000)
//
// Targets: elementwise ≥ 3 × cpu-js for float32, ≥ 1.3 × for float64.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { allocate, type DType, type NumberArray } from '../src/array/dtype.ts';
import { NDArray } from '../src/array/ndarray.ts';
import { compileLoop, evaluateExpr } from '../src/backends/cpu-js/elementwise/elementwise.ts';
import { ewReducePartial } from '../src/backends/cpu-js/elementwise/ew-reduce.ts';
import type { Expr } from '../src/backends/cpu-js/elementwise/expr.ts';
import { matmulBlocks } from '../src/backends/cpu-js/linalg/matmul.ts';
import {
  directOutput,
  evaluateExprWasm,
  runDirect,
  wasmLoop,
} from '../src/backends/cpu-wasm/ew-kernel.ts';
import { ewReduceWasm } from '../src/backends/cpu-wasm/ew-reduce-kernel.ts';
import { matmulWasm } from '../src/backends/cpu-wasm/matmul-kernel.ts';
import type { KernelContext } from '../src/kernels/types.ts';
import { knob } from './memory.ts';
import { time } from './timing.ts';

const small = process.env.BENCH_SMALL === '1';
const n = knob('BENCH_WASM_N', small ? 1_000_000 : 10_000_000);
const M = knob('BENCH_WASM_M', small ? 800 : 2000);
const fmt = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toFixed(2));

/** x * 2 + 1, and a longer chain: sqrt(abs(x * 2 + 1)) * x - x / 3 (one fused expression). */
function chains(d: DType): [string, Expr][] {
  const x: Expr = { in: 0 };
  const node = (op: string, ...args: Expr[]): Expr => ({ op, args, dtype: d });
  const axpb = node('add', node('multiply', x, { const: 2 }), { const: 1 });
  const long = node(
    'subtract',
    node('multiply', node('sqrt', node('abs', axpb)), x),
    node('divide', x, { const: 3 }),
  );
  return [
    ['x*2+1', axpb],
    ['sqrt(abs(x*2+1))*x-x/3', long],
  ];
}

console.log(
  `(a) elementwise on ${n.toLocaleString('en')} elements, one thread (read + write GB/s)`,
);
for (const dtype of ['float32', 'float64'] as DType[]) {
  const x = allocate(dtype, n);
  for (let i = 0; i < n; i++) x[i] = (i % 1000) - 499.5;
  const block = new NDArray(x, [n], dtype);
  const bytes = 2 * x.byteLength;
  for (const [label, expr] of chains(dtype)) {
    const jsLoop = compileLoop({ expr, inputDtypes: [dtype], modes: ['c'], outDtype: dtype });
    const wasm = wasmLoop(expr, [dtype], [false], dtype);
    if (wasm === null) throw new Error(`bench: no WASM loop for ${label}`);
    const out = allocate(dtype, n);
    const layout = { shape: [n], strides: [[1]], modes: ['c'] };
    const js = await time(() => jsLoop(out, [x], [n], [[1]]), 7);
    // cpu-wasm writes a large output in place in a WASM memory of its own: reuse one here
    const target = directOutput(dtype, n, 1);
    const w = await time(() => runDirect(wasm, [block], layout, [false], target), 7);
    const goal = dtype === 'float32' ? 3 : 1.3;
    console.log(
      `ew ${label} ${dtype} (warm output): cpu-js ${fmt(bytes / js.min / 1e9)} GB/s | ` +
        `cpu-wasm ${fmt(bytes / w.min / 1e9)} GB/s | ratio ${(js.min / w.min).toFixed(2)} | target ≥ ${goal}`,
    );
    const params = { expr, dtype };
    const jsK = await time(() => evaluateExpr([block], params), 5);
    const wK = await time(() => evaluateExprWasm([block], params), 5);
    console.log(
      `ew ${label} ${dtype} (kernel, fresh output block; first-touch page faults included): cpu-js ${fmt(bytes / jsK.min / 1e9)} GB/s | ` +
        `cpu-wasm ${fmt(bytes / wK.min / 1e9)} GB/s | ratio ${(jsK.min / wK.min).toFixed(2)}`,
    );
  }
}

console.log(`\n(a2) fused sum(x*2+1) ('ew-reduce') over 2500×4000 read through a view, one thread`);
for (const dtype of ['float32', 'float64'] as DType[]) {
  const x = allocate(dtype, 2500 * 4000);
  for (let i = 0; i < x.length; i++) x[i] = (i % 1000) / 7;
  const block = new NDArray(x, [2500, 4000], dtype);
  const expr = chains(dtype)[0]![1];
  const view = { start: [0, 0], step: [1, 1], count: [2500, 4000] };
  const p = {
    expr,
    dtype,
    views: [view],
    reduce: { op: 'sum' as const, axes: [0, 1], dtype: 'float64' as DType },
  };
  const ctx = {} as KernelContext;
  const js = await time(() => ewReducePartial([block], p), 5);
  const w = await time(() => ewReduceWasm([block], p, ctx), 5);
  console.log(
    `ew-reduce sum(x*2+1) ${dtype}: cpu-js ${fmt(x.byteLength / js.min / 1e9)} GB/s | ` +
      `cpu-wasm ${fmt(x.byteLength / w.min / 1e9)} GB/s | ratio ${(js.min / w.min).toFixed(2)}`,
  );
}

console.log(`\n(b) matmul ${M}×${M} float64, one thread (GFLOP/s per core)`);
const rand = (rows: number, cols: number): NDArray => {
  const d = allocate('float64', rows * cols);
  for (let i = 0; i < d.length; i++) d[i] = Math.random();
  return new NDArray(d, [rows, cols], 'float64');
};
const p = { dtype: 'float64' as DType, aVec: false, bVec: false };
const a = rand(M, M);
const b = rand(M, M);
const flops = 2 * M ** 3;
const one = await time(() => matmulWasm([a, b], p), 2);
console.log(`cpu-wasm one ${M}² block: ${fmt(flops / one.min / 1e9)} GFLOP/s`);
// the same product as 2 × 2 output blocks of M/2, each summing two block products
const h = M / 2;
const quarter = (x: NDArray, i: number, j: number): NDArray => {
  const q = allocate('float64', h * h);
  for (let r = 0; r < h; r++)
    q.set(
      (x.data as NumberArray).subarray((i * h + r) * M + j * h, (i * h + r) * M + j * h + h),
      r * h,
    );
  return new NDArray(q, [h, h], 'float64');
};
const A = [0, 1].map((i) => [0, 1].map((j) => quarter(a, i, j)));
const B = [0, 1].map((i) => [0, 1].map((j) => quarter(b, i, j)));
const blocked = await time(() => {
  for (let i = 0; i < 2; i++)
    for (let j = 0; j < 2; j++) matmulWasm([A[i]![0]!, B[0]![j]!, A[i]![1]!, B[1]![j]!], p);
}, 2);
console.log(
  `cpu-wasm in ${h}² blocks (8 block products): ${fmt(flops / blocked.min / 1e9)} GFLOP/s`,
);
const jsOne = await time(() => matmulBlocks([A[0]![0]!, B[0]![0]!], p), 1);
console.log(`cpu-js one ${h}² block product: ${fmt((2 * h ** 3) / jsOne.min / 1e9)} GFLOP/s`);

const py = '/usr/bin/python3';
const script = `
import time, numpy as np
n = ${M}; h = n // 2
a = np.random.rand(n, n); b = np.random.rand(n, n)
def best(f, reps=3):
    f(); t = []
    for _ in range(reps):
        t0 = time.perf_counter(); f(); t.append(time.perf_counter() - t0)
    return min(t)
print(2 * n**3 / best(lambda: a @ b) / 1e9)
A = [[a[i*h:(i+1)*h, j*h:(j+1)*h].copy() for j in range(2)] for i in range(2)]
B = [[b[i*h:(i+1)*h, j*h:(j+1)*h].copy() for j in range(2)] for i in range(2)]
print(2 * n**3 / best(lambda: [A[i][0] @ B[0][j] + A[i][1] @ B[1][j] for i in range(2) for j in range(2)]) / 1e9)
`;
const env = {
  ...process.env,
  OMP_NUM_THREADS: '1',
  OPENBLAS_NUM_THREADS: '1',
  MKL_NUM_THREADS: '1',
};
const r = existsSync(py) ? spawnSync(py, ['-c', script], { env, encoding: 'utf8' }) : undefined;
if (r === undefined || r.status !== 0) {
  console.log(
    `numpy: skipped (${r === undefined ? `${py} not found` : r.stderr.trim().split('\n').pop()})`,
  );
} else {
  const [np1, np4] = r.stdout.trim().split('\n').map(Number);
  console.log(
    `numpy (1 BLAS thread) one ${M}² block: ${fmt(np1!)} GFLOP/s | cpu-wasm/numpy ${(flops / one.min / 1e9 / np1!).toFixed(2)}`,
  );
  console.log(
    `numpy (1 BLAS thread) in ${h}² blocks: ${fmt(np4!)} GFLOP/s | cpu-wasm/numpy ${(flops / blocked.min / 1e9 / np4!).toFixed(2)}`,
  );
}
