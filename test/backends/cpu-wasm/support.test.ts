// canRun / shouldRun of cpu-wasm: which operations it takes, which it declines or defers,
// and the reasons it gives.

import { describe, expect, it } from 'vitest';
import type { DType } from '../../../src/array/dtype.ts';
import type { Expr } from '../../../src/backends/cpu-js/elementwise/expr.ts';
import { kernels } from '../../../src/backends/cpu-wasm/kernels.ts';
import {
  canRun,
  IMPLEMENTED,
  shouldRun,
  wasmAvailable,
} from '../../../src/backends/cpu-wasm/support.ts';
import type { OpMeta } from '../../../src/dispatch/types.ts';

const x = (dtype: DType, chunks: number[][]) => ({
  dtype,
  chunks,
  device: 'cpu',
  backend: 'cpu-js',
});
const add = (dtype: DType): Expr => ({ op: 'add', args: [{ in: 0 }, { const: 1 }], dtype });
function meta(
  op: string,
  dtype: DType,
  params: unknown,
  chunks: number[][],
  blockElements: number,
  inputs = [x(dtype, chunks)],
): OpMeta {
  return { op, dtype, params, chunks, inputs, blockElements };
}

describe('cpu-wasm support', () => {
  it('is available on Node 20 and implements what kernels.ts exports', () => {
    expect(wasmAvailable()).toBe(true);
    expect([...IMPLEMENTED].sort()).toEqual(Object.keys(kernels).sort());
  });

  it.each([
    ['ew', meta('ew', 'float64', { expr: add('float64'), dtype: 'float64' }, [[4096]], 4096), true],
    [
      'ew',
      meta('ew', 'int32', { expr: add('int32'), dtype: 'int32' }, [[4096]], 4096),
      "cpu-wasm: 'ew' on int32 is not implemented",
    ],
    [
      'ew',
      meta(
        'ew',
        'float64',
        {
          expr: {
            op: 'astype',
            args: [{ op: 'add', args: [{ in: 0 }, { const: 1 }], dtype: 'int32' }],
            dtype: 'float64',
          },
          dtype: 'float64',
        },
        [[9]],
        9,
      ),
      "cpu-wasm: 'ew' with int32 intermediates ('add') is not implemented",
    ],
    [
      'ew',
      meta(
        'ew',
        'float32',
        { expr: { op: 'nextafter', args: [{ in: 0 }], dtype: 'float32' }, dtype: 'float32' },
        [[9]],
        9,
      ),
      "cpu-wasm: 'ew' with op 'nextafter' is not implemented",
    ],
    [
      'reduce-partial',
      meta('reduce-partial', 'float64', { op: 'var', axes: [0] }, [[9]], 1),
      "cpu-wasm: 'reduce-partial' var is not implemented",
    ],
    [
      'reduce-partial',
      meta('reduce-partial', 'float64', { op: 'sum', axes: [0], castTo: 'float32' }, [[9]], 1),
      "cpu-wasm: 'reduce-partial' with castTo float32 is not implemented",
    ],
    [
      'transpose',
      meta('transpose', 'float64', {}, [[9]], 9),
      "cpu-wasm: 'transpose' is not implemented",
    ],
    [
      'matmul',
      meta('matmul', 'uint8', {}, [[9]], 9),
      "cpu-wasm: 'matmul' on uint8 is not implemented",
    ],
    [
      'ew',
      meta(
        'ew',
        'float16',
        { expr: { op: 'add', args: [{ in: 0 }, { in: 0 }], dtype: 'float16' }, dtype: 'float16' },
        [[4096]],
        4096,
      ),
      "cpu-wasm: 'ew' on float16 is not implemented (cpu-js decodes its bits)",
    ],
    [
      'ew',
      meta(
        'ew',
        'float32',
        { expr: { op: 'astype', args: [{ in: 0 }], dtype: 'float32' }, dtype: 'float32' },
        [[4096]],
        4096,
        [x('float16', [[4096]])],
      ),
      "cpu-wasm: 'ew' on float16 is not implemented (cpu-js decodes its bits)",
    ],
  ])('canRun(%s) → %s', (op, m, want) => {
    expect(canRun(op, m)).toBe(want);
  });

  it.each([
    [
      'ew',
      meta('ew', 'float64', { expr: add('float64'), dtype: 'float64' }, [[4096]], 4096),
      "cpu-wasm: float64 'ew' is faster on cpu-js (memory-bound; pooled output memory)",
    ],
    [
      'ew',
      // a float32 output from a float64 input is memory-bound the same way
      meta('ew', 'float32', { expr: add('float32'), dtype: 'float32' }, [[4096]], 4096, [
        x('float64', [[4096]]),
      ]),
      "cpu-wasm: float64 'ew' is faster on cpu-js (memory-bound; pooled output memory)",
    ],
    [
      'ew',
      meta('ew', 'float64', { expr: add('float64'), dtype: 'float64' }, [[1 << 20]], 1 << 20),
      "cpu-wasm: float64 'ew' is faster on cpu-js (memory-bound; pooled output memory)",
    ],
    ['ew', meta('ew', 'float32', { expr: add('float32'), dtype: 'float32' }, [[4096]], 4096), true],
    [
      'ew',
      meta('ew', 'float32', {}, [[100]], 100),
      "cpu-wasm: 'ew' blocks of 100 elements are faster on cpu-js (< 1024)",
    ],
    ['ew', meta('ew', 'float32', {}, [[1 << 20]], 1 << 20), true],
    [
      'reduce-partial',
      meta('reduce-partial', 'float32', { op: 'sum', axes: [0] }, [[1 << 20]], 1),
      true,
    ],
    [
      'reduce-partial',
      meta('reduce-partial', 'float64', { op: 'sum', axes: [0] }, [[1 << 20]], 1),
      "cpu-wasm: 'reduce-partial' sum on float64 is faster on cpu-js",
    ],
    [
      'reduce-partial',
      meta('reduce-partial', 'float64', { op: 'max', axes: [0] }, [[100, 100], [1000]], 1000),
      "cpu-wasm: 'reduce-partial' runs of 100 elements (axes not innermost) are faster on cpu-js",
    ],
    [
      'reduce-partial',
      meta('reduce-partial', 'float32', { op: 'min', axes: [1] }, [[100], [100]], 100),
      "cpu-wasm: 'reduce-partial' runs of 100 elements are faster on cpu-js",
    ],
    [
      'matmul',
      meta('matmul', 'float64', {}, [[16], [16]], 256, [
        x('float64', [[16], [16]]),
        x('float64', [[16], [16]]),
      ]),
      "cpu-wasm: 'matmul' blocks of 16×16×16 are faster on cpu-js (< 32³ multiply-adds)",
    ],
    [
      'matmul',
      meta('matmul', 'float64', {}, [[500], [500]], 250000, [
        x('float64', [[500], [500]]),
        x('float64', [[500], [500]]),
      ]),
      true,
    ],
  ])('shouldRun(%s) → %s', (op, m, want) => {
    expect(shouldRun(op, m)).toBe(want);
  });
  const fusedSum = (d: DType, op: string) => ({
    expr: add(d),
    dtype: d,
    views: [null],
    reduce: { op, axes: [0, 1], dtype: 'float64' },
  });
  it.each([
    [
      meta('ew-reduce', 'float64', fusedSum('float64', 'sum'), [[1000], [1000]], 1),
      true,
      "cpu-wasm: 'ew-reduce' on float64 is faster on cpu-js (it sums in place)",
    ],
    [
      meta('ew-reduce', 'float32', fusedSum('float32', 'sum'), [[100], [100]], 1),
      true,
      "cpu-wasm: 'ew-reduce' blocks of 10000 elements are faster on cpu-js (< 65536)",
    ],
    [meta('ew-reduce', 'float32', fusedSum('float32', 'mean'), [[1000], [1000]], 1), true, true],
    [
      meta('ew-reduce', 'float32', fusedSum('float32', 'max'), [[1000], [1000]], 1),
      "cpu-wasm: 'ew-reduce' max is not implemented",
      true,
    ],
  ])('ew-reduce: canRun / shouldRun (%#)', (m, can, should) => {
    expect(canRun('ew-reduce', m)).toBe(can);
    expect(shouldRun('ew-reduce', m)).toBe(should);
  });
});
