// Input validation runs once, before dispatch: the same bad input raises the same tagged
// error whichever backend is in force, and no backend is even asked about it.

import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  add,
  fromArray,
  isTesseraError,
  listBackends,
  matmul,
  mean,
  type OpMeta,
  ones,
  registerBackend,
  reshape,
  sum,
  tensordot,
  unregisterBackend,
  withBackend,
} from '../../src/index.ts';

const asked: string[] = [];
const ALL = ['ew', 'reduce-partial', 'matmul', 'einsum'];

beforeEach(() => {
  asked.length = 0;
  registerBackend({
    name: 'val-yes',
    device: 'cpu',
    kernels: ALL,
    supports: '*',
    canRun: (op: string, _m: OpMeta) => {
      asked.push(op);
      return true;
    },
  });
  registerBackend({
    name: 'val-no',
    device: 'cpu',
    kernels: ALL,
    supports: '*',
    canRun: (op: string) => {
      asked.push(op);
      return 'refuses everything';
    },
  });
});
afterEach(() => {
  unregisterBackend('val-yes');
  unregisterBackend('val-no');
});

const x = fromArray([1, 2, 3, 4, 5, 6], { chunks: 2 });
const a = ones([2, 3], { chunks: 2 });
const b = ones([4, 2], { chunks: 2 });

/** Bad calls; `backend` is passed as the call's option where the function takes one. */
const badInputs: [string, (backend?: string) => unknown, string][] = [
  [
    'add(x, "a")',
    (backend) => add(x, 'a' as never, { ...(backend ? { backend } : {}) }),
    'ValueError',
  ],
  [
    'add of mismatched shapes',
    (backend) => add(x, a, { ...(backend ? { backend } : {}) }),
    'ShapeError',
  ],
  [
    'sum(x, { axis: 5 })',
    (backend) => sum(x, { axis: 5, ...(backend ? { backend } : {}) }),
    'ValueError',
  ],
  [
    'mean(x, { axis: [0, 0] })',
    (backend) => mean(x, { axis: [0, 0], ...(backend ? { backend } : {}) }),
    'ValueError',
  ],
  [
    'matmul of mismatched shapes',
    (backend) => matmul(a, b, { ...(backend ? { backend } : {}) }),
    'ShapeError',
  ],
  [
    'matmul of a scalar',
    (backend) => matmul(3 as never, b, { ...(backend ? { backend } : {}) }),
    'ValueError',
  ],
  [
    'tensordot over too many axes',
    (backend) => tensordot(a, b, { axes: 3, ...(backend ? { backend } : {}) }),
    'ValueError',
  ],
  ['reshape to a wrong size', () => reshape(x, [4]), 'ShapeError'],
];

function caught(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

describe('the same error on every backend', () => {
  test.each(badInputs)('%s', (_, call, tag) => {
    const reference = caught(() => call());
    expect(isTesseraError(reference, tag), String(reference)).toBe(true);
    const names = listBackends().map((b) => b.name);
    expect(names).toEqual(expect.arrayContaining(['cpu-js', 'val-yes', 'val-no']));
    for (const name of names) {
      const e = caught(() => withBackend(name, () => call()));
      expect(e.constructor, name).toBe(reference.constructor);
      expect(e.message, name).toBe(reference.message);
    }
    // named in the call, even one that refuses everything: the input is checked first
    for (const name of ['val-yes', 'val-no']) {
      const e = caught(() => call(name));
      expect(e.message, name).toBe(reference.message);
    }
    expect(asked).toEqual([]);
  });

  test('a good input does ask the backends (the table above can fail)', () => {
    withBackend('val-yes', () => add(x, 1));
    expect(asked).toEqual(['ew']);
  });
});
