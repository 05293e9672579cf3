// The selection cascade, one precedence level at a time (lowest to highest): built-in order and
// declared priorities, config, TESSERA_BACKEND_PRIORITY, the inputs, withBackend, a call's backend.

import { afterEach, describe, expect, test } from 'vitest';
import { selectBackend } from '../../src/dispatch/cascade.ts';
import { defaultBackends } from '../../src/dispatch/default.ts';
import type { DispatchEnv } from '../../src/dispatch/env.ts';
import { withCallBackend } from '../../src/dispatch/with-backend.ts';
import {
  add,
  type Backend,
  config,
  configure,
  fromArray,
  listBackends,
  type OpMeta,
  registerBackend,
  resetConfig,
  unregisterBackend,
  withBackend,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';

const NAMES = ['cas-a', 'cas-b', 'cas-c'] as const;

/**
 * Built-in backends other than cpu-js (cpu-wasm, webgpu, …), blocked in the environments
 * below so that each test sees only cpu-js and its own backends.
 */
const foreign = (): string[] =>
  listBackends()
    .map((b) => b.name)
    .filter((n) => n !== 'cpu-js' && !(NAMES as readonly string[]).includes(n));

const env = (patch: Partial<DispatchEnv> = {}): DispatchEnv => ({
  priority: [],
  log: false,
  ...patch,
  block: [...(patch.block ?? []), ...foreign()],
});

// the params an 'ew' layer of x + 1 carries (built-in backends may look at them)
const EW = {
  expr: { op: 'add', args: [{ in: 0 }, { const: 1 }], dtype: 'float64' },
  dtype: 'float64',
};

const meta = (patch: Partial<OpMeta> = {}): OpMeta => ({
  op: 'ew',
  params: EW,
  dtype: 'float64',
  chunks: [[2, 2]],
  inputs: [{ dtype: 'float64', chunks: [[2, 2]], device: 'cpu', backend: 'cpu-js' }],
  blockElements: 2,
  ...patch,
});

// the backends these tests register, and cpu-js: built-ins that refuse host data (a GPU
// backend) are left out of the attempts compared below
const OURS = new Set<string>([...NAMES, 'cpu-js']);

const select = (m: OpMeta = meta(), e: DispatchEnv = env()) => {
  const d = selectBackend(defaultBackends, m, 'test', e).decision;
  return { ...d, tried: d.tried.filter((t) => OURS.has(t.backend)) };
};

/** A value type only cas-c claims. */
class CTensor {}

type Patch = Partial<Record<(typeof NAMES)[number], Partial<Backend>>>;

/**
 * Registers cas-a, cas-b, cas-c in that order, each declared above cpu-js unless `patch` says
 * otherwise: the built-in order is then cas-a, cas-b, cas-c, cpu-js (registered first, first).
 */
function register(patch: Patch = {}): void {
  for (const name of NAMES) {
    registerBackend({
      name,
      device: 'cpu',
      kernels: ['ew', 'reduce-partial'],
      supports: '*',
      higherPriorityThan: ['cpu-js'],
      ...(name === 'cas-c' ? { owns: (v: unknown) => v instanceof CTensor } : {}),
      ...patch[name],
    });
  }
}

/** No declared priorities: plugins come after cpu-js, which was registered first. */
const undeclared: Patch = {
  'cas-a': { higherPriorityThan: [] },
  'cas-b': { higherPriorityThan: [] },
  'cas-c': { higherPriorityThan: [] },
};

afterEach(() => {
  for (const n of NAMES) unregisterBackend(n);
  resetConfig();
});

describe('level by level, each above the one before', () => {
  test('1. built-in order: among unrelated backends, the one registered first', () => {
    register();
    expect(select()).toMatchObject({ backend: 'cas-a', reason: 'priority' });
    expect(select().tried).toEqual([{ backend: 'cas-a', verdict: 'ok' }]);
  });

  test('1. with no declared priority, cpu-js (registered first) comes first', () => {
    register(undeclared);
    expect(select()).toMatchObject({ backend: 'cpu-js', reason: 'priority' });
    expect(select(meta(), env({ block: ['cpu-js'] })).backend).toBe('cas-a');
  });

  test('1. declared priorities override registration order', () => {
    register({
      'cas-a': { higherPriorityThan: ['cas-c'] },
      'cas-b': { higherPriorityThan: ['cas-a'] },
    });
    expect(select()).toMatchObject({ backend: 'cas-b', reason: 'priority' });
    expect(select(meta(), env({ block: ['cas-b'] })).backend).toBe('cas-a');
  });

  test('1. lowerPriorityThan cpu-js puts a backend after it', () => {
    register({ 'cas-a': { higherPriorityThan: [], lowerPriorityThan: ['cpu-js'] } });
    expect(select().backend).toBe('cas-b');
    expect(select(meta(), env({ block: ['cas-b', 'cas-c'] })).backend).toBe('cpu-js');
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
    const e = env({ priority: ['cas-b'] });
    expect(select(meta({ args: [new CTensor()] }), e)).toMatchObject({
      backend: 'cas-c',
      reason: 'inputs',
    });
    // plain numbers and objects it does not own change nothing
    expect(select(meta({ args: [3, {}] }), e).backend).toBe('cas-b');
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
    expect(add(x, 1).layer.backend?.name).toBe('cas-a');
    configure({ backendPriority: ['cas-b'] });
    expect(add(x, 1).layer.backend?.name).toBe('cas-b');
    expect(withBackend('cas-c', () => add(x, 1)).layer.backend?.name).toBe('cas-c');
    expect(withBackend('cas-c', () => add(x, 1, { backend: 'cas-a' })).layer.backend?.name).toBe(
      'cas-a',
    );
  });
});

describe('the default configuration', () => {
  test('config.backendPriority is empty', () => {
    configure({ backendPriority: ['cas-a'] });
    resetConfig();
    expect(config.backendPriority).toEqual([]);
  });

  test('a backend with no declared priority runs only when asked for', () => {
    register(undeclared);
    const x = fromArray([1, 2]);
    expect(select().backend).toBe('cpu-js');
    expect(add(x, 1).layer.backend?.name).toBe('cpu-js');
    expect(withBackend('cas-b', () => add(x, 1)).layer.backend?.name).toBe('cas-b');
    expect(add(x, 1, { backend: 'cas-c' }).layer.backend?.name).toBe('cas-c');
  });

  test('a backend declared above cpu-js is selected with the default config', () => {
    register({ ...undeclared, 'cas-a': { higherPriorityThan: ['cpu-js'] } });
    expect(select()).toMatchObject({ backend: 'cas-a', reason: 'priority' });
    expect(add(fromArray([1, 2]), 1).layer.backend?.name).toBe('cas-a');
    // the others declared nothing: cpu-js comes next
    expect(select(meta(), env({ block: ['cas-a'] })).backend).toBe('cpu-js');
  });

  // registry.ts sorted(): Kahn's order takes the earliest-registered backend among those
  // whose predecessors are placed; cpu-js waits for cas-b (declared above it), so cas-a,
  // registered before cas-b and declaring nothing, is placed before cpu-js and takes over
  test('a backend declaring nothing, registered before a declared one, stays after cpu-js', () => {
    register({ ...undeclared, 'cas-b': { higherPriorityThan: ['cpu-js'] } });
    expect(select()).toMatchObject({ backend: 'cas-b', reason: 'priority' });
    expect(select(meta(), env({ block: ['cas-b'] })).backend).toBe('cpu-js');
  });
});

describe('canRun skips, shouldRun defers, and the static rules', () => {
  test('canRun false skips a backend, with its reason in the decision', () => {
    register({ 'cas-a': { canRun: () => 'only float32' } });
    const d = select();
    expect(d.backend).toBe('cas-b');
    expect(d.tried[0]).toEqual({ backend: 'cas-a', verdict: 'cannot run: only float32' });
  });

  test('canRun sees the operation and its metadata', () => {
    const seen: [string, OpMeta][] = [];
    register({
      'cas-a': {
        canRun: (op, m) => {
          seen.push([op, m]);
          return m.dtype === 'float32' || 'only float32';
        },
      },
    });
    expect(select(meta({ dtype: 'float32' })).backend).toBe('cas-a');
    expect(select(meta({ dtype: 'float64' })).backend).toBe('cas-b');
    expect(seen.map(([op, m]) => [op, m.dtype, m.blockElements])).toEqual([
      ['ew', 'float32', 2],
      ['ew', 'float64', 2],
    ]);
  });

  test('shouldRun false defers: every other backend is tried first, lower ones included', () => {
    register({
      'cas-a': { shouldRun: () => 'too small' },
      'cas-b': { canRun: () => 'no' },
    });
    const d = select();
    expect(d.backend).toBe('cas-c');
    expect(d.reason).toBe('priority');
    expect(d.tried.map((t) => t.verdict)).toEqual(['deferred: too small', 'cannot run: no', 'ok']);
  });

  test('a deferred backend still runs when nobody else can', () => {
    register({
      'cas-a': { shouldRun: () => 'too small' },
      'cas-b': { shouldRun: () => 'also small' },
      'cas-c': { canRun: () => 'no' },
    });
    const d = select(meta(), env({ block: ['cpu-js'] }));
    // the first deferred, in priority order
    expect(d).toMatchObject({ backend: 'cas-a', reason: 'deferred fallback' });
    // with cpu-js available, it runs rather than a deferred backend
    expect(select().backend).toBe('cpu-js');
  });

  test('shouldRun is not asked when canRun says no', () => {
    let asked = 0;
    register({
      'cas-a': {
        canRun: () => 'no',
        shouldRun: () => {
          asked++;
          return true;
        },
      },
    });
    expect(select().backend).toBe('cas-b');
    expect(asked).toBe(0);
  });

  test('TESSERA_BACKEND_BLOCK: never selected, even when prioritized', () => {
    register();
    const e = env({ priority: ['cas-b'], block: ['cas-a', 'cas-b'] });
    const d = select(meta(), e);
    expect(d.backend).toBe('cas-c');
    expect(d.tried).toEqual([
      { backend: 'cas-b', verdict: 'blocked by TESSERA_BACKEND_BLOCK' },
      { backend: 'cas-a', verdict: 'blocked by TESSERA_BACKEND_BLOCK' },
      { backend: 'cas-c', verdict: 'ok' },
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
    register({ 'cas-a': { requiresOptIn: true } });
    expect(select().backend).toBe('cas-b');
    expect(select().tried[0]!.verdict).toContain('requires opt-in');
    configure({ backendPriority: ['cas-a'] });
    expect(select().backend).toBe('cas-a');
    resetConfig();
    expect(select().backend).toBe('cas-b');
    expect(select(meta(), env({ priority: ['cas-a'] })).backend).toBe('cas-a');
    expect(withBackend('cas-a', () => select()).backend).toBe('cas-a');
  });

  test('requiresOptIn: owning the input is not naming it', () => {
    register({ 'cas-c': { requiresOptIn: true } });
    const d = select(meta({ args: [new CTensor()] }));
    expect(d.backend).toBe('cas-a');
    expect(d.tried[0]).toEqual({
      backend: 'cas-c',
      verdict: 'requires opt-in (name it to use it)',
    });
  });

  test('available() false: skipped with its reason', () => {
    register({ 'cas-a': { available: () => 'no adapter' } });
    const d = select();
    expect(d.backend).toBe('cas-b');
    expect(d.tried[0]).toEqual({ backend: 'cas-a', verdict: 'unavailable: no adapter' });
  });

  test('backends that do not implement the operation are not tried', () => {
    register({ 'cas-a': { kernels: ['matmul'] } });
    const d = select();
    expect(d.backend).toBe('cas-b');
    expect(d.tried.map((t) => t.backend)).not.toContain('cas-a');
    expect(select(meta({ op: 'matmul' })).backend).toBe('cas-a');
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
