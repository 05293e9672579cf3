// elementwise(expr, …): the expression language against the same operations written with
// the functional API (same values, one fused task per block) and a dense JS reference.

import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { compute, elementwise, fromArray, shutdown, ValueError, where } from '../../src/index.ts';
import { rng } from '../helpers/reference.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

function data(n: number, seed: number, dtype: 'float64' | 'float32' = 'float64') {
  const r = rng(seed);
  const d = dtype === 'float64' ? new Float64Array(n) : new Float32Array(n);
  for (let i = 0; i < n; i++) d[i] = r() * 4 - 2;
  return fromArray(d, { shape: [n / 10, 10], chunks: [7, 4] });
}

describe('values', () => {
  const x = data(200, 1);
  const y = data(200, 2);
  const cases: [string, (a: number, b: number) => number][] = [
    ['a * x + b', (p) => 2 * p + 1],
    [
      'sqrt(abs(x)) - exp(-x * x) / (1 + y ** 2)',
      (p, q) => Math.sqrt(Math.abs(p)) - Math.exp(-p * p) / (1 + q ** 2),
    ],
    ['x > t ? x : -y', (p, q) => (p > 0.5 ? p : -q)],
    [
      'where(x < y, minimum(x, 0), maximum(y, 1))',
      (p, q) => (p < q ? Math.min(p, 0) : Math.max(q, 1)),
    ],
    ['clip(x, -1, 1) * pi', (p) => Math.min(Math.max(p, -1), 1) * Math.PI],
    ['floor(x) + ceil(y) + round(x * 0)', (p, q) => Math.floor(p) + Math.ceil(q)],
    ['(x > 0 && y > 0) + 0', (p, q) => (p > 0 && q > 0 ? 1 : 0)],
    [
      'log1p(abs(x)) + tanh(y) + sin(x) * cos(y)',
      (p, q) => Math.log1p(Math.abs(p)) + Math.tanh(q) + Math.sin(p) * Math.cos(q),
    ],
  ];
  test.each(cases)('%s matches a dense reference', async (expr, f) => {
    const out = await compute(
      elementwise(expr, { inputs: { x, y }, params: { a: 2, b: 1, t: 0.5 } }),
      SYNC,
    );
    const [xs, ys] = await compute(x, y, SYNC);
    expect(out.shape).toEqual([20, 10]);
    for (let i = 0; i < out.data.length; i++) {
      expect(out.data[i]).toBeCloseTo(
        f((xs!.data as NumberArray)[i]!, (ys!.data as NumberArray)[i]!),
        12,
      );
    }
  });

  test('the same values, name and task count as the functional form', async () => {
    const a = elementwise('x > 0 ? x * 2 : y', { inputs: { x, y } });
    const b = where(x.greater(0), x.mul(2), y);
    expect(a.name).toBe(b.name);
    const [p, q] = await compute(a, b, SYNC);
    expect(Array.from(p!.data as NumberArray)).toEqual(Array.from(q!.data as NumberArray));
    const tasks = (l: typeof a) => runnableCount(materializeTasks(fuseLayers([l.layer])));
    expect(tasks(a)).toBe(tasks(b));
    // one fused task per output block (the sources' slices fold into it)
    expect(tasks(a)).toBe(x.numBlocks.reduce((m, n) => m * n, 1) * 2);
  });

  test('float32 stays float32 (weak params); dtype casts at the end', async () => {
    const x32 = data(100, 3, 'float32');
    expect(elementwise('x * 0.1 + k', { inputs: { x: x32 }, params: { k: 3 } }).dtype).toBe(
      'float32',
    );
    const c = elementwise('x > 0', { inputs: { x: x32 }, dtype: 'int32' });
    expect(c.dtype).toBe('int32');
    expect(elementwise('float64(x) * 2', { inputs: { x: x32 } }).dtype).toBe('float64');
    expect(elementwise('int32(x * 10)', { inputs: { x: x32 } }).dtype).toBe('int32');
  });

  test('broadcasting follows NumPy', async () => {
    const row = fromArray([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const out = await compute(elementwise('x + r', { inputs: { x, r: row } }), SYNC);
    const xs = await compute(x, SYNC);
    for (let i = 0; i < out.data.length; i++)
      expect(out.data[i]).toBe((xs.data as NumberArray)[i]! + (i % 10) + 1);
  });
});

describe('errors at build time, naming elementwise', () => {
  const x = data(100, 4);
  test.each([
    ['x +', /cannot parse/],
    ['x + z', /'z' is not an input/],
    ['foo(x)', /unknown function 'foo'/],
    ['sqrt(x, x)', /sqrt takes 1 argument/],
    ['x = 1', /AssignmentExpression is not part/],
    ['"a" + x', /only number and boolean literals/],
    ['x.y', /MemberExpression is not part/],
    ['x >>> 1', /operator '>>>' is not part/],
    ['1 + 2', /reads no input array/],
    ['x + 1; x', /unexpected/],
  ])('%s', (expr, message) => {
    expect(() => elementwise(expr, { inputs: { x } })).toThrow(ValueError);
    expect(() => elementwise(expr, { inputs: { x } })).toThrow(message);
    expect(() => elementwise(expr, { inputs: { x } })).toThrow(/^elementwise: /);
  });
  test('bad options', () => {
    expect(() => elementwise(3 as never, { inputs: { x } })).toThrow(
      /^elementwise: expr must be a string/,
    );
    expect(() => elementwise('x', null as never)).toThrow(/^elementwise: options need 'inputs'/);
    expect(() => elementwise('x', { inputs: { x }, dtype: 'nope' as never })).toThrow(
      /elementwise/,
    );
  });
});
