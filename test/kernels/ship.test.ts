import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isTesseraError, type KernelError } from '../../src/errors.ts';
import { createFnResolver } from '../../src/kernels/resolve.ts';
import { parseFunction, toFnRef } from '../../src/kernels/ship.ts';
import { kernels } from '../fixtures/defined-kernels.ts';

const resolve = createFnResolver({ inline: true });
const workerResolve = createFnResolver({ inline: false });

function shipError(fn: unknown, opts = {}): KernelError {
  try {
    toFnRef(fn, 'lazyApply', opts);
  } catch (e) {
    expect(isTesseraError(e, 'KernelError')).toBe(true);
    return e as KernelError;
  }
  return expect.unreachable('toFnRef did not throw');
}

describe('toFnRef: by source', () => {
  test.each([
    ['arrow', (x: number) => x * 2 + 1, 5, 11],
    [
      'async-free arrow with a block',
      (x: number) => {
        let s = 0;
        for (let i = 0; i <= x; i++) s += i;
        return s;
      },
      4,
      10,
    ],
    [
      'function expression',
      function triple(x: number): number {
        return x * 3;
      },
      2,
      6,
    ],
    [
      'recursive named function',
      function fact(n: number): number {
        return n <= 1 ? 1 : n * fact(n - 1);
      },
      5,
      120,
    ],
    ['globals only', (x: number) => Math.max(x, Number.EPSILON) + Array.of(1).length, 2, 3],
    [
      'method shorthand',
      {
        half(x: number) {
          return x / 2;
        },
      }.half,
      8,
      4,
    ],
  ] as const)('%s is shipped by source and computes the same', (_, fn, arg, want) => {
    const ref = toFnRef(fn, 'lazyApply');
    expect(ref.kind).toBe('source');
    expect(ref.name).toBe(fn.name || 'anonymous');
    const shipped = workerResolve(structuredClone(ref));
    expect(shipped).not.toBe(fn);
    expect(shipped(arg)).toBe(want);
    expect(fn(arg as never)).toBe(want);
  });

  test('an async method keeps being async', async () => {
    const ref = toFnRef(
      {
        async twice(x: number) {
          return 2 * x;
        },
      }.twice,
      'lazyApply',
    );
    if (ref.kind !== 'source') expect.unreachable();
    expect(ref.source).toMatch(/^async function/);
    await expect(workerResolve(ref)(4)).resolves.toBe(8);
  });

  test('shipped arithmetic agrees with the original on any input', () => {
    const f = (a: number, b: number) => (a * 3 - b) / 7 + Math.abs(a - b) ** 0.5;
    const g = workerResolve(toFnRef(f, 'test'));
    fc.assert(
      fc.property(fc.double({ noNaN: true }), fc.double({ noNaN: true }), (a, b) => {
        expect(g(a, b)).toBe(f(a, b));
      }),
    );
  });

  test('the same function gives the same ref', () => {
    const f = (x: number) => x;
    expect(toFnRef(f, 'a')).toBe(toFnRef(f, 'b'));
  });
});

describe('toFnRef: rejected at build time', () => {
  test('a closure over a local names the variable and both fixes', () => {
    const threshold = 0.5;
    const e = shipError(function aboveThreshold(x: number) {
      return x > threshold;
    });
    expect(e.message).toBe(
      "lazyApply: kernel 'aboveThreshold' uses 'threshold' from its enclosing scope, which does " +
        'not travel to workers; data can go through kwargs, but functions and classes cannot: ' +
        'export the kernel with defineKernels(import.meta.url, { … }), or pass { inline: true } ' +
        'to run it on the main thread',
    );
  });

  test('every free variable is named once, in order', () => {
    const a = 1;
    const b = 2;
    const e = shipError((x: number) => a + b * x + a);
    expect(e.message).toContain(
      "uses 'a', 'b' from its enclosing scope, which does not travel to workers",
    );
  });

  test('an imported binding is named as imported', () => {
    const e = shipError(() => toFnRef);
    expect(e.message).toContain("uses 'toFnRef'");
  });

  test.each([
    ['a native function', Math.max, /native or bound/],
    ['a bound function', ((x: number) => x).bind(null), /native or bound/],
    ['a class', class Kernel {}, /does not parse as a function/],
  ])('%s', (_, fn, message) => {
    expect(shipError(fn).message).toMatch(message);
  });

  test.each([
    [42, 'got number 42'],
    [null, 'got null'],
    ['sortRows', 'got string "sortRows"'],
  ])('a non-function (%s)', (value, message) => {
    expect(shipError(value).message).toBe(`lazyApply: kernel must be a function, ${message}`);
  });
});

describe('toFnRef: by module and inline', () => {
  test('a defineKernels handle becomes a module ref', () => {
    expect(toFnRef(kernels.squareAll, 'lazyApply')).toEqual({
      kind: 'module',
      url: new URL('../fixtures/defined-kernels.ts', import.meta.url).href,
      name: 'squareAll',
    });
  });

  test('inline: true accepts a closure, resolvable on the main thread only', () => {
    const offset = 10;
    const f = (x: number) => x + offset;
    const ref = toFnRef(f, 'lazyApply', { inline: true });
    expect(ref.kind).toBe('inline');
    expect(resolve(ref)).toBe(f);
    expect(() => workerResolve(ref)).toThrow(/runs only on the main thread/);
  });
});

describe('parseFunction', () => {
  test.each([
    ['(x) => x', '(x) => x'],
    ['function f(a) { return a }', 'function f(a) { return a }'],
    ['m(a) { return a }', 'function (a) { return a }'],
    ['async m(a) { return a }', 'async function (a) { return a }'],
    ['*g(a) { yield a }', 'function* (a) { yield a }'],
    ['[Symbol.iterator](a) { return a }', 'function (a) { return a }'],
    ['x => x // trailing comment', 'x => x // trailing comment'],
  ])('%s', (source, expression) => {
    expect(parseFunction(source)?.expression).toBe(expression);
  });

  test.each(['class A {}', '1 + 2', 'x => x) + (y', 'function () { [native code] }'])(
    'not a function: %s',
    (source) => {
      expect(parseFunction(source)).toBeUndefined();
    },
  );
});
