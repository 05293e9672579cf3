// withBackend scopes: prioritize and disable nest, traces collect the decisions made inside,
// and concurrent async scopes never leak into each other (AsyncLocalStorage).

import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  add,
  fromArray,
  type LazyArray,
  registerBackend,
  sum,
  unregisterBackend,
  withBackend,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';

const NAMES = ['scope-a', 'scope-b'];
const x = fromArray([1, 2, 3, 4], { chunks: 2 });
const backendOf = (y: LazyArray): string | undefined => y.layer.backend?.name;
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

beforeEach(() => {
  for (const name of NAMES)
    registerBackend({ name, device: 'cpu', kernels: ['ew', 'reduce-partial'], supports: '*' });
});
afterEach(() => {
  for (const n of NAMES) unregisterBackend(n);
});

describe('prioritize and disable', () => {
  test('a name prioritizes it for everything built inside, and nothing after', () => {
    const [y, s] = withBackend('scope-a', () => [add(x, 1), sum(x)] as const);
    expect(backendOf(y)).toBe('scope-a');
    expect(backendOf(s)).toBe('scope-a');
    expect(backendOf(add(x, 1))).toBe('cpu-js');
  });

  test('inner scopes come first; leaving one restores the outer', () => {
    withBackend('scope-a', () => {
      expect(backendOf(add(x, 1))).toBe('scope-a');
      withBackend({ prioritize: ['scope-b'] }, () => {
        expect(backendOf(add(x, 1))).toBe('scope-b');
        withBackend({ disable: 'scope-b' }, () => {
          // disabled inner, so the outer priority shows through
          expect(backendOf(add(x, 1))).toBe('scope-a');
        });
      });
      expect(backendOf(add(x, 1))).toBe('scope-a');
    });
  });

  test('an inner scope prioritizing a backend re-enables one the outer disabled', () => {
    withBackend({ disable: ['scope-a', 'cpu-js'] }, () => {
      expect(backendOf(add(x, 1))).toBe('scope-b');
      expect(withBackend('scope-a', () => backendOf(add(x, 1)))).toBe('scope-a');
    });
  });

  test('disabling cpu-js falls to the backend registered next (scope-a, then scope-b)', () => {
    expect(withBackend({ disable: 'cpu-js' }, () => backendOf(add(x, 1)))).toBe('scope-a');
    expect(withBackend({ disable: ['cpu-js', 'scope-a'] }, () => backendOf(add(x, 1)))).toBe(
      'scope-b',
    );
  });

  test('prioritize order is highest first', () => {
    expect(withBackend({ prioritize: ['scope-a', 'scope-b'] }, () => backendOf(add(x, 1)))).toBe(
      'scope-a',
    );
    expect(withBackend({ prioritize: ['scope-b', 'scope-a'] }, () => backendOf(add(x, 1)))).toBe(
      'scope-b',
    );
  });

  test('the scope ends even when fn throws', () => {
    expect(() =>
      withBackend('scope-a', () => {
        throw new RangeError('inside');
      }),
    ).toThrow(RangeError);
    expect(backendOf(add(x, 1))).toBe('cpu-js');
  });

  const bad: [string, () => unknown, string[]][] = [
    [
      'an unknown name',
      () => withBackend('scope-nope', () => 1),
      ['withBackend', "'scope-nope'", 'scope-a'],
    ],
    [
      'an unknown name to disable',
      () => withBackend({ disable: ['scope-zz'] }, () => 1),
      ["'scope-zz'"],
    ],
    ['a spec that is neither', () => withBackend(7 as never, () => 1), ['withBackend', '7']],
    ['no function', () => withBackend('scope-a', 'f' as never), ['withBackend', 'function']],
  ];
  test.each(bad)('%s is a ValueError', (_, f, fragments) => {
    expectThrow(f, 'ValueError', fragments);
  });
});

describe('concurrent async scopes', () => {
  test('two scopes interleaving at awaits each see only their own backend', async () => {
    const log: string[] = [];
    const run = (name: string, delays: number[]) =>
      withBackend(name, async () => {
        const seen: string[] = [];
        for (const ms of delays) {
          await tick(ms);
          const b = backendOf(add(x, 1))!;
          seen.push(b);
          log.push(`${name}:${b}`);
        }
        return seen;
      });
    const [a, b] = await Promise.all([run('scope-a', [5, 0, 5, 0]), run('scope-b', [0, 5, 0, 5])]);
    expect(a).toEqual(['scope-a', 'scope-a', 'scope-a', 'scope-a']);
    expect(b).toEqual(['scope-b', 'scope-b', 'scope-b', 'scope-b']);
    // they did interleave: neither finished before the other started
    const firstA = log.findIndex((l) => l.startsWith('scope-a'));
    const lastB = log.findLastIndex((l) => l.startsWith('scope-b'));
    expect(firstA).toBeLessThan(lastB);
    expect(backendOf(add(x, 1))).toBe('cpu-js');
  });

  test('traced async scopes keep their own decisions', async () => {
    const traced = (name: string, ms: number) =>
      withBackend({ prioritize: name, trace: true }, async () => {
        await tick(ms);
        add(x, 1);
        await tick(ms);
        return sum(x);
      });
    const [a, b] = await Promise.all([traced('scope-a', 4), traced('scope-b', 1)]);
    expect(a.decisions.map((d) => d.backend)).toEqual(['scope-a', 'scope-a']);
    expect(b.decisions.map((d) => d.backend)).toEqual(['scope-b', 'scope-b']);
    expect(backendOf(a.value)).toBe('scope-a');
  });
});

describe('trace', () => {
  test('returns the value and one decision per dispatched layer', () => {
    const { value, decisions } = withBackend({ trace: true }, () => sum(add(x, 1)));
    expect(backendOf(value)).toBe('cpu-js');
    expect(decisions.map((d) => [d.fn, d.op, d.backend])).toEqual([
      ['add', 'ew', 'cpu-js'],
      ['sum', 'reduce-partial', 'cpu-js'],
    ]);
    for (const d of decisions) expect(d.tried.length).toBeGreaterThan(0);
  });

  test('nested traces: the outer one sees the inner decisions too', () => {
    const outer = withBackend({ trace: true }, () => {
      add(x, 1);
      const inner = withBackend({ prioritize: 'scope-a', trace: true }, () => add(x, 2));
      return inner.decisions;
    });
    expect(outer.value.map((d) => d.backend)).toEqual(['scope-a']);
    expect(outer.decisions.map((d) => d.backend)).toEqual(['cpu-js', 'scope-a']);
    expect(outer.value[0]!.reason).toBe('withBackend');
  });

  test('an untraced scope returns the bare value', () => {
    const y = withBackend('scope-a', () => add(x, 1));
    expect(backendOf(y)).toBe('scope-a');
    expect(withBackend({ prioritize: 'scope-a' }, () => 5)).toBe(5);
  });
});
