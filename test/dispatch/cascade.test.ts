// The selection cascade, one precedence level at a time (lowest to highest): built-in order and
// declared priorities, config, TESSERA_BACKEND_PRIORITY, the inputs, withBackend, a call's backend.

import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { selectBackend } from '../../src/dispatch/cascade.ts';
import { defaultBackends } from '../../src/dispatch/default.ts';
import type { DispatchEnv } from '../../src/dispatch/env.ts';
import { withCallBackend } from '../../src/dispatch/with-backend.ts';
import {
  add,
  type Backend,
  configure,
  fromArray,
  type OpMeta,
  registerBackend,
  resetConfig,
  unregisterBackend,
  withBackend,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';

const NAMES = ['cas-a', 'cas-b', 'cas-c'] as const;

const noEnv: DispatchEnv = { priority: [], block: [], log: false };
const env = (patch: Partial<DispatchEnv>): DispatchEnv => ({ ...noEnv, ...patch });

const meta = (patch: Partial<OpMeta> = {}): OpMeta => ({
  op: 'ew',
  params: undefined,
  dtype: 'float64',
  chunks: [[2, 2]],
  inputs: [{ dtype: 'float64', chunks: [[2, 2]], device: 'cpu', backend: 'cpu-js' }],
  blockElements: 2,
  ...patch,
});

const select = (m: OpMeta = meta(), e: DispatchEnv = noEnv) =>
  selectBackend(defaultBackends, m, 'test', e).decision;

/** A value type only cas-c claims. */
class CTensor {}

function register(patch: Partial<Record<(typeof NAMES)[number], Partial<Backend>>> = {}): void {
  for (const name of NAMES) {
    registerBackend({
      name,
      device: 'cpu',
      kernels: ['ew', 'reduce-partial'],
      supports: '*',
      ...(name === 'cas-c' ? { owns: (v: unknown) => v instanceof CTensor } : {}),
      ...patch[name],
    });
  }
}

afterEach(() => {
  for (const n of NAMES) unregisterBackend(n);
  resetConfig();
});

describe('level by level, each above the one before', () => {
  // the default config names cpu-js; level 1 is seen only with the config list empty
  beforeEach(() => configure({ backendPriority: [] }));

  test('1. built-in order: the backend registered last', () => {
    register();
    expect(select()).toMatchObject({ backend: 'cas-c', reason: 'priority' });
  });

  test('1. declared priorities override registration order', () => {
    register({
      'cas-a': { higherPriorityThan: ['cas-c'] },
      'cas-b': { higherPriorityThan: ['cas-a'] },
    });
    expect(select()).toMatchObject({ backend: 'cas-b', reason: 'priority' });
  });

  test('2. config.backendPriority (lowest first) beats declared priorities', () => {
    register({ 'cas-b': { higherPriorityThan: ['cas-a', 'cas-c'] } });
    configure({ backendPriority: ['cas-c', 'cas-a'] });
    expect(select()).toMatchObject({ backend: 'cas-a', reason: 'config.backendPriority' });
    configure({ backendPriority: ['cas-a', 'cas-c'] });
    expect(select().backend).toBe('cas-c');
  });

  test('3. TESSERA_BACKEND_PRIORITY (lowest first) beats config', () => {
    register();
    configure({ backendPriority: ['cas-a'] });
    const e = env({ priority: ['cas-a', 'cas-b'] });
    expect(select(meta(), e)).toMatchObject({
      backend: 'cas-b',
      reason: 'TESSERA_BACKEND_PRIORITY',
    });
    expect(select(meta(), env({ priority: ['cas-b', 'cas-a'] })).backend).toBe('cas-a');
  });

  test('4. a backend that owns an input beats the environment', () => {
    register();
    const e = env({ priority: ['cas-a'] });
    expect(select(meta({ args: [new CTensor()] }), e)).toMatchObject({
      backend: 'cas-c',
      reason: 'inputs',
    });
    // plain numbers and objects it does not own change nothing
    expect(select(meta({ args: [3, {}] }), e).backend).toBe('cas-a');
  });

  test.todo('4. GPU data infers a GPU backend (needs a GPU backend and device arrays)');

  test('5. withBackend beats the inputs', () => {
    register();
    const d = withBackend('cas-b', () =>
      select(meta({ args: [new CTensor()] }), env({ priority: ['cas-a'] })),
    );
    expect(d).toMatchObject({ backend: 'cas-b', reason: 'withBackend' });
  });

  test("6. a call's explicit backend beats withBackend", () => {
    register();
    const d = withBackend('cas-b', () =>
      withCallBackend('add', 'cas-a', () => select(meta({ args: [new CTensor()] }))),
    );
    expect(d).toMatchObject({ backend: 'cas-a', reason: 'explicit', fn: 'add' });
  });

  test('the same, end to end: the layer records the backend of the highest level', () => {
    register();
    const x = fromArray([1, 2, 3, 4], { chunks: 2 });
    configure({ backendPriority: ['cas-a'] });
    expect(add(x, 1).layer.backend?.name).toBe('cas-a');
    expect(withBackend('cas-b', () => add(x, 1)).layer.backend?.name).toBe('cas-b');
    expect(withBackend('cas-b', () => add(x, 1, { backend: 'cas-c' })).layer.backend?.name).toBe(
      'cas-c',
    );
  });
});

describe('the default configuration', () => {
  test('names cpu-js, so a registered backend runs only when asked for', () => {
    register();
    const d = select();
    expect(d.backend).toBe('cpu-js');
    expect(add(fromArray([1, 2]), 1).layer.backend?.name).toBe('cpu-js');
  });

  // registry.ts: "a backend registered to be used is tried before the built-ins"; the default
  // config.backendPriority ['cpu-js'] puts cpu-js above every declared priority (level 1).
  test.fails('a backend declared above cpu-js is selected with the default config', () => {
    register({ 'cas-a': { higherPriorityThan: ['cpu-js'] } });
    expect(select().backend).toBe('cas-a');
  });
});

describe('canRun skips, shouldRun defers, and the static rules', () => {
  beforeEach(() => configure({ backendPriority: [] }));

  test('canRun false skips a backend, with its reason in the decision', () => {
    register({ 'cas-c': { canRun: () => 'only float32' } });
    const d = select();
    expect(d.backend).toBe('cas-b');
    expect(d.tried[0]).toEqual({ backend: 'cas-c', verdict: 'cannot run: only float32' });
  });

  test('canRun sees the operation and its metadata', () => {
    const seen: [string, OpMeta][] = [];
    register({
      'cas-c': {
        canRun: (op, m) => {
          seen.push([op, m]);
          return m.dtype === 'float32' || 'only float32';
        },
      },
    });
    expect(select(meta({ dtype: 'float32' })).backend).toBe('cas-c');
    expect(select(meta({ dtype: 'float64' })).backend).toBe('cas-b');
    expect(seen.map(([op, m]) => [op, m.dtype, m.blockElements])).toEqual([
      ['ew', 'float32', 2],
      ['ew', 'float64', 2],
    ]);
  });

  test('shouldRun false defers: every other backend is tried first, lower ones included', () => {
    register({
      'cas-c': { shouldRun: () => 'too small' },
      'cas-b': { canRun: () => 'no' },
    });
    const d = select();
    expect(d.backend).toBe('cas-a');
    expect(d.reason).toBe('priority');
    expect(d.tried.map((t) => t.verdict)).toEqual(['deferred: too small', 'cannot run: no', 'ok']);
  });

  test('a deferred backend still runs when nobody else can', () => {
    register({
      'cas-c': { shouldRun: () => 'too small' },
      'cas-b': { shouldRun: () => 'also small' },
      'cas-a': { canRun: () => 'no' },
    });
    const d = select(meta(), env({ block: ['cpu-js'] }));
    // the first deferred, in priority order
    expect(d).toMatchObject({ backend: 'cas-c', reason: 'deferred fallback' });
  });

  test('shouldRun is not asked when canRun says no', () => {
    let asked = 0;
    register({
      'cas-c': {
        canRun: () => 'no',
        shouldRun: () => {
          asked++;
          return true;
        },
      },
    });
    select();
    expect(asked).toBe(0);
  });

  test('TESSERA_BACKEND_BLOCK: never selected, even when prioritized', () => {
    register();
    const e = env({ priority: ['cas-c'], block: ['cas-c', 'cas-b'] });
    const d = select(meta(), e);
    expect(d.backend).toBe('cas-a');
    expect(d.tried.slice(0, 2)).toEqual([
      { backend: 'cas-c', verdict: 'blocked by TESSERA_BACKEND_BLOCK' },
      { backend: 'cas-b', verdict: 'blocked by TESSERA_BACKEND_BLOCK' },
    ]);
  });

  test('a blocked backend named explicitly is an error, not a fallback', () => {
    register();
    expectThrow(
      () => withCallBackend('add', 'cas-a', () => select(meta(), env({ block: ['cas-a'] }))),
      'ValueError',
      ["add: backend 'cas-a' cannot run 'ew'", 'blocked by TESSERA_BACKEND_BLOCK'],
    );
  });

  test('requiresOptIn: skipped unless named (config, env or withBackend)', () => {
    register({ 'cas-c': { requiresOptIn: true } });
    expect(select().backend).toBe('cas-b');
    expect(select().tried[0]!.verdict).toContain('requires opt-in');
    configure({ backendPriority: ['cas-c'] });
    expect(select().backend).toBe('cas-c');
    resetConfig();
    configure({ backendPriority: [] });
    expect(select(meta(), env({ priority: ['cas-c'] })).backend).toBe('cas-c');
    expect(withBackend('cas-c', () => select()).backend).toBe('cas-c');
  });

  test('requiresOptIn: owning the input is not naming it', () => {
    register({ 'cas-c': { requiresOptIn: true } });
    expect(select(meta({ args: [new CTensor()] })).backend).toBe('cas-b');
  });

  test('available() false: skipped with its reason', () => {
    register({ 'cas-c': { available: () => 'no adapter' } });
    const d = select();
    expect(d.backend).toBe('cas-b');
    expect(d.tried[0]).toEqual({ backend: 'cas-c', verdict: 'unavailable: no adapter' });
  });

  test('backends that do not implement the operation are not tried', () => {
    register({ 'cas-c': { kernels: ['matmul'] } });
    const d = select();
    expect(d.backend).toBe('cas-b');
    expect(d.tried.map((t) => t.backend)).not.toContain('cas-c');
  });

  test('when nobody can run it: a ValueError listing every answer', () => {
    register({ 'cas-a': { canRun: () => 'no a' }, 'cas-b': { canRun: () => 'no b' } });
    expectThrow(
      () => withBackend({ disable: 'cas-c' }, () => select(meta(), env({ block: ['cpu-js'] }))),
      'ValueError',
      [
        "test: no backend can run 'ew'",
        'cas-c: disabled by withBackend',
        'cas-b: cannot run: no b',
        'cas-a: cannot run: no a',
        'cpu-js: blocked by TESSERA_BACKEND_BLOCK',
      ],
    );
  });
});
