// cpu-wasm 'ew' against cpu-js 'ew': bit for bit (NaN payloads aside) on random expressions
// over all ops, float32 and float64 inputs, broadcasting (c, s and g modes), edge values.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DType } from '../../../src/array/dtype.ts';
import { NDArray, ndarray } from '../../../src/array/ndarray.ts';
import {
  evaluateExpr,
  simplifyLayout,
} from '../../../src/backends/cpu-js/elementwise/elementwise.ts';
import type { EwParams, Expr } from '../../../src/backends/cpu-js/elementwise/expr.ts';
import { evaluateExprWasm, wasmLoop } from '../../../src/backends/cpu-wasm/ew-kernel.ts';
import { unsupportedNode } from '../../../src/backends/cpu-wasm/support.ts';
import {
  ALL_OPS,
  BOOLEAN,
  COMPARISONS,
  fillRandom,
  prng,
  randomExpr,
  randomShapes,
  UNARY,
} from './random-expr.ts';

/** The first index where the two disagree (Object.is: -0 ≠ +0, NaN = NaN), or -1. */
function firstMismatch(a: NDArray, b: NDArray): number {
  for (let i = 0; i < a.size; i++) if (!Object.is(a.data[i], b.data[i])) return i;
  return -1;
}

function checkAgainstCpuJs(inputs: NDArray[], params: EwParams): void {
  // the generator never makes what canRun declines (copysign of a computed sign)
  expect(unsupportedNode(params.expr)).toBeUndefined();
  const want = evaluateExpr(inputs, params);
  const got = evaluateExprWasm(inputs, params);
  expect(got.dtype).toBe(want.dtype);
  expect(got.shape).toEqual(want.shape);
  const i = firstMismatch(want, got);
  if (i >= 0) {
    throw new Error(
      `mismatch at ${i}: cpu-js ${want.data[i]}, cpu-wasm ${got.data[i]}; expr ${JSON.stringify(params.expr)}`,
    );
  }
}

const I = (k: number): Expr => ({ in: k });
const C = (v: number): Expr => ({ const: v });
const node = (op: string, dtype: DType, ...args: Expr[]): Expr => ({ op, args, dtype });

describe('cpu-wasm ew: agrees with cpu-js bit for bit', () => {
  it.each(['float32', 'float64'] as DType[])('every op alone on edge values (%s)', (d) => {
    const r = prng(7);
    const x = new NDArray(fillRandom(r, d, 5003), [5003], d);
    const y = new NDArray(fillRandom(r, d, 5003), [5003], d);
    for (const op of ALL_OPS) {
      // unary ops, the unary boolean ops and astype take one argument
      const binary = ![...UNARY, 'logicalNot', 'isnan', 'isfinite', 'astype'].includes(op);
      const args = op === 'where' ? [I(0), I(0), I(1)] : binary ? [I(0), I(1)] : [I(0)];
      const nodeDtype: DType = [...COMPARISONS, ...BOOLEAN].includes(op) ? 'bool' : d;
      const e = node(op, nodeDtype, ...args);
      checkAgainstCpuJs([x, y], {
        expr: nodeDtype === 'bool' ? node('astype', d, e) : e,
        dtype: d,
      });
      // with a weak scalar on the right
      if (binary && op !== 'where') {
        const es = node(op, nodeDtype, I(0), C(0.1));
        checkAgainstCpuJs([x], {
          expr: nodeDtype === 'bool' ? node('astype', d, es) : es,
          dtype: d,
        });
      }
    }
  });

  it.each(['float32', 'float64', 'mixed'])(
    'random expressions and broadcast shapes (%s)',
    (kind) => {
      fc.assert(
        fc.property(fc.integer(), (seed) => {
          const r = prng(seed);
          const count = 1 + Math.floor(r() * 3);
          const dtypes = Array.from(
            { length: count },
            (): DType => (kind === 'mixed' ? (r() < 0.5 ? 'float32' : 'float64') : (kind as DType)),
          );
          const expr = randomExpr(r, dtypes, 1 + Math.floor(r() * 5));
          const { ins } = randomShapes(r, count);
          const blocks = ins.map(
            (s, k) =>
              new NDArray(
                fillRandom(
                  r,
                  dtypes[k]!,
                  s.reduce((a, b) => a * b, 1),
                ),
                s,
                dtypes[k]!,
              ),
          );
          const outDtype: DType =
            kind === 'mixed' ? (r() < 0.5 ? 'float32' : 'float64') : (kind as DType);
          checkAgainstCpuJs(blocks, { expr, dtype: outDtype });
        }),
        { numRuns: 150 },
      );
    },
  );

  it('covers the strided (g) path with long rows and tiles across row ends', () => {
    const r = prng(3);
    const a = new NDArray(fillRandom(r, 'float64', 3 * 5000), [3, 5000], 'float64');
    const col = new NDArray(fillRandom(r, 'float32', 3), [3, 1], 'float32');
    const row = new NDArray(fillRandom(r, 'float64', 5000), [5000], 'float64');
    const layout = simplifyLayout([3, 5000], [a.shape, col.shape, row.shape]);
    expect(layout.modes).toEqual(['c', 'g', 'g']);
    const e = node('add', 'float64', node('multiply', 'float64', I(0), I(1)), I(2));
    checkAgainstCpuJs([a, col, row], { expr: e, dtype: 'float64' });
  });

  it.each([
    ['float32', [65536 + 3]],
    ['float64', [70001]],
    ['float32', [257, 301]],
    ['float64', [3, 40000]],
  ] as [DType, number[]][])(
    'writes large outputs in place in a WASM memory of their own (%s %j)',
    (d, shape) => {
      const r = prng(11);
      const size = shape.reduce((p, q) => p * q, 1);
      const a = new NDArray(fillRandom(r, d, size), shape, d);
      const rowShape = [shape[shape.length - 1]!];
      const row = new NDArray(fillRandom(r, 'float64', rowShape[0]!), rowShape, 'float64');
      // contiguous (c) and, with a broadcast row, strided (g) rows that end off a tile
      const inputs = shape.length === 1 ? [a] : [a, row];
      const e =
        shape.length === 1
          ? node('add', d, node('multiply', d, I(0), C(2)), C(1))
          : node('subtract', d, node('sqrt', d, node('abs', d, I(0))), I(1));
      checkAgainstCpuJs(inputs, { expr: e, dtype: d });
      const got = evaluateExprWasm(inputs, { expr: e, dtype: d });
      expect(got.data.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(got.data.byteOffset).toBe(0);
      expect(got.data.length).toBe(size);
    },
  );

  it('compiles a WASM loop for float expressions and declines integer ones', () => {
    const e = node('add', 'float32', I(0), C(1));
    expect(wasmLoop(e, ['float32'], [false], 'float32')).not.toBeNull();
    expect(wasmLoop(node('add', 'int32', I(0), C(1)), ['int32'], [false], 'int32')).toBeNull();
  });

  it('delegates integer blocks to cpu-js', () => {
    const x = ndarray([1, 2, 2147483647], [3], 'int32');
    const got = evaluateExprWasm([x], { expr: node('add', 'int32', I(0), C(1)), dtype: 'int32' });
    expect(got.toArray()).toEqual([2, 3, -2147483648]);
  });

  it('handles constant-only expressions, 0-d blocks and empty blocks as cpu-js', () => {
    const c = node('multiply', 'float32', C(0.1), C(3));
    checkAgainstCpuJs([], { expr: c, dtype: 'float32' });
    const s = new NDArray(Float64Array.of(-2.5), [], 'float64');
    checkAgainstCpuJs([s], { expr: node('round', 'float64', I(0)), dtype: 'float64' });
    const empty = new NDArray(new Float64Array(0), [0, 3], 'float64');
    checkAgainstCpuJs([empty], { expr: node('add', 'float64', I(0), C(1)), dtype: 'float64' });
  });
});
