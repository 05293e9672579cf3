// Backend registration: every malformed backend is a ValueError naming it (duplicate names,
// version ranges, unknown kernels, priority cycles), and the built-in order the cascade starts from.

import { afterEach, describe, expect, test } from 'vitest';
import { knownOperations } from '../../src/dispatch/default.ts';
import { BackendRegistry } from '../../src/dispatch/registry.ts';
import {
  type Backend,
  listBackends,
  registerBackend,
  unregisterBackend,
  VERSION,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';

const backend = (name: string, extra: Partial<Backend> = {}): Backend => ({
  name,
  device: 'cpu',
  kernels: ['ew'],
  supports: '*',
  ...extra,
});

const registry = (version = VERSION): BackendRegistry =>
  new BackendRegistry(() => new Set(['ew', 'reduce-partial', 'matmul']), version);

const names = (r: BackendRegistry): string[] => r.list().map((b) => b.name);

afterEach(() => {
  for (const b of listBackends()) if (b.name.startsWith('reg-')) unregisterBackend(b.name);
});

describe('registerBackend validates at once', () => {
  const cases: [string, unknown, string[]][] = [
    ['not an object', 42, ['registerBackend', 'expected a backend object', '42']],
    ['a bad name', backend('has space'), ['registerBackend', '"has space"', 'is not a name']],
    ['a bad device', backend('reg-tpu', { device: 'tpu' as never }), ['"reg-tpu"', '"tpu"']],
    ['no kernel list', backend('reg-nolist', { kernels: 'ew' as never }), ['"reg-nolist"']],
    [
      'an unknown kernel',
      backend('reg-unknown', { kernels: ['ew', 'no-such-kernel'] }),
      ['"reg-unknown"', '"no-such-kernel"', 'which tessera does not know'],
    ],
    [
      'a range that is not semver',
      backend('reg-badrange', { supports: 'banana' }),
      ['"reg-badrange"', '"banana"', 'not a semver range'],
    ],
    [
      'a range that excludes the running version',
      backend('reg-future', { supports: '>=99' }),
      ['"reg-future"', 'tessera >=99', `this is tessera ${VERSION}`],
    ],
  ];

  test.each(cases)('%s is a ValueError naming the backend', (_, b, fragments) => {
    const before = listBackends().length;
    expectThrow(() => registerBackend(b as Backend), 'ValueError', fragments);
    expect(listBackends()).toHaveLength(before);
  });

  test('a duplicate name', () => {
    registerBackend(backend('reg-dup'));
    expectThrow(() => registerBackend(backend('reg-dup', { kernels: ['matmul'] })), 'ValueError', [
      'registerBackend',
      '"reg-dup"',
      'already registered',
    ]);
    // the first registration stands
    expect(listBackends().find((b) => b.name === 'reg-dup')?.kernels).toEqual(['ew']);
  });

  test('cpu-js cannot be registered twice', () => {
    expectThrow(() => registerBackend(backend('cpu-js')), 'ValueError', ['"cpu-js"', 'already']);
  });

  test('every built-in kernel and every dispatchable name is known', () => {
    const known = knownOperations();
    for (const k of ['ew', 'reduce-partial', 'reduce-combine', 'matmul', 'fused']) {
      expect(known.has(k)).toBe(true);
    }
    registerBackend(backend('reg-all', { kernels: ['ew', 'reduce-partial', 'matmul'] }));
    expect(listBackends().some((b) => b.name === 'reg-all')).toBe(true);
  });

  test('a cycle in the priority relations names the backend that closes it', () => {
    registerBackend(backend('reg-c1', { higherPriorityThan: ['reg-c2'] }));
    registerBackend(backend('reg-c2', { higherPriorityThan: ['reg-c3'] }));
    expectThrow(
      () =>
        registerBackend(
          backend('reg-c3', { lowerPriorityThan: ['reg-c2'], higherPriorityThan: ['reg-c1'] }),
        ),
      'ValueError',
      ['registerBackend', '"reg-c3"', 'cycle', 'reg-c1 > reg-c2'],
    );
    expect(listBackends().some((b) => b.name === 'reg-c3')).toBe(false);
    // the registry still works after the rejected one
    registerBackend(backend('reg-c3', { lowerPriorityThan: ['reg-c2'] }));
    expect(listBackends().map((b) => b.name)).toContain('reg-c3');
  });
});

describe('priority cycles in one registry', () => {
  test.each([
    ['a backend above itself', [backend('s', { higherPriorityThan: ['s'] })], 's'],
    ['a backend below itself', [backend('s', { lowerPriorityThan: ['s'] })], 's'],
    [
      'two backends each above the other',
      [backend('p', { higherPriorityThan: ['q'] }), backend('q', { higherPriorityThan: ['p'] })],
      'q',
    ],
    [
      'the same edge declared from both ends is no cycle, the opposite one is',
      [
        backend('p', { higherPriorityThan: ['q'] }),
        backend('q', { lowerPriorityThan: ['p'] }),
        backend('r', { higherPriorityThan: ['p'], lowerPriorityThan: ['q'] }),
      ],
      'r',
    ],
  ] as const)('%s: rejected, naming the last', (_, list, culprit) => {
    const r = registry();
    const last = list[list.length - 1]!;
    for (const b of list.slice(0, -1)) r.register(b);
    expectThrow(() => r.register(last), 'ValueError', [`"${culprit}"`, 'cycle']);
    expect(names(r)).not.toContain(last.name);
  });
});

describe('supports: the semver range against the running version', () => {
  test.each([
    ['0.1.0', '>=0.1', true],
    ['0.1.0', '^0.1.0', true],
    ['0.1.0', '>=0.2', false],
    ['1.4.2', '>=1 <2', true],
    ['2.0.0', '>=1 <2', false],
    ['1.0.0-rc.1', '>=1.0.0-rc.0', true],
  ])('tessera %s, supports %s: accepted %s', (version, range, ok) => {
    const r = registry(version);
    const b = backend('reg-v', { supports: range });
    if (ok) {
      r.register(b);
      expect(names(r)).toEqual(['reg-v']);
    } else {
      expectThrow(() => r.register(b), 'ValueError', [
        '"reg-v"',
        `tessera ${range}`,
        `this is tessera ${version}`,
      ]);
      expect(names(r)).toEqual([]);
    }
  });
});

describe('built-in order', () => {
  test('unrelated backends: the one registered first comes first', () => {
    const r = registry();
    for (const n of ['a', 'b', 'c']) r.register(backend(n));
    expect(names(r)).toEqual(['a', 'b', 'c']);
    r.unregister('a');
    r.register(backend('a'));
    expect(names(r)).toEqual(['b', 'c', 'a']);
  });

  test('declared relations override registration order', () => {
    const r = registry();
    r.register(backend('a', { higherPriorityThan: ['b'] }));
    r.register(backend('b'));
    r.register(backend('c', { lowerPriorityThan: ['a'], higherPriorityThan: ['b'] }));
    expect(names(r)).toEqual(['a', 'c', 'b']);
  });

  test('a backend registered later comes first only by declaring it', () => {
    const r = registry();
    r.register(backend('base'));
    r.register(backend('above', { higherPriorityThan: ['base'] }));
    r.register(backend('plain'));
    expect(names(r)).toEqual(['above', 'base', 'plain']);
  });

  test('a plugin comes after cpu-js in the default registry unless it declares otherwise', () => {
    const order = () => listBackends().map((b) => b.name);
    registerBackend(backend('reg-plain'));
    expect(order().indexOf('reg-plain')).toBeGreaterThan(order().indexOf('cpu-js'));
    registerBackend(backend('reg-above', { higherPriorityThan: ['cpu-js'] }));
    expect(order().indexOf('reg-above')).toBeLessThan(order().indexOf('cpu-js'));
  });

  // sorted() is Kahn's order taking the earliest-registered backend whose predecessors are
  // placed: 'base' waits for 'above', so 'plain' (registered before 'above', declaring
  // nothing) is placed first, before 'base'; it takes over from 'base' without declaring it
  test('declaring nothing never puts a backend before one registered earlier', () => {
    const r = registry();
    r.register(backend('base'));
    r.register(backend('plain'));
    r.register(backend('above', { higherPriorityThan: ['base'] }));
    expect(names(r)).toEqual(['above', 'base', 'plain']);
  });

  test('a relation to a backend not registered yet applies once it is', () => {
    const r = registry();
    r.register(backend('late-low', { lowerPriorityThan: ['late-high'] }));
    expect(names(r)).toEqual(['late-low']);
    r.register(backend('other'));
    r.register(backend('late-high'));
    expect(names(r).indexOf('late-high')).toBeLessThan(names(r).indexOf('late-low'));
  });

  test('unregister removes a backend and its relations; the version changes', () => {
    const r = registry();
    r.register(backend('a', { lowerPriorityThan: ['b'] }));
    r.register(backend('b'));
    const v = r.version;
    expect(r.unregister('b')).toBe(true);
    expect(r.version).toBeGreaterThan(v);
    expect(r.unregister('b')).toBe(false);
    expect(names(r)).toEqual(['a']);
    expect(r.get('b')).toBeUndefined();
  });

  test('the default registry holds cpu-js, which implements every built-in kernel', () => {
    const cpu = listBackends().find((b) => b.name === 'cpu-js');
    expect(cpu?.device).toBe('cpu');
    expect(new Set(cpu?.kernels)).toEqual(
      new Set([...knownOperations()].filter((k) => !k.includes('/') && !k.includes('.'))),
    );
  });
});
