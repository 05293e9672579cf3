// Tests of sliceChunks / sliceBlock: chunk tables, and a property that assembles every
// output block from its input-block piece and compares with a dense NumPy-semantics slice.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { blocksOf, chunkOffsets } from '../../src/chunking/blocks.ts';
import type { IndexItem, SliceItem } from '../../src/chunking/parse-index.ts';
import {
  type AxisSelection,
  normalizeIndex,
  sliceBlock,
  sliceChunks,
} from '../../src/chunking/slicing.ts';
import type { Size } from '../../src/chunking/types.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { SLICE_CASES } from './numpy-index-cases.ts';

/** Reference: the positions list(range(n))[start:stop:step] selects, by brute force. */
function pySlice(n: number, item: SliceItem): number[] {
  const step = item.step ?? 1;
  const fix = (v: number | null | undefined, dflt: number): number => {
    if (v === null || v === undefined) return dflt;
    const w = v < 0 ? v + n : v;
    return step > 0 ? Math.min(Math.max(w, 0), n) : Math.min(Math.max(w, -1), n - 1);
  };
  const out: number[] = [];
  const start = fix(item.start, step > 0 ? 0 : n - 1);
  const stop = fix(item.stop, step > 0 ? n : -1);
  for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(i);
  return out;
}

test('the reference slice agrees with NumPy', () => {
  for (const [n, start, stop, step, expected] of SLICE_CASES) {
    expect(pySlice(n, { start, stop, step })).toEqual(expected);
  }
});

const slice = (start: number, step: number, count: number | null): AxisSelection => ({
  kind: 'slice',
  start,
  step,
  count,
});

describe('sliceChunks', () => {
  test.each([
    ['whole axis', [[4, 4, 2]], [slice(0, 1, 10)], [[4, 4, 2]]],
    ['inside one block', [[4, 4, 2]], [slice(5, 1, 2)], [[2]]],
    ['across blocks', [[4, 4, 2]], [slice(3, 1, 6)], [[1, 4, 1]]],
    ['step crossing blocks', [[4, 4, 2]], [slice(1, 3, 3)], [[1, 2]]],
    ['one piece per touched block', [[3, 3, 3]], [slice(1, 3, 3)], [[1, 1, 1]]],
    ['big step skips blocks', [[2, 2, 2, 2, 2]], [slice(0, 7, 2)], [[1, 1]]],
    ['reversed', [[4, 4, 2]], [slice(9, -1, 10)], [[2, 4, 4]]],
    ['reversed with step', [[4, 4, 2]], [slice(9, -3, 4)], [[1, 1, 2]]],
    ['empty', [[4, 4, 2]], [slice(0, 1, 0)], [[0]]],
    ['empty chunks skipped', [[3, 0, 3]], [slice(0, 1, 6)], [[3, 3]]],
    ['int drops the axis', [[4, 4], [3]], [{ kind: 'int', index: 5 }, slice(0, 2, 2)], [[2]]],
    [
      'unknown passes through',
      [[null, null], [4]],
      [slice(0, 1, null), slice(0, 1, 4)],
      [[null, null], [4]],
    ],
  ] as [string, Size[][], AxisSelection[], Size[][]][])('%s', (_, chunks, sel, expected) => {
    expect(sliceChunks(chunks, sel).chunks).toEqual(expected);
  });

  test('pieces and sliceBlock', () => {
    const plan = sliceChunks([[4, 4, 2]], [slice(9, -3, 4)]);
    expect(plan.axes[0]!.pieces).toEqual([
      { block: 2, start: 1, step: -3, count: 1 },
      { block: 1, start: 2, step: -3, count: 1 },
      { block: 0, start: 3, step: -3, count: 2 },
    ]);
    const plan2 = sliceChunks([[4, 4], [3]], [{ kind: 'int', index: 5 }, slice(0, 2, 2)]);
    expect(sliceBlock(plan2, [0])).toEqual({
      inputBlock: [1, 0],
      start: [1, 0],
      step: [1, 2],
      count: [1, 2],
    });
    const plan3 = sliceChunks([[null, 2]], [slice(0, 1, null)]);
    expect(sliceBlock(plan3, [1])).toEqual({ inputBlock: [1], start: [0], step: [1], count: [2] });
  });

  test.each([
    [() => sliceChunks([[3]], []), ['sliceChunks:', '0 selections', '1 axes']],
    [() => sliceChunks([[3]], [{ kind: 'array', indices: [0] }]), ['axis 0', 'take()']],
    [() => sliceChunks([[null]], [slice(0, 1, 1)]), ['unknown size']],
    [() => sliceBlock(sliceChunks([[3]], [slice(0, 1, 3)]), [1]), ['sliceBlock:', 'index 1']],
    [() => sliceBlock(sliceChunks([[3]], [slice(0, 1, 3)]), [0, 0]), ['2 indices', '1 axes']],
  ])('bad input %# throws IndexError', (f, fragments) => {
    expectThrow(f, 'IndexError', fragments);
  });
});

/** Random chunks of n, sometimes with empty chunks. */
const chunkingOf = (n: number): fc.Arbitrary<number[]> =>
  fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 12 }).map((sizes) => {
    const out: number[] = [];
    let left = n;
    for (const s of sizes) {
      const c = Math.min(s, left);
      out.push(c);
      left -= c;
    }
    if (left > 0 || out.length === 0) out.push(left);
    return out;
  });

const indexItem = (n: number): fc.Arbitrary<IndexItem> => {
  const bound = fc.option(fc.integer({ min: -n - 3, max: n + 3 }), { nil: undefined });
  const step = fc.option(
    fc.integer({ min: -5, max: 5 }).filter((s) => s !== 0),
    {
      nil: undefined,
    },
  );
  const slices = fc.record({ start: bound, stop: bound, step }, { requiredKeys: [] });
  return n > 0 ? fc.oneof(slices, slices, fc.integer({ min: -n, max: n - 1 })) : slices;
};

describe('sliceChunks: assembled blocks equal the dense slice', () => {
  test('1-D and 2-D', () => {
    const input = fc
      .array(fc.integer({ min: 0, max: 24 }), { minLength: 1, maxLength: 2 })
      .chain((shape) =>
        fc.tuple(
          fc.constant(shape),
          fc.tuple(...shape.map(chunkingOf)),
          fc.tuple(...shape.map(indexItem)),
        ),
      );
    fc.assert(
      fc.property(input, ([shape, chunks, index]) => {
        // dense reference over the index grid x[i, j] = i * shape[1] + j
        const perAxis = index.map((it, ax) =>
          typeof it === 'number'
            ? [it < 0 ? it + shape[ax]! : it]
            : pySlice(shape[ax]!, it as SliceItem),
        );
        const kept = index.flatMap((it, ax) => (typeof it === 'number' ? [] : [ax]));
        const flat = (idx: number[]) => idx.reduce((f, i, ax) => f * shape[ax]! + i, 0);
        const outShape = kept.map((ax) => perAxis[ax]!.length);
        const expected = new Map<string, number>();
        const fill = (ax: number, idx: number[], out: number[]): void => {
          if (ax === shape.length) {
            expected.set(out.join(','), flat(idx));
            return;
          }
          perAxis[ax]!.forEach((p, k) => {
            fill(ax + 1, [...idx, p], typeof index[ax] === 'number' ? out : [...out, k]);
          });
        };
        fill(0, [], []);

        const norm = normalizeIndex('get', index, shape);
        const plan = sliceChunks(chunks, norm.axes);
        expect(plan.chunks.map((c) => c.reduce((a: number, b) => a + b!, 0))).toEqual(outShape);
        const got = new Map<string, number>();
        const outOffsets = plan.chunks.map((c) => chunkOffsets(c as number[]));
        const inOffsets = chunks.map((c) => chunkOffsets(c));
        for (const ob of blocksOf(plan.chunks.map((c) => c.length))) {
          const bs = sliceBlock(plan, ob);
          const counts = bs.count as number[];
          bs.inputBlock.forEach((b, ax) => {
            const size = chunks[ax]![b]!;
            const lastLocal = bs.start[ax]! + (counts[ax]! - 1) * bs.step[ax]!;
            if (counts[ax]! > 0) {
              // the piece lies inside its input block and is non-empty unless all is empty
              for (const p of [bs.start[ax]!, lastLocal]) {
                expect(p).toBeGreaterThanOrEqual(0);
                expect(p).toBeLessThan(size);
              }
            }
          });
          const walk = (ax: number, idx: number[], out: number[]): void => {
            if (ax === shape.length) {
              got.set(out.join(','), flat(idx));
              return;
            }
            const k0 = kept.indexOf(ax);
            for (let k = 0; k < counts[ax]!; k++) {
              const local = bs.start[ax]! + k * bs.step[ax]!;
              const global = inOffsets[ax]![bs.inputBlock[ax]!]! + local;
              const o = k0 < 0 ? out : [...out, outOffsets[k0]![ob[k0]!]! + k];
              walk(ax + 1, [...idx, global], o);
            }
          };
          walk(0, [], []);
        }
        expect(got).toEqual(expected);
        // every output block is non-empty unless its axis selects nothing
        plan.chunks.forEach((c, k) => {
          if (outShape[k]! > 0) expect(c.every((v) => v! > 0)).toBe(true);
          else expect(c).toEqual([0]);
        });
      }),
      { numRuns: 300 },
    );
  });
});
