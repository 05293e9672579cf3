// The 'ew' kernel on its own: nested expressions, per-node integer wrap and float32 rounding,
// NumPy scalar semantics, broadcasting inside blocks, layout simplification and the codegen.

import { describe, expect, it } from 'vitest';
import type { DType, NumberArray } from '../../../../src/array/dtype.ts';
import { NDArray, ndarray } from '../../../../src/array/ndarray.ts';
import {
  broadcastBlockShapes,
  evaluateExpr,
  ewHelpers,
  simplifyLayout,
} from '../../../../src/backends/cpu-js/elementwise/elementwise.ts';
import {
  castScalar,
  exprKey,
  loopSource,
} from '../../../../src/backends/cpu-js/elementwise/ew-codegen.ts';
import type { Expr } from '../../../../src/backends/cpu-js/elementwise/expr.ts';
import { castRef, wrapBig } from '../../../apply/elementwise-reference.ts';
import { expectArray } from '../../../helpers/reference.ts';

const I = (k: number): Expr => ({ in: k });
const C = (v: number): Expr => ({ const: v });
const op = (name: string, dtype: DType, ...args: Expr[]): Expr => ({ op: name, args, dtype });
const run = (expr: Expr, dtype: DType, ...inputs: NDArray[]): NDArray =>
  evaluateExpr(inputs, { expr, dtype });
const arr = (values: number[], dtype: DType, shape = [values.length]): NDArray =>
  ndarray(values, shape, dtype);

describe('ew kernel: nested expressions', () => {
  it('computes x * 2 + 1 in one loop with no temporaries', () => {
    const e = op('add', 'float64', op('multiply', 'float64', I(0), C(2)), C(1));
    expect(run(e, 'float64', arr([1, 2, 3], 'float64')).toArray()).toEqual([3, 5, 7]);
    const src = loopSource({
      expr: e,
      inputDtypes: ['float64'],
      modes: ['c'],
      outDtype: 'float64',
    });
    expect(src).toContain('out[i] = t1;');
    expect(src).not.toContain('fround');
    expect(src).not.toMatch(/new |allocate/);
  });

  it('wraps every integer node at its width, not only the root', () => {
    // int8: 12 * 12 = 144 wraps to -112, which is not > 0
    const e = op('greater', 'bool', op('multiply', 'int8', I(0), I(0)), C(0));
    const x = arr([12, 100, -128, 3], 'int8');
    const expected = [12, 100, -128, 3].map((v) => (wrapBig(BigInt(v * v), 'int8') > 0 ? 1 : 0));
    expectArray(run(e, 'bool', x), { dtype: 'bool', shape: [4], data: expected });
  });

  it.each([
    ['int32', 65537, 65537],
    ['uint32', 4_000_000_000, 3],
    ['int16', 300, 300],
    ['uint16', 65535, 65535],
  ] as [DType, number, number][])('multiplies %s exactly modulo the width', (d, a, b) => {
    const e = op('add', d, op('multiply', d, I(0), I(1)), C(0));
    const got = run(e, d, arr([a], d), arr([b], d)).data[0];
    expect(got).toBe(wrapBig(BigInt(a) * BigInt(b), d));
  });

  it('rounds float32 intermediates, so fused equals unfused bit for bit', () => {
    const x = arr([0.1, 1 / 3, 7.77, -2.2e-5, 16777217], 'float32');
    const inner = op('multiply', 'float32', I(0), C(0.1));
    const fused = run(op('add', 'float32', inner, C(0.2)), 'float32', x);
    const step = run(op('add', 'float32', I(0), C(0.2)), 'float32', run(inner, 'float32', x));
    expect(Array.from(fused.data as NumberArray)).toEqual(Array.from(step.data as NumberArray));
  });

  it('evaluates a repeated subtree once (one local)', () => {
    const sq = op('multiply', 'float64', I(0), I(0));
    const e = op('add', 'float64', sq, sq);
    const src = loopSource({
      expr: e,
      inputDtypes: ['float64'],
      modes: ['c'],
      outDtype: 'float64',
    });
    expect(src.match(/const t\d+ =/g)).toHaveLength(2);
    expect(run(e, 'float64', arr([3], 'float64')).data[0]).toBe(18);
  });

  it('handles a bare input or a constant as the whole expression', () => {
    expectArray(run(I(0), 'int8', arr([1.7, -1.7, 300], 'float64')), {
      dtype: 'int8',
      shape: [3],
      data: [1, -1, 44],
    });
    expectArray(run(I(0), 'bool', arr([0, 2, Number.NaN], 'float64')), {
      dtype: 'bool',
      shape: [3],
      data: [0, 1, 1],
    });
    expectArray(run(C(5), 'float64', arr([0, 0], 'float64')), { shape: [2], data: [5, 5] });
  });

  it('rejects unknown ops and missing inputs', () => {
    expect(() => run(op('frobnicate', 'float64', I(0)), 'float64', arr([1], 'float64'))).toThrow(
      /unknown elementwise op 'frobnicate'/,
    );
    expect(() => run(I(1), 'float64', arr([1], 'float64'))).toThrow(/reads input 1 of 1/);
  });
});

describe('ew kernel: astype', () => {
  const src = [300.7, -1.5, -129, 255.9, Number.NaN, Infinity, -0, 4294967297];
  it.each(['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'bool', 'float32'] as DType[])(
    'float64 → %s truncates toward zero and wraps',
    (d) => {
      const x = arr(src, 'float64');
      // a nested cast exercises the non-root cast code; the root store exercises the typed array
      const nested = run(op('add', d, op('astype', d, I(0)), C(0)), d, x);
      const root = run(op('astype', d, I(0)), d, x);
      const expected = src.map((v) => castRef(v, d));
      expectArray(nested, { dtype: d, shape: [src.length], data: expected });
      expectArray(root, { dtype: d, shape: [src.length], data: expected });
      expect(src.map((v) => castScalar(v, d))).toEqual(expected);
    },
  );
});

describe('ew kernel: NumPy scalar semantics', () => {
  const pairs: [number, number][] = [
    [-7, 2],
    [7, -2],
    [-7, -2],
    [7, 0],
    [-1, Infinity],
    [1, -Infinity],
    [0, -3],
    [-0, 2],
    [5.5, 0],
    [Number.NaN, 2],
    [0.3, 0.1],
  ];
  it.each(pairs)('float floorDivide / remainder of %d, %d follow Python', (a, b) => {
    const q = ewHelpers.floorDivide(a, b);
    const r = ewHelpers.remainder(a, b);
    if (b === 0) {
      expect(q).toBe(a / b);
      expect(r).toBeNaN();
    } else if (Number.isNaN(a)) {
      expect(q).toBeNaN();
    } else if (Number.isFinite(b)) {
      expect(q).toBe(Math.floor(a / b));
      expect(Math.abs(q * b + r - a)).toBeLessThan(1e-12);
      expect(r === 0 || Math.sign(r) === Math.sign(b)).toBe(true);
    } else {
      // Python: -1 // inf == -1, -1 % inf == inf
      expect(q).toBe(a < 0 !== b < 0 ? -1 : 0);
      expect(r).toBe(a < 0 !== b < 0 ? b : a);
    }
  });

  it('signs of zero results follow NumPy', () => {
    expect(Object.is(ewHelpers.floorDivide(0, -3), -0)).toBe(true);
    expect(Object.is(ewHelpers.remainder(-0, 2), 0)).toBe(true);
    expect(Object.is(ewHelpers.remainder(4, -2), -0)).toBe(true);
  });

  it('integer floorDivide, remainder and pow in int32', () => {
    const a = arr([-7, 7, -7, 5, -(2 ** 31), 3, -2, 1, -1], 'int32');
    const b = arr([2, -2, 0, 3, -1, 20, 3, -5, -3], 'int32');
    const q = run(op('floorDivide', 'int32', I(0), I(1)), 'int32', a, b);
    expect(q.toArray()).toEqual([-4, -4, 0, 1, -(2 ** 31), 0, -1, -1, 0]);
    const r = run(op('remainder', 'int32', I(0), I(1)), 'int32', a, b);
    expect(r.toArray()).toEqual([1, -1, 0, 2, 0, 3, 1, -4, -1]);
    const p = run(op('pow', 'int32', I(0), I(1)), 'int32', a, b);
    const ref = [-7, 7, -7, 5, -(2 ** 31), 3, -2, 1, -1].map((x, i) => {
      const e = [2, -2, 0, 3, -1, 20, 3, -5, -3][i]!;
      if (e < 0) return x === 1 ? 1 : x === -1 ? (e % 2 === 0 ? 1 : -1) : 0;
      return wrapBig(BigInt(x) ** BigInt(e), 'int32');
    });
    expect(p.toArray()).toEqual(ref);
  });

  it("float pow follows C's pow where Math.pow differs", () => {
    expect(ewHelpers.pow(1, Number.NaN)).toBe(1);
    expect(ewHelpers.pow(-1, Infinity)).toBe(1);
    expect(ewHelpers.pow(Number.NaN, 0)).toBe(1);
    expect(ewHelpers.pow(2, 0.5)).toBe(Math.SQRT2);
  });

  it('rounds half to even', () => {
    const x = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994, 2 ** 52 + 1, -3.5];
    expect(x.map(ewHelpers.roundHalfEven)).toEqual([0, 2, 2, -0, -2, -2, 0, 2 ** 52 + 1, -4]);
  });

  it('compares a float32 array with a weak scalar in float32, integers exactly', () => {
    const f = arr([0.1], 'float32');
    expect(run(op('equal', 'bool', I(0), C(0.1)), 'bool', f).data[0]).toBe(1);
    const i8 = arr([127, -128], 'int8');
    expect(run(op('less', 'bool', I(0), C(300)), 'bool', i8).toArray()).toEqual([1, 1]);
    expect(run(op('greater', 'bool', I(0), C(-300)), 'bool', i8).toArray()).toEqual([1, 1]);
  });

  it('where treats any nonzero condition (NaN too) as true', () => {
    const c = arr([0, 1, Number.NaN, -0], 'float64');
    const e = op('where', 'float64', I(0), C(10), C(20));
    expect(run(e, 'float64', c).toArray()).toEqual([20, 10, 10, 20]);
  });

  it('isnan / isfinite on integers are false / true', () => {
    const x = arr([0, -5, 7], 'int16');
    expect(run(op('isnan', 'bool', I(0)), 'bool', x).toArray()).toEqual([0, 0, 0]);
    expect(run(op('isfinite', 'bool', I(0)), 'bool', x).toArray()).toEqual([1, 1, 1]);
  });
});

describe('ew kernel: broadcasting inside blocks', () => {
  const add = op('add', 'float64', I(0), I(1));
  it.each([
    [[3, 1], [4]],
    [
      [2, 1, 3],
      [4, 1],
    ],
    [[], [5]],
    [[], []],
    [
      [2, 3],
      [2, 3],
    ],
    [
      [1, 1],
      [3, 4],
    ],
    [
      [4, 1, 2],
      [1, 3, 1],
    ],
    [[0, 3], [3]],
    [
      [2, 1],
      [1, 1, 1],
    ],
  ])('[%s] + [%s]', (sa, sb) => {
    const size = (s: number[]): number => s.reduce((p, q) => p * q, 1);
    const a = new NDArray(
      Float64Array.from({ length: size(sa) }, (_, i) => i + 1),
      sa,
      'float64',
    );
    const b = new NDArray(
      Float64Array.from({ length: size(sb) }, (_, i) => 100 * (i + 1)),
      sb,
      'float64',
    );
    const shape = broadcastBlockShapes([sa, sb]);
    const out = run(add, 'float64', a, b);
    expect(out.shape).toEqual(shape);
    // dense reference: index each input with clamped (broadcast) coordinates
    const nd = shape.length;
    const expected: number[] = [];
    for (let flat = 0; flat < size(shape); flat++) {
      let rest = flat;
      const idx = new Array<number>(nd);
      for (let ax = nd - 1; ax >= 0; ax--) {
        idx[ax] = rest % shape[ax]!;
        rest = Math.floor(rest / shape[ax]!);
      }
      const read = (x: NDArray): number => {
        let off = 0;
        x.shape.forEach((n, i) => {
          off = off * n + (n === 1 ? 0 : idx[nd - x.shape.length + i]!);
        });
        return (x.data as NumberArray)[off]!;
      };
      expected.push(read(a) + read(b));
    }
    expect(out.toArray()).toEqual(expected);
  });

  it('rejects block shapes that do not broadcast', () => {
    expect(() => broadcastBlockShapes([[2], [3]])).toThrow(/do not broadcast/);
  });

  it('merges contiguous axes and hoists blocks of one value', () => {
    expect(
      simplifyLayout(
        [2, 3, 4],
        [
          [2, 3, 4],
          [1, 1, 1],
        ],
      ),
    ).toEqual({
      shape: [24],
      strides: [[1], [0]],
      modes: ['c', 's'],
    });
    const l = simplifyLayout([3, 4], [[3, 1], [4]]);
    expect(l.modes).toEqual(['g', 'g']);
    expect(l.strides).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(simplifyLayout([], [[], []]).shape).toEqual([1]);
  });
});

describe('ew codegen keys', () => {
  it('keeps NaN, Infinity and -0 constants apart', () => {
    const keys = [Number.NaN, Infinity, -Infinity, 0, -0].map((v) =>
      exprKey(op('add', 'float64', I(0), C(v))),
    );
    expect(new Set(keys).size).toBe(5);
  });
});
