// dispatchable and dispatchableClass: a library's own function or class, run by the backend the
// cascade picks (an owner of its argument type first); small arguments never take part.

import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  add,
  type Backend,
  dispatchable,
  dispatchableClass,
  dispatchStats,
  fromArray,
  type LazyArray,
  registerBackend,
  resetDispatchStats,
  unregisterBackend,
  withBackend,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';

/** A value type the 'dsp-owner' backend claims. */
class OwnedTensor {
  constructor(readonly v: number) {}
}

const ownsSeen: unknown[] = [];
const describeValue = dispatchable('dsp.describe', (..._args: unknown[]) => 'default');
const strict = dispatchable('dsp.strict', (..._args: unknown[]) => 'default', {
  fallback: 'error',
});
const untouched = dispatchable('dsp.untouched', (v: number) => v * 2);
const scaleBy = dispatchable('dsp.scale', (x: LazyArray, k: number) => x.mul(k));

class DefaultModel {
  fitted?: number;
  constructor(readonly init?: unknown) {}
  fit(x: unknown): this {
    this.fitted = x instanceof OwnedTensor ? x.v : -1;
    return this;
  }
  who(): string {
    return 'default';
  }
  self(): this {
    return this;
  }
  build(x: LazyArray): LazyArray {
    return add(x, 1);
  }
  get value(): number | undefined {
    return this.fitted;
  }
}
const DispatchedModel = dispatchableClass('dsp.Model', DefaultModel);
const newModel = (init?: unknown) => new DispatchedModel(init);

const implementer = (tag: string) =>
  class {
    fit(_x: unknown) {
      return tag;
    }
    who() {
      return tag;
    }
    self() {
      return this;
    }
    build(x: LazyArray) {
      return add(x, 1);
    }
  };

const BACKENDS: Backend[] = [
  {
    name: 'dsp-owner',
    device: 'cpu',
    kernels: ['dsp.describe', 'dsp.strict', 'dsp.Model', 'dsp.scale', 'ew'],
    supports: '*',
    owns: (v) => {
      ownsSeen.push(v);
      return v instanceof OwnedTensor;
    },
    functions: {
      'dsp.describe': () => 'owner',
      'dsp.strict': () => 'owner',
      'dsp.Model': implementer('owner') as never,
      'dsp.scale': ((x: LazyArray, k: number) => add(x, k)) as never,
    },
  },
  {
    // registered later, declared above dsp-owner: first in the built-in order
    name: 'dsp-other',
    device: 'cpu',
    kernels: ['dsp.describe', 'dsp.strict', 'dsp.Model', 'ew'],
    supports: '*',
    higherPriorityThan: ['dsp-owner'],
    functions: {
      'dsp.describe': () => 'other',
      'dsp.strict': () => 'other',
      'dsp.Model': implementer('other') as never,
    },
  },
];

beforeEach(() => {
  ownsSeen.length = 0;
  for (const b of BACKENDS) registerBackend(b);
});
afterEach(() => {
  for (const b of BACKENDS) unregisterBackend(b.name);
});

describe('dispatchable', () => {
  test('with no backend implementing it, the default runs', () => {
    expect(untouched(4)).toBe(8);
  });

  test('a backend implementing it runs it (the built-in order picks among them)', () => {
    expect(describeValue(1)).toBe('other');
    expect(withBackend('dsp-owner', () => describeValue(1))).toBe('owner');
    expect(withBackend({ disable: ['dsp-other', 'dsp-owner'] }, () => describeValue(1))).toBe(
      'default',
    );
  });

  test('among implementers declaring nothing, the one registered first runs it', () => {
    unregisterBackend('dsp-other');
    registerBackend({ ...BACKENDS[1]!, higherPriorityThan: [] });
    expect(describeValue(1)).toBe('owner');
  });

  test('an argument a backend owns selects it (inputs beat the built-in order)', () => {
    expect(describeValue(new OwnedTensor(1))).toBe('owner');
    expect(describeValue(1, new OwnedTensor(1))).toBe('owner');
  });

  test.each([
    ['numbers', [1, 2.5]],
    ['nested arrays', [[[1, 2]], [3]]],
    ['booleans and strings', [true, 'x']],
  ])('%s never take part in selection (owns is not asked)', (_, args) => {
    expect(describeValue(...args)).toBe('other');
    expect(ownsSeen).toEqual([]);
  });

  test('withBackend beats an owned input', () => {
    expect(withBackend('dsp-other', () => describeValue(new OwnedTensor(1)))).toBe('other');
  });

  test('a lazy array does take part: owns sees it', () => {
    const x = fromArray([1, 2]);
    expect(describeValue(x)).toBe('other');
    expect(ownsSeen).toContain(x);
  });

  test('the chosen backend is prioritized for what its implementation builds', () => {
    const x = fromArray([1, 2, 3]);
    const y = withBackend('dsp-owner', () => scaleBy(x, 2));
    expect(y.layer.op).toBe('add');
    expect(y.layer.backend?.name).toBe('dsp-owner');
  });

  test("fallback 'default': when no implementer can run it, the default runs and is counted", () => {
    resetDispatchStats();
    const out = withBackend({ disable: ['dsp-other', 'dsp-owner'] }, () =>
      describeValue(new OwnedTensor(1)),
    );
    expect(out).toBe('default');
    expect(dispatchStats()).toContainEqual({
      op: 'dsp.describe',
      backend: 'default',
      reason: 'fallback',
      count: 1,
    });
  });

  test("fallback 'error': inputs that need a backend which cannot run it raise", () => {
    expectThrow(
      () => withBackend({ disable: ['dsp-owner', 'dsp-other'] }, () => strict(new OwnedTensor(1))),
      'ValueError',
      ["dsp.strict: the inputs need backend 'dsp-owner'", 'does not fall back'],
    );
    // another implementer may still run it: that is no fallback to the default
    expect(withBackend({ disable: 'dsp-owner' }, () => strict(new OwnedTensor(1)))).toBe('other');
    // without such inputs it falls back as usual
    expect(withBackend({ disable: ['dsp-owner', 'dsp-other'] }, () => strict(1))).toBe('default');
  });

  const bad: [string, () => unknown, string[]][] = [
    ['an empty name', () => dispatchable('', () => 1), ['dispatchable', 'non-empty']],
    ['a taken name', () => dispatchable('dsp.describe', () => 1), ['"dsp.describe"', 'already']],
    ['a backend name', () => dispatchable('cpu-js', () => 1), ['"cpu-js"']],
    ['no function', () => dispatchable('dsp.nofn', 3 as never), ['"dsp.nofn"', 'not a function']],
  ];
  test.each(bad)('%s is a ValueError', (_, f, fragments) => {
    expectThrow(f, 'ValueError', fragments);
  });

  test('a dispatchable name is a kernel name backends may list', () => {
    expect(() =>
      registerBackend({ name: 'dsp-x', device: 'cpu', kernels: ['dsp.untouched'], supports: '*' }),
    ).not.toThrow();
    unregisterBackend('dsp-x');
    expectThrow(
      () =>
        registerBackend({ name: 'dsp-y', device: 'cpu', kernels: ['dsp.never'], supports: '*' }),
      'ValueError',
      ['"dsp-y"', '"dsp.never"'],
    );
  });
});

describe('dispatchableClass', () => {
  test('chosen at construction from array arguments, and kept', () => {
    const m = newModel(new OwnedTensor(1));
    expect(m.backend).toBe('dsp-owner');
    expect(withBackend('dsp-other', () => m.who())).toBe('owner');
    expect(m.backend).toBe('dsp-owner');
  });

  test('without array arguments, chosen at the first method call with them (fit)', () => {
    const m = newModel();
    expect(m.backend).toBeUndefined();
    expect(m.fit(new OwnedTensor(2))).toBe('owner');
    expect(m.backend).toBe('dsp-owner');
    expect(m.who()).toBe('owner');
  });

  test('a first call without arrays binds by priority', () => {
    const m = newModel();
    expect(m.who()).toBe('other');
    expect(m.backend).toBe('dsp-other');
    // later calls with owned inputs keep the choice
    expect(m.fit(new OwnedTensor(3))).toBe('other');
  });

  test("the default class when no backend can: backend is 'default'", () => {
    const m = withBackend({ disable: ['dsp-owner', 'dsp-other'] }, () => {
      const inst = newModel();
      expect(inst.backend).toBeUndefined();
      inst.fit(new OwnedTensor(5));
      return inst;
    });
    expect(m.backend).toBe('default');
    expect(m.who()).toBe('default');
    expect(m.value).toBe(5);
  });

  test('constructor arguments reach the implementation', () => {
    const t = new OwnedTensor(4);
    const m = withBackend({ disable: ['dsp-owner', 'dsp-other'] }, () => newModel(t));
    expect(m.backend).toBe('default');
    expect(m.init).toBe(t);
  });

  test('a property assigned on an instance reads back, and lands on the implementation', () => {
    const owned: InstanceType<typeof DispatchedModel> & { label?: string } = newModel(
      new OwnedTensor(1),
    );
    owned.label = 'mine';
    expect(owned.label).toBe('mine');
    const m = withBackend({ disable: ['dsp-owner', 'dsp-other'] }, () =>
      newModel(new OwnedTensor(1)),
    );
    m.fitted = 7;
    expect(m.fitted).toBe(7);
    // the getter runs on the implementation and sees the write
    expect(m.value).toBe(7);
  });

  test('a write before binding binds the instance (by priority) and is kept', () => {
    const m = newModel();
    expect(m.backend).toBeUndefined();
    m.fitted = 3;
    expect(m.backend).toBe('dsp-other');
    expect(m.fitted).toBe(3);
  });

  test("'in' sees backend and the implementation's members", () => {
    const m = withBackend({ disable: ['dsp-owner', 'dsp-other'] }, () =>
      newModel(new OwnedTensor(1)),
    );
    expect('backend' in m).toBe(true);
    expect('fit' in m).toBe(true);
    expect('value' in m).toBe(true);
    expect('nothing' in m).toBe(false);
    expect('extra' in m).toBe(false);
    Reflect.set(m, 'extra', 1);
    expect('extra' in m).toBe(true);
  });

  test('a method returning the instance returns the dispatched instance', () => {
    const d = withBackend({ disable: ['dsp-owner', 'dsp-other'] }, () =>
      newModel(new OwnedTensor(1)),
    );
    expect(d.fit(new OwnedTensor(2))).toBe(d);
    expect(d.fit(new OwnedTensor(2)).backend).toBe('default');
    const m = newModel(new OwnedTensor(1));
    expect(m.self()).toBe(m);
    expect(m.self().backend).toBe('dsp-owner');
  });

  test("chained calls run in the chosen backend's scope", () => {
    const x = fromArray([1, 2, 3]);
    const m = newModel(new OwnedTensor(1));
    expect(m.build(x).layer.backend?.name).toBe('dsp-owner');
    expect(m.self().build(x).layer.backend?.name).toBe('dsp-owner');
    const o = newModel();
    expect(o.self().build(x).layer.backend?.name).toBe('dsp-other');
    // outside the instance, nothing is prioritized
    expect(add(x, 1).layer.backend?.name).toBe('cpu-js');
  });
});
