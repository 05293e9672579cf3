// The decision is made when the expression is built: recorded on the layer, shown by
// visualize(), part of the array's name; and fusion stays within one backend (task counts).

import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { joinBackends } from '../../src/graph/join-backends.ts';
import type { BackendRef } from '../../src/graph/layer.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import {
  add,
  configure,
  fromArray,
  type LazyArray,
  multiply,
  registerBackend,
  resetConfig,
  sum,
  unregisterBackend,
  withBackend,
} from '../../src/index.ts';

const NAMES = ['lay-a', 'lay-b'];
beforeEach(() => {
  for (const name of NAMES)
    registerBackend({ name, device: 'cpu', kernels: ['ew', 'reduce-partial'], supports: '*' });
});
afterEach(() => {
  for (const n of NAMES) unregisterBackend(n);
  resetConfig();
});

const x = fromArray(
  Float64Array.from({ length: 8 }, (_, i) => i),
  { chunks: 2 },
);
const tasks = (...ys: LazyArray[]): number =>
  runnableCount(materializeTasks(fuseLayers(ys.map((y) => y.layer))));

describe('decided when built', () => {
  test('the layer keeps its backend when the priorities change later', () => {
    const y = withBackend('lay-a', () => add(x, 1));
    configure({ backendPriority: ['lay-b'] });
    expect(y.layer.backend).toEqual({ name: 'lay-a', device: 'cpu' });
    expect(add(x, 1).layer.backend?.name).toBe('lay-b');
  });

  test('visualize shows the backend of each layer', () => {
    const y = multiply(add(x, 1, { backend: 'lay-a' }), 2, { backend: 'lay-b' });
    const dot = y.visualize();
    expect(dot).toMatch(/label = "add\\n[^"]*\\nlay-a"/);
    expect(dot).toMatch(/label = "multiply\\n[^"]*\\nlay-b"/);
    expect(add(x, 1).visualize()).toContain('cpu-js');
  });
});

describe('the backend is part of the name', () => {
  const build: [string, (backend?: string) => LazyArray][] = [
    ['add', (backend) => add(x, 1, backend ? { backend } : {})],
    ['sum', (backend) => sum(x, backend ? { backend } : {})],
  ];

  test.each(build)('%s: same expression and backend, same name', (_, f) => {
    expect(f('lay-a').name).toBe(f('lay-a').name);
    expect(withBackend('lay-a', () => f()).name).toBe(f('lay-a').name);
    expect(f().name).toBe(f().name);
  });

  test.each(build)('%s: another backend, another name', (_, f) => {
    const names = new Set([f().name, f('lay-a').name, f('lay-b').name]);
    expect(names.size).toBe(3);
  });

  test('names downstream of a backend differ too', () => {
    const onA = add(x, 1, { backend: 'lay-a' }).mul(2);
    const onJs = add(x, 1).mul(2);
    expect(onA.layer.backend?.name).toBe('cpu-js');
    expect(onA.name).not.toBe(onJs.name);
  });
});

describe('fusion stays within one backend', () => {
  const blocks = x.numBlocks[0]!;

  test('a chain on one backend is one task per block', () => {
    const y = multiply(add(x, 1, { backend: 'lay-a' }), 2, { backend: 'lay-a' });
    expect(tasks(y)).toBe(blocks);
    // cpu-js chains too
    expect(tasks(add(x, 1).mul(2).add(3))).toBe(blocks);
  });

  test.each([
    ['lay-a then lay-b', 'lay-a', 'lay-b'],
    ['lay-a then cpu-js', 'lay-a', 'cpu-js'],
    ['cpu-js then lay-b', 'cpu-js', 'lay-b'],
  ])('%s: two tasks per block', (_, first, second) => {
    const y = multiply(add(x, 1, { backend: first }), 2, { backend: second });
    expect(tasks(y)).toBe(2 * blocks);
  });

  test('three backends in a row: three tasks per block', () => {
    const y = add(multiply(add(x, 1, { backend: 'lay-a' }), 2, { backend: 'lay-b' }), 3, {
      backend: 'lay-a',
    });
    expect(tasks(y)).toBe(3 * blocks);
  });

  test('a fused group keeps its backend', () => {
    const y = multiply(add(x, 1, { backend: 'lay-a' }), 2, { backend: 'lay-a' });
    const [fused] = fuseLayers([y.layer]);
    expect(fused!.backend?.name).toBe('lay-a');
    const split = multiply(add(x, 1, { backend: 'lay-a' }), 2, { backend: 'lay-b' });
    const [top] = fuseLayers([split.layer]);
    expect(top!.backend?.name).toBe('lay-b');
    expect(top!.deps.map((d) => d.backend?.name)).toEqual(['lay-a']);
  });

  test('a reduction on another backend than its input does not absorb it', () => {
    const onA = sum(add(x, 1, { backend: 'lay-a' }), { backend: 'lay-a' });
    const split = sum(add(x, 1, { backend: 'lay-a' }), { backend: 'lay-b' });
    expect(tasks(split)).toBe(tasks(onA) + blocks);
  });
});

describe('joinBackends', () => {
  const cpuA: BackendRef = { name: 'a', device: 'cpu' };
  const cpuB: BackendRef = { name: 'b', device: 'cpu' };
  const gpu: BackendRef = { name: 'g', device: 'gpu' };
  test.each([
    ['glue with glue', undefined, undefined, undefined],
    ['glue with a cpu backend', undefined, cpuA, cpuA],
    ['a cpu backend with glue', cpuA, undefined, cpuA],
    ['the same backend', cpuA, { ...cpuA }, cpuA],
    ['two cpu backends', cpuA, cpuB, false],
    ['glue with a gpu backend', undefined, gpu, false],
    ['a gpu backend with glue', gpu, undefined, false],
    ['gpu with itself', gpu, gpu, gpu],
  ] as const)('%s', (_, a, b, expected) => {
    expect(joinBackends(a, b)).toEqual(expected);
  });
});
