import { describe, expect, test } from 'vitest';
import { freeVariables, isKnownGlobal } from '../../src/kernels/free-variables.ts';
import { parseFunction } from '../../src/kernels/ship.ts';

const free = (source: string): string[] => {
  const parsed = parseFunction(source);
  if (parsed === undefined) return expect.unreachable(`does not parse: ${source}`);
  return freeVariables(parsed.node).map((v) => v.display);
};

describe('freeVariables', () => {
  test.each([
    ['(x) => x > threshold', ['threshold']],
    ['(x) => x * 2', []],
    ['(x, { a, b: [c, d = e] }, ...rest) => a + c + d + rest.length + x', ['e']],
    ['(x) => { let s = 0; for (let i = 0; i < x; i++) s += i; return s; }', []],
    ['(x) => { { const t = 1; } return t; }', ['t']],
    ['(x) => { for (const k in x) {} return k; }', ['k']],
    ['function f() { var v; if (v) { var w = 2; } return v + w + f(); }', []],
    ['function g() { return arguments.length }', []],
    ['() => arguments.length', ['arguments']],
    ['() => { try { return 1 } catch ({ message }) { return message + stack } }', ['stack']],
    ['(o) => ({ o, p: o.p, [key]: 1, m() { return this.q }, ...spread })', ['key', 'spread']],
    ['(o) => o?.a?.[idx]', ['idx']],
    ['() => { outer: for (;;) { break outer } }', []],
    ['(x) => { x = y; [z] = x; return x }', ['y', 'z']],
    ['() => class A extends Base { static s = seed; m() { return A } }', ['Base', 'seed']],
    ['() => { function h() { return v } const v = 1; return h() }', []],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: this string is a function's source
    ['(x) => `${x}${tag`${y}`}`', ['tag', 'y']],
    ['function f() { return new.target }', []],
    ['(x) => Math.max(x, Infinity, NaN) + Number(undefined) + process.pid', []],
    ['function f(a){const inner=__name(function foo(){return 1},"foo");return a+inner()}', []],
    ['(x) => (0, __vite_ssr_import_1__.shapeSize)(x)', ['shapeSize']],
    ['(x) => (0, import_ndarray.shapeSize)(x)', ['shapeSize']],
    ['(x) => a + b + a', ['a', 'b']],
  ])('%s', (source, want) => {
    expect(free(source)).toEqual(want);
  });

  test('globals: the list and globalThis', () => {
    expect(isKnownGlobal('Float64Array')).toBe(true);
    expect(isKnownGlobal('__name')).toBe(true);
    expect(isKnownGlobal('setTimeout')).toBe(true);
    expect(isKnownGlobal('threshold')).toBe(false);
  });
});
