// The WebGPU 'ew' kernel against the CPU's evaluateExpr: every op over each GPU dtype, fused
// chains, weak scalars and broadcasting, on random shapes (skipped without an adapter).

import { describe, expect, it } from 'vitest';
import { allocate, type DType, type NumberArray, resultType } from '../../../src/array/dtype.ts';
import { NDArray, shapeSize } from '../../../src/array/ndarray.ts';
import { evaluateExpr } from '../../../src/backends/cpu-js/elementwise/elementwise.ts';
import type { EwParams, Expr } from '../../../src/backends/cpu-js/elementwise/expr.ts';
import { expectClose, hasGpu, rng, useGpu } from './tier.ts';

const rand = rng(7);

function randomShape(): number[] {
  const nd = 1 + Math.floor(rand() * 3);
  return Array.from({ length: nd }, () => 1 + Math.floor(rand() * 13));
}

/** Random values of a dtype: quarters in [-8, 8] for float32 (so boundaries are exact). */
function randomArray(dtype: DType, shape: number[], kind: 'any' | 'exponent' = 'any'): NDArray {
  const n = shapeSize(shape);
  const data = allocate(dtype, n);
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (kind === 'exponent') data[i] = Math.floor(r * 5);
    else if (dtype === 'float32') data[i] = Math.round((r * 16 - 8) * 4) / 4;
    else if (dtype === 'int32') data[i] = Math.floor(r * 41) - 20;
    else if (dtype === 'uint32')
      data[i] = i % 5 === 0 ? Math.floor(r * 2 ** 32) : Math.floor(r * 40);
    else if (dtype === 'uint8') data[i] = Math.floor(r * 256);
    else data[i] = r < 0.5 ? 1 : 0;
  }
  return new NDArray(data, shape, dtype);
}

const BINARY = [
  'add',
  'subtract',
  'multiply',
  'floorDivide',
  'remainder',
  'pow',
  'maximum',
  'minimum',
];
const UNARY_MATH = ['sqrt', 'exp', 'expm1', 'log', 'log1p', 'sin', 'cos', 'tan', 'tanh', 'log2'];
const UNARY = ['negative', 'abs', 'sign', 'floor', 'ceil', 'round', 'trunc'];
const COMPARE = ['equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual'];
const NUMERIC: DType[] = ['float32', 'int32', 'uint32', 'uint8'];
const ALL: DType[] = [...NUMERIC, 'bool'];

const node = (op: string, args: Expr[], dtype: DType): Expr => ({ op, args, dtype });
const x0: Expr = { in: 0 };
const x1: Expr = { in: 1 };

interface Case {
  name: string;
  params: EwParams;
  inputs: NDArray[];
  rtol?: number;
}

function cases(): Case[] {
  const out: Case[] = [];
  const sh = (): number[] => randomShape();
  for (const d of NUMERIC) {
    for (const op of BINARY) {
      const s = sh();
      const b = randomArray(d, s, op === 'pow' ? 'exponent' : 'any');
      out.push({
        name: `${op} ${d}`,
        params: { expr: node(op, [x0, x1], d), dtype: d },
        inputs: [randomArray(d, s), b],
        rtol: 1e-5,
      });
    }
    for (const op of UNARY)
      out.push({
        name: `${op} ${d}`,
        params: { expr: node(op, [x0], d), dtype: d },
        inputs: [randomArray(d, sh())],
      });
    for (const op of COMPARE) {
      const s = sh();
      out.push({
        name: `${op} ${d}`,
        params: { expr: node(op, [x0, x1], 'bool'), dtype: 'bool' },
        inputs: [randomArray(d, s), randomArray(d, s)],
      });
      out.push({
        name: `${op} ${d} vs weak 3`,
        params: { expr: node(op, [x0, { const: 3 }], 'bool'), dtype: 'bool' },
        inputs: [randomArray(d, s)],
      });
    }
  }
  for (const op of UNARY_MATH) {
    for (const d of ['float32', 'uint8'] as DType[]) {
      out.push({
        name: `${op} ${d}`,
        params: { expr: node(op, [x0], 'float32'), dtype: 'float32' },
        inputs: [randomArray(d, sh())],
        rtol: 2e-5,
      });
    }
  }
  const s = sh();
  out.push({
    name: 'divide float32',
    params: { expr: node('divide', [x0, x1], 'float32'), dtype: 'float32' },
    inputs: [randomArray('float32', s), randomArray('float32', s)],
  });
  out.push({
    name: 'divide uint8/float32',
    params: { expr: node('divide', [x0, x1], 'float32'), dtype: 'float32' },
    inputs: [randomArray('uint8', s), randomArray('float32', s)],
  });
  for (const op of ['logicalAnd', 'logicalOr']) {
    for (const d of ['bool', 'float32', 'int32'] as DType[]) {
      out.push({
        name: `${op} ${d}`,
        params: { expr: node(op, [x0, x1], 'bool'), dtype: 'bool' },
        inputs: [randomArray(d, s), randomArray('bool', s)],
      });
    }
  }
  for (const d of ALL) {
    out.push({
      name: `logicalNot ${d}`,
      params: { expr: node('logicalNot', [x0], 'bool'), dtype: 'bool' },
      inputs: [randomArray(d, sh())],
    });
    for (const to of ALL) {
      out.push({
        name: `astype ${d} → ${to}`,
        params: { expr: node('astype', [x0], to), dtype: to },
        inputs: [randomArray(d, sh())],
      });
    }
    const t = resultType(d, d);
    out.push({
      name: `where bool ? ${d} : ${d}`,
      params: { expr: node('where', [x0, x1, { in: 2 }], t), dtype: t },
      inputs: [randomArray('bool', s), randomArray(d, s), randomArray(d, s)],
    });
  }
  const special = randomArray('float32', s);
  special.data[0] = Number.NaN;
  if (special.size > 1) special.data[1] = Number.POSITIVE_INFINITY;
  if (special.size > 2) special.data[2] = Number.NEGATIVE_INFINITY;
  for (const op of ['isnan', 'isfinite']) {
    out.push({
      name: `${op} float32`,
      params: { expr: node(op, [x0], 'bool'), dtype: 'bool' },
      inputs: [special],
    });
    out.push({
      name: `${op} int32`,
      params: { expr: node(op, [x0], 'bool'), dtype: 'bool' },
      inputs: [randomArray('int32', s)],
    });
  }
  out.push({
    name: 'maximum with NaN',
    params: { expr: node('maximum', [x0, x1], 'float32'), dtype: 'float32' },
    inputs: [special, randomArray('float32', s)],
  });
  return out;
}

function chains(): Case[] {
  const f = 'float32';
  // exp(sin(x) * 2 + y) > 0.5 ? x - y : 0.25 — one shader for the whole tree
  const chain = node(
    'where',
    [
      node(
        'greater',
        [
          node(
            'exp',
            [node('add', [node('multiply', [node('sin', [x0], f), { const: 2 }], f), x1], f)],
            f,
          ),
          { const: 0.5 },
        ],
        'bool',
      ),
      node('subtract', [x0, x1], f),
      { const: 0.25 },
    ],
    f,
  );
  return [
    {
      name: 'fused float32 chain',
      params: { expr: chain, dtype: f },
      inputs: [randomArray(f, [17, 9]), randomArray(f, [17, 9])],
      rtol: 1e-5,
    },
    {
      name: 'uint8 - 1 wraps',
      params: { expr: node('subtract', [x0, { const: 1 }], 'uint8'), dtype: 'uint8' },
      inputs: [randomArray('uint8', [33])],
    },
    {
      name: 'float32 * 0.1 (weak scalar rounds to float32)',
      params: { expr: node('multiply', [x0, { const: 0.1 }], f), dtype: f },
      inputs: [randomArray(f, [40])],
    },
    {
      name: 'int32 + uint8 → int32',
      params: { expr: node('add', [x0, x1], 'int32'), dtype: 'int32' },
      inputs: [randomArray('int32', [5, 7]), randomArray('uint8', [5, 7])],
    },
    {
      name: 'broadcast [3,1,5] + [4,5] + scalar block',
      params: { expr: node('add', [node('add', [x0, x1], f), { in: 2 }], f), dtype: f },
      inputs: [randomArray(f, [3, 1, 5]), randomArray(f, [4, 5]), randomArray(f, [1])],
    },
    {
      name: 'broadcast bool output [6,1] < [1,7]',
      params: { expr: node('less', [x0, x1], 'bool'), dtype: 'bool' },
      inputs: [randomArray(f, [6, 1]), randomArray(f, [1, 7])],
    },
    {
      name: 'constant expression',
      params: { expr: { const: 2.5 }, dtype: f },
      inputs: [randomArray(f, [3])],
    },
    {
      name: 'round half to even',
      params: { expr: node('round', [node('multiply', [x0, { const: 0.5 }], f)], f), dtype: f },
      inputs: [new NDArray(Float32Array.of(1, 3, 5, -1, -3, 0.5, 7), [7], f)],
    },
  ];
}

describe.skipIf(!hasGpu)('webgpu ew kernel', () => {
  const box = useGpu();

  it.each([...cases(), ...chains()])('$name', async ({ params, inputs, rtol }) => {
    const { gpu } = box;
    const want = evaluateExpr(inputs, params);
    const hs = await Promise.all(inputs.map((x) => gpu.upload(x)));
    const [h] = await gpu.run('ew', hs, params);
    const got = await gpu.download(h!);
    gpu.release(...hs, h!);
    expect(got.dtype).toBe(want.dtype);
    expect(got.shape).toEqual(want.shape);
    expectClose(got.data as NumberArray, want.data as NumberArray, rtol ?? 0, 0);
  });

  it('refuses float64 with a message suggesting astype', async () => {
    const { gpu } = box;
    const x = new NDArray(Float64Array.of(1, 2), [2], 'float64');
    await expect(gpu.upload(x)).rejects.toMatchObject({
      _tag: 'DTypeError',
      message: expect.stringContaining("astype('float32')"),
    });
    const h = await gpu.upload(new NDArray(Float32Array.of(1, 2), [2], 'float32'));
    const p = { expr: node('add', [x0, { const: 1 }], 'float64'), dtype: 'float64' as DType };
    await expect(gpu.run('ew', [h], p)).rejects.toMatchObject({ _tag: 'DTypeError' });
    gpu.release(h);
  });
});
