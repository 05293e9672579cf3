// A backend's kernels: its module is imported only when one of its tasks runs (on 'sync' and
// on 'threads'), its kernels run the tasks it was chosen for, and the values match cpu-js.

import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import { knownOperations } from '../../src/dispatch/default.ts';
import {
  add,
  type ComputeOptions,
  compute,
  fromArray,
  type LazyArray,
  multiply,
  ones,
  rechunk,
  registerBackend,
  reshape,
  sqrt,
  sum,
  unregisterBackend,
} from '../../src/index.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import type { RecordingState } from '../fixtures/backend-recording.ts';
import { arbShapeAndChunks, randomDense } from '../helpers/reference.ts';

const fixture = (file: string): string => new URL(`../fixtures/${file}`, import.meta.url).href;
// what test/fixtures/backend-offset.ts adds (not imported here: that would load it on this thread)
/** The stored elements as plain numbers (what Array.from(data) gave before int64). */
const raw = (a: NDArray): number[] => Array.from(a.data as NumberArray);
const OFFSET = 1000;
const REC = 'bk-rec';
const OFF = 'bk-off';
const MISSING = 'bk-missing';
// the recording module again, listing the kernels fusion makes (all of them, or ew-reduce only)
const FOLD = 'bk-fold';
const HALF = 'bk-half';
// the offset module, listing ew-reduce (which it does not have: cpu-js runs it) but not ew-view
const OFF_HALF = 'bk-off-half';
const ALL = [REC, OFF, MISSING, FOLD, HALF, OFF_HALF];
const sync: ComputeOptions = { scheduler: 'sync' };
const threads: ComputeOptions = { scheduler: 'threads', workers: 2 };
const schedulers: [string, ComputeOptions][] = [
  ['sync', sync],
  ['threads', threads],
];

const g = globalThis as {
  __tesseraRecordingBackend?: RecordingState;
  __tesseraOffsetImports?: number;
};
const recorded = (): RecordingState | undefined => g.__tesseraRecordingBackend;

beforeEach(() => {
  registerBackend({
    name: REC,
    device: 'cpu',
    kernels: ['ew', 'reduce-partial'],
    supports: '*',
    module: fixture('backend-recording.ts'),
  });
  registerBackend({
    name: OFF,
    device: 'cpu',
    kernels: ['ew'],
    supports: '*',
    module: fixture('backend-offset.ts'),
  });
  registerBackend({
    name: MISSING,
    device: 'cpu',
    kernels: ['ew'],
    supports: '*',
    module: fixture('backend-no-such-module.ts'),
  });
  registerBackend({
    name: FOLD,
    device: 'cpu',
    kernels: ['ew', 'reduce-partial', 'ew-view', 'ew-reduce', 'ew-reduce-views'],
    supports: '*',
    module: fixture('backend-recording.ts'),
  });
  registerBackend({
    name: HALF,
    device: 'cpu',
    kernels: ['ew', 'reduce-partial', 'ew-reduce'],
    supports: '*',
    module: fixture('backend-recording.ts'),
  });
  registerBackend({
    name: OFF_HALF,
    device: 'cpu',
    kernels: ['ew', 'ew-reduce'],
    supports: '*',
    module: fixture('backend-offset.ts'),
  });
  if (recorded()) recorded()!.calls = [];
});
afterEach(() => {
  for (const n of ALL) unregisterBackend(n);
});
afterAll(() => shutdownDefaultPool());

const data = randomDense([12, 10], 'float64', 11);
const src = fromArray(data, { chunks: [4, 5] });
// a cpu-js layer, so the backend's layer does not fuse with the source view
const base = src.add(0);

describe('lazy loading', () => {
  test('registering and building import nothing; compute on sync imports once', async () => {
    expect(recorded()).toBeUndefined();
    const y = add(base, 1, { backend: REC });
    expect(recorded()).toBeUndefined();
    await compute(y, sync);
    expect(recorded()?.imports).toBe(1);
    await compute(sum(base, { backend: REC }), sync);
    expect(recorded()?.imports).toBe(1);
  });

  test('on threads the module is imported in the workers, not here', async () => {
    const y = add(base, 1, { backend: OFF });
    const out = await compute(y, threads);
    // the offset shows the backend's kernel ran …
    expect(out.data[0]).toBe((data.data as NumberArray)[0]! + 1 + OFFSET);
    // … and this thread imported nothing more
    expect(g.__tesseraOffsetImports).toBeUndefined();
  });

  test('a module that cannot load fails the compute, naming the backend', async () => {
    const y = add(base, 1, { backend: MISSING });
    await expect(compute(y, sync)).rejects.toMatchObject({
      _tag: 'TaskError',
      message: expect.stringContaining(`backend '${MISSING}' cannot load its kernels`),
    });
  });
});

describe("the chosen backend's kernels run its tasks", () => {
  test.each(schedulers)(
    '%s: the offset backend changes the values it was chosen for',
    async (_, opts) => {
      const y = multiply(add(base, 1, { backend: OFF }), 2);
      const out = await compute(y, opts);
      for (let i = 0; i < data.size; i++)
        expect(out.data[i]).toBe(((data.data as NumberArray)[i]! + 1 + OFFSET) * 2);
    },
  );

  test('sync: one recorded call per block, per kernel', async () => {
    const blocks = base.numBlocks.reduce((a, b) => a * b, 1);
    await compute(add(base, 1, { backend: REC }), sync);
    expect(recorded()!.calls).toEqual(Array(blocks).fill('ew'));
    recorded()!.calls = [];
    await compute(sum(base, { axis: 0, backend: REC }), sync);
    expect(recorded()!.calls.filter((c) => c === 'reduce-partial')).toHaveLength(blocks);
  });

  test('a fused chain on the backend runs its kernel for every step', async () => {
    const y = sqrt(add(base, 1, { backend: REC }), { backend: REC });
    await compute(y, sync);
    expect(recorded()!.calls.length).toBeGreaterThan(0);
    expect(new Set(recorded()!.calls)).toEqual(new Set(['ew']));
  });

  // A backend that lists none of the kernels fusion makes ('ew-view', 'ew-reduce', …) keeps
  // its steps as its own kernels next to a source: its kernel runs, not a cpu-js fold.
  test.each(schedulers)(
    '%s: add on a fromArray source (no ew-view) runs the backend kernel',
    async (_, opts) => {
      const out = await compute(add(src, 1, { backend: OFF }), opts);
      for (let i = 0; i < data.size; i++)
        expect(out.data[i]).toBe((data.data as NumberArray)[i]! + 1 + OFFSET);
    },
  );

  test.each(schedulers)(
    '%s: a slice of a source, then add, runs the backend kernel',
    async (_, opts) => {
      const out = await compute(add(src.get('1:9, 2:'), 1, { backend: OFF }), opts);
      const ref = await compute(add(src.get('1:9, 2:'), 1), opts);
      expect(out.shape).toEqual(ref.shape);
      for (let i = 0; i < out.size; i++) expect(out.data[i]).toBe(Number(ref.data[i]) + OFFSET);
    },
  );

  const reducedSources: [string, () => LazyArray][] = [
    ['sum of a fromArray source (no ew-reduce)', () => sum(src, { backend: REC })],
    [
      'sum of ones (no tiled source reduction)',
      () => sum(ones([8], { chunks: 2 }), { backend: REC }),
    ],
    ['sum of add on a source', () => sum(add(src, 1, { backend: REC }), { backend: REC })],
  ];
  test.each(reducedSources)('%s runs reduce-partial on the backend', async (_, make) => {
    await compute(make(), sync);
    expect(recorded()!.calls).toContain('reduce-partial');
    expect(recorded()!.calls).not.toContain('ew-reduce');
    expect(recorded()!.calls).not.toContain('ew-view');
  });

  test('a backend listing the fusion kernels gets them: ew-view, then ew-reduce', async () => {
    const y = add(src, 1, { backend: FOLD });
    const out = await compute(y, sync);
    expect(new Set(recorded()!.calls)).toEqual(new Set(['ew-view']));
    expect(raw(out)).toEqual(raw(await compute(add(src, 1), sync)));
    recorded()!.calls = [];
    const s = sum(add(src, 1, { backend: FOLD }), { backend: FOLD });
    const total = await compute(s, sync);
    expect(recorded()!.calls).toContain('ew-reduce');
    expect(recorded()!.calls).not.toContain('ew');
    expect(total.data[0]).toBe((await compute(sum(add(src, 1)), sync)).data[0]);
  });

  // views fold only for a backend listing both 'ew-view' and 'ew-reduce': otherwise cpu-js
  // would run the folded steps and the backend's own 'ew' never would
  test.each(schedulers)(
    '%s: a backend listing ew-reduce but not ew-view runs its own ew next to a source',
    async (_, opts) => {
      const out = await compute(add(src, 1, { backend: OFF_HALF }), opts);
      for (let i = 0; i < data.size; i++)
        expect(out.data[i]).toBe((data.data as NumberArray)[i]! + 1 + OFFSET);
    },
  );

  test('a backend listing ew-reduce but not ew-view gets no ew-view steps', async () => {
    await compute(add(src, 1, { backend: HALF }), sync);
    expect(recorded()!.calls).toContain('ew');
    expect(recorded()!.calls).not.toContain('ew-view');
  });

  test('a backend listing ew-reduce but not ew-view: its ew runs next to a cpu-js layer', async () => {
    const out = await compute(add(base, 1, { backend: OFF_HALF }), sync);
    for (let i = 0; i < data.size; i++)
      expect(out.data[i]).toBe((data.data as NumberArray)[i]! + 1 + OFFSET);
  });
});

describe('values match cpu-js', () => {
  const on = (backend?: string) => (backend ? { backend } : {});
  const exprs: [string, (b?: string) => LazyArray][] = [
    ['add', (backend) => add(base, 2.5, backend ? { backend } : {})],
    ['add on a source', (backend) => add(src, 2.5, on(backend))],
    ['sum of a source', (backend) => sum(src, on(backend))],
    ['sum of a source over an axis', (backend) => sum(src, { axis: 0, ...on(backend) })],
    ['sum of ones', (backend) => sum(ones([8, 6], { chunks: [3, 4] }), on(backend))],
    ['sum of a chain on a source', (backend) => sum(add(src, 1, on(backend)).mul(2), on(backend))],
    ['a chain', (backend) => sqrt(add(base.mul(base), 1, backend ? { backend } : {}))],
    ['sum over an axis', (backend) => sum(base, { axis: 1, ...(backend ? { backend } : {}) })],
    [
      'sum of a chain',
      (backend) => sum(add(base, 3, backend ? { backend } : {}), backend ? { backend } : {}),
    ],
  ];
  for (const [sched, opts] of schedulers) {
    for (const backend of [REC, FOLD, HALF]) {
      test.each(exprs)(`${sched}, ${backend}: %s`, async (_, make) => {
        const reference = await compute(make(), sync);
        const y = make(backend);
        expect(y.name).not.toBe(make().name);
        const out = await compute(y, opts);
        expect(out.shape).toEqual(reference.shape);
        expect(out.dtype).toBe(reference.dtype);
        expect(raw(out)).toEqual(raw(reference));
      });
    }
  }
});

describe('loading a backend does not change what tessera knows', () => {
  // the sync executor loads backend kernels into the shared built-in registry as 'name/kernel';
  // knownOperations() lists cpu-js's own kernels only, so registerBackend refuses those names
  test('after a sync compute, "bk-rec/ew" is still not a known operation', async () => {
    await compute(add(base, 1, { backend: REC }), sync);
    try {
      expect(knownOperations().has(`${REC}/ew`)).toBe(false);
      expect(() =>
        registerBackend({
          name: 'bk-sneaky',
          device: 'cpu',
          kernels: [`${REC}/ew`],
          supports: '*',
        }),
      ).toThrow(/which tessera does not know/);
    } finally {
      unregisterBackend('bk-sneaky');
    }
  });

  test('before any compute, "bk-x/ew" is not a kernel name', () => {
    expect(() =>
      registerBackend({ name: 'bk-sneaky', device: 'cpu', kernels: ['bk-x/ew'], supports: '*' }),
    ).toThrow(/which tessera does not know/);
  });
});

describe('glue layers around a backend layer keep its kernel', () => {
  const on = (backend?: string) => (backend ? { backend } : {});
  // each case: the expression, built on the offset backend or on cpu-js, and how far apart
  const cases: [string, (b?: string) => LazyArray, number][] = [
    ['a slice after', (b) => add(base, 1, on(b)).get('1:7, 2:'), OFFSET],
    ['a reshape after', (b) => reshape(add(base, 1, on(b)), [10, 12]), OFFSET],
    ['a rechunk after', (b) => rechunk(add(base, 1, on(b)), [6, 10]), OFFSET],
    ['a cpu-js multiply after', (b) => add(base, 1, on(b)).mul(2), 2 * OFFSET],
    ['a slice before', (b) => add(base.get('2:, :'), 1, on(b)), OFFSET],
    ['a cast before', (b) => add(base.astype('float32'), 1, on(b)), OFFSET],
  ];
  test.each(cases)('%s', async (_, make, delta) => {
    const reference = await compute(make(), sync);
    const out = await compute(make(OFF), sync);
    expect(out.shape).toEqual(reference.shape);
    // a float32 result rounds once more when the offset is added
    const round = out.dtype === 'float32' ? Math.fround : (v: number) => v;
    for (let i = 0; i < out.size; i++)
      expect(out.data[i]).toBe(round(Number(reference.data[i]) + delta));
  });
});

describe('property: the recording backend computes what cpu-js computes', () => {
  test('random shapes and chunkings, sync', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 6), async (c) => {
        const x = fromArray(randomDense(c.shape, 'float64', c.seed), { chunks: c.chunks }).add(0);
        const make = (opts: { backend?: string }) =>
          sum(add(x, 0.5, opts).mul(3), { axis: 0, ...opts });
        const expected = await compute(make({}), sync);
        recorded()!.calls = [];
        const out = await compute(make({ backend: REC }), sync);
        expect(raw(out)).toEqual(raw(expected));
        expect(recorded()!.calls).toContain('ew');
      }),
      { numRuns: 25 },
    );
  });
});
