// A call's { backend }: the named backend runs every operation of the call it implements, or
// the call fails with a ValueError naming it and its reason (explicit means no silent fallback).

import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fuseLayers } from '../../src/graph/fuse.ts';
import type { Layer } from '../../src/graph/layer.ts';
import { layerGraph, sortedLayers } from '../../src/graph/layer-graph.ts';
import {
  add,
  type Backend,
  fromArray,
  greater,
  type LazyArray,
  matmul,
  max,
  mean,
  multiply,
  ones,
  registerBackend,
  sqrt,
  sum,
  tensordot,
  unregisterBackend,
  where,
  withBackend,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';

const BACKENDS: Backend[] = [
  {
    name: 'exp-all',
    device: 'cpu',
    kernels: ['ew', 'reduce-partial', 'matmul', 'einsum'],
    supports: '*',
  },
  { name: 'exp-ew', device: 'cpu', kernels: ['ew'], supports: '*' },
  { name: 'exp-mm', device: 'cpu', kernels: ['matmul'], supports: '*' },
  {
    name: 'exp-f32',
    device: 'cpu',
    kernels: ['ew', 'reduce-partial'],
    supports: '*',
    canRun: (_op, m) => m.dtype === 'float32' || 'only float32',
  },
  {
    name: 'exp-lazy',
    device: 'cpu',
    kernels: ['ew'],
    supports: '*',
    shouldRun: () => 'blocks too small',
    requiresOptIn: true,
  },
];

beforeEach(() => {
  for (const b of BACKENDS) registerBackend(b);
});
afterEach(() => {
  for (const b of BACKENDS) unregisterBackend(b.name);
});

const x = fromArray([1, 2, 3, 4, 5, 6], { chunks: 2 });
const m = ones([4, 4], { chunks: 2 });

/** Backend name of every layer the expression builds that dispatch decided. */
function backendsOf(y: LazyArray): string[] {
  const names = new Set<string>();
  for (const l of sortedLayers(layerGraph([y.layer])) as Layer[])
    if (l.backend !== undefined && l.op !== 'from-array') names.add(l.backend.name);
  return [...names];
}

describe('the named backend runs the call', () => {
  const calls: [string, (backend: string) => LazyArray][] = [
    ['add', (backend) => add(x, 1, { backend })],
    ['multiply', (backend) => multiply(x, x, { backend })],
    ['sqrt', (backend) => sqrt(x, { backend })],
    ['where', (backend) => where(greater(x, 2), x, 0, { backend })],
    ['sum', (backend) => sum(x, { backend })],
    ['max over an axis', (backend) => max(m, { axis: 1, backend })],
    ['mean', (backend) => mean(x, { backend })],
    ['matmul', (backend) => matmul(m, m, { backend })],
    ['tensordot', (backend) => tensordot(m, m, { axes: 1, backend })],
  ];

  test.each(calls)('%s', (_, call) => {
    const { value, decisions } = withBackend({ trace: true }, () => call('exp-all'));
    expect(value.layer.backend?.name).toBe('exp-all');
    const own = decisions.filter((d) => d.reason === 'explicit');
    expect(own.length).toBeGreaterThan(0);
    for (const d of own) expect(d.backend).toBe('exp-all');
  });

  test('every layer of a reduction tree is on the named backend', () => {
    const s = sum(ones([64], { chunks: 2 }), { backend: 'exp-all' });
    expect(backendsOf(s)).toEqual(['exp-all']);
    // and stays so after fusion
    for (const l of sortedLayers(layerGraph(fuseLayers([s.layer]))) as Layer[])
      if (l.op.includes('sum')) expect(l.backend?.name).toBe('exp-all');
  });

  test('the method form takes the option too', () => {
    expect(x.add(1, { backend: 'exp-all' } as never).layer.backend?.name).toBe('exp-all');
  });

  test('the option ends with the call', () => {
    add(x, 1, { backend: 'exp-all' });
    expect(add(x, 1).layer.backend?.name).toBe('cpu-js');
  });

  test('explicit beats a withBackend that disables the backend', () => {
    const y = withBackend({ disable: 'exp-all' }, () => add(x, 1, { backend: 'exp-all' }));
    expect(y.layer.backend?.name).toBe('exp-all');
  });

  test('an opt-in backend that asks to defer still runs when named', () => {
    const { value, decisions } = withBackend({ trace: true }, () =>
      add(x, 1, { backend: 'exp-lazy' }),
    );
    expect(value.layer.backend?.name).toBe('exp-lazy');
    expect(decisions[0]!.tried).toEqual([
      { backend: 'exp-lazy', verdict: 'asked to defer (blocks too small), run as named' },
    ]);
  });

  test('operations of the call the backend does not implement are chosen as usual', () => {
    // exp-ew has no reduce-partial, and sum builds no elementwise layer
    expectThrow(() => sum(x, { backend: 'exp-ew' }), 'ValueError', [
      "sum: backend 'exp-ew' does not implement sum",
    ]);
  });
});

describe('no silent fallback', () => {
  const cases: [string, () => unknown, string[]][] = [
    [
      'canRun says no',
      () => add(x, 1, { backend: 'exp-f32' }),
      ["add: backend 'exp-f32' cannot run 'ew': only float32"],
    ],
    [
      'canRun says no, on a reduction',
      () => sum(x, { backend: 'exp-f32' }),
      ["sum: backend 'exp-f32' cannot run 'reduce-partial': only float32"],
    ],
    [
      'the backend implements none of the operations',
      () => matmul(m, m, { backend: 'exp-ew' }),
      ["matmul: backend 'exp-ew' does not implement matmul"],
    ],
    [
      'an unknown backend',
      () => add(x, 1, { backend: 'exp-nope' }),
      ["add: no backend named 'exp-nope'", 'exp-all'],
    ],
    [
      'not a name',
      () => add(x, 1, { backend: 3 as never }),
      ['add: backend must be a backend name', '3'],
    ],
  ];

  test('tensordot runs the einsum kernel: a backend with only matmul does not implement it', () => {
    expectThrow(() => tensordot(m, m, { axes: 1, backend: 'exp-mm' }), 'ValueError', [
      "tensordot: backend 'exp-mm' does not implement tensordot",
    ]);
    expect(matmul(m, m, { backend: 'exp-mm' }).layer.backend?.name).toBe('exp-mm');
  });

  test.each(cases)('%s is a ValueError naming the backend', (_, f, fragments) => {
    expectThrow(f, 'ValueError', fragments);
  });

  test('the float32 backend does run float32 calls', () => {
    const y = add(x.astype('float32'), 1, { backend: 'exp-f32' });
    expect(y.layer.backend?.name).toBe('exp-f32');
  });
});
