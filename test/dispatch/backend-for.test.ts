// backendFor(...arrays): the backend of the highest-priority input; JS numbers and nested
// arrays count as cpu-js; an owned value type counts as its owner's.

import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  add,
  type Backend,
  backendFor,
  configure,
  fromArray,
  type LazyArray,
  registerBackend,
  resetConfig,
  unregisterBackend,
  withBackend,
} from '../../src/index.ts';

class BfTensor {}

const bfB: Backend = {
  name: 'bf-b',
  device: 'cpu',
  kernels: ['ew'],
  supports: '*',
  owns: (v) => v instanceof BfTensor || (v as { bfBrand?: boolean }).bfBrand === true,
};

// registered in this order, declaring no priority: cpu-js, bf-a, bf-b
beforeEach(() => {
  registerBackend({ name: 'bf-a', device: 'cpu', kernels: ['ew'], supports: '*' });
  registerBackend(bfB);
});
afterEach(() => {
  unregisterBackend('bf-a');
  unregisterBackend('bf-b');
  resetConfig();
});

const x = fromArray([1, 2, 3]);
let onA: LazyArray;
let onB: LazyArray;
beforeEach(() => {
  onA = add(x, 1, { backend: 'bf-a' });
  onB = add(x, 1, { backend: 'bf-b' });
});

describe('backendFor', () => {
  test.each([
    ['nothing', []],
    ['numbers', [1, 2]],
    ['nested arrays', [[1, [2]], [3]]],
    ['a cpu-js array', [x]],
  ] as [string, unknown[]][])('%s: cpu-js', (_, args) => {
    expect(backendFor(...args).name).toBe('cpu-js');
  });

  test("a lone input's backend is its layer's", () => {
    expect(backendFor(onA).name).toBe('bf-a');
    expect(backendFor(onB).name).toBe('bf-b');
    expect(backendFor(onB, onB).name).toBe('bf-b');
  });

  test('numbers and nested arrays count as cpu-js inputs', () => {
    // built-in order: cpu-js (registered first), bf-a, bf-b
    expect(backendFor(1, onB, [2]).name).toBe('cpu-js');
    configure({ backendPriority: ['bf-b'] });
    expect(backendFor(1, onB, [2]).name).toBe('bf-b');
  });

  test('the highest-priority input wins, under the priorities in force', () => {
    // built-in order: cpu-js, bf-a, bf-b (neither declares a priority)
    expect(backendFor(onB, onA).name).toBe('bf-a');
    expect(backendFor(onA, onB).name).toBe('bf-a');
    expect(backendFor(onA, x, onB).name).toBe('cpu-js');
    // config.backendPriority is lowest first
    configure({ backendPriority: ['bf-a', 'bf-b'] });
    expect(backendFor(onA, onB).name).toBe('bf-b');
    expect(backendFor(onA, x, onB).name).toBe('bf-b');
    configure({ backendPriority: ['bf-b', 'bf-a'] });
    expect(backendFor(onB, onA).name).toBe('bf-a');
    expect(withBackend('bf-b', () => backendFor(onA, onB).name)).toBe('bf-b');
    // the cache follows the scope back out
    expect(backendFor(onB, onA).name).toBe('bf-a');
  });

  test('a declared priority counts under the default config', () => {
    // registered again in the order bf-b (declared above cpu-js), bf-a: bf-b, cpu-js, bf-a
    unregisterBackend('bf-a');
    unregisterBackend('bf-b');
    registerBackend({ ...bfB, higherPriorityThan: ['cpu-js'] });
    registerBackend({ name: 'bf-a', device: 'cpu', kernels: ['ew'], supports: '*' });
    expect(backendFor(onA, x, onB).name).toBe('bf-b');
    expect(backendFor(x, onA).name).toBe('cpu-js');
  });

  test('with the default config cpu-js ranks before undeclared backends', () => {
    expect(backendFor(onA, x).name).toBe('cpu-js');
    expect(backendFor(x, onA).name).toBe('cpu-js');
  });

  test('an owned value type counts as its owner', () => {
    expect(backendFor(new BfTensor()).name).toBe('bf-b');
    // bf-a ranks before bf-b
    expect(backendFor(new BfTensor(), onA).name).toBe('bf-a');
    configure({ backendPriority: ['bf-b'] });
    expect(backendFor(onA, new BfTensor()).name).toBe('bf-b');
    expect(backendFor({}).name).toBe('cpu-js');
  });

  test('a plain object is owned by value, not by its prototype', () => {
    expect(backendFor({ bfBrand: true }).name).toBe('bf-b');
    expect(backendFor({}).name).toBe('cpu-js');
    expect(backendFor({ bfBrand: true }).name).toBe('bf-b');
  });

  test('owns is asked once per class, and for every plain object', () => {
    const seen: unknown[] = [];
    registerBackend({
      name: 'bf-count',
      device: 'cpu',
      kernels: ['ew'],
      supports: '*',
      owns: (v) => {
        seen.push(v);
        return false;
      },
    });
    try {
      for (let i = 0; i < 3; i++) expect(backendFor(new BfTensor()).name).toBe('bf-b');
      for (let i = 0; i < 3; i++) expect(backendFor({ i }).name).toBe('cpu-js');
      // bf-count comes after bf-b: BfTensor's owner is found before it is asked
      expect(seen.filter((v) => v instanceof BfTensor)).toHaveLength(0);
      expect(seen.filter((v) => !(v instanceof BfTensor))).toHaveLength(3);
      class Other {}
      for (let i = 0; i < 3; i++) expect(backendFor(new Other()).name).toBe('cpu-js');
      expect(seen.filter((v) => v instanceof Other)).toHaveLength(1);
    } finally {
      unregisterBackend('bf-count');
    }
  });
});
