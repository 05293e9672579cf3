// einsum against a brute-force dense einsum: explicit and implicit outputs, diagonals,
// single-operand sums, three operands, dtype promotion, the partial-sum tree and errors.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { einsum, parseSubscripts } from '../../src/apply/einsum.ts';
import { compute } from '../../src/array/compute.ts';
import { type DType, resultType } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray, randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';
import { denseEinsum } from './contraction-reference.ts';

/** Random operands for `terms` with one size per letter; repeated letters share chunks. */
function operands(
  terms: readonly string[],
  sizes: Record<string, number>,
  dtypes: DType[],
  seed: number,
) {
  const r = rng(seed);
  const letterChunks = new Map<string, number[]>();
  return terms.map((t, i) => {
    const shape = [...t].map((l) => sizes[l]!);
    const dense = randomDense(shape, dtypes[i] ?? 'float64', seed + i);
    const chunks = [...t].map((l) => {
      // half the time the same chunks per letter, otherwise independent (aligned by rechunk)
      if (r() < 0.5 || t.split(l).length > 2) {
        if (!letterChunks.has(l)) letterChunks.set(l, randomAxisChunks(sizes[l]!, r));
        return letterChunks.get(l)!;
      }
      return randomAxisChunks(sizes[l]!, r);
    });
    return { dense, lazy: fromArray(dense, { chunks }) };
  });
}

const cases: [string, string[], string][] = [
  ['ij,jk->ik', ['ij', 'jk'], 'ik'],
  ['ij->ji', ['ij'], 'ji'],
  ['i,i->', ['i', 'i'], ''],
  ['bij,bjk->bik', ['bij', 'bjk'], 'bik'],
  ['ii->i', ['ii'], 'i'],
  ['ii->', ['ii'], ''],
  ['ij->i', ['ij'], 'i'],
  ['ij->', ['ij'], ''],
  ['ij,jk', ['ij', 'jk'], 'ik'],
  ['ba', ['ba'], 'ab'],
  ['ij,kj->ikj', ['ij', 'kj'], 'ikj'],
  ['i,j->ij', ['i', 'j'], 'ij'],
  ['ij,jk,kl->il', ['ij', 'jk', 'kl'], 'il'],
  ['bij,jk->bk', ['bij', 'jk'], 'bk'],
  ['iij,jk->ik', ['iij', 'jk'], 'ik'],
];

describe('einsum', () => {
  test.each(cases)(
    '%s matches the dense reference on random chunkings',
    async (subs, terms, out) => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            seed: fc.integer({ min: 1, max: 1e6 }),
            n: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 5, maxLength: 5 }),
          }),
          async ({ seed, n }) => {
            const sizes: Record<string, number> = {};
            'ijkbl'.split('').forEach((l, i) => {
              sizes[l] = n[i]!;
            });
            sizes.a = n[0]!;
            const ops = operands(terms, sizes, [], seed);
            const y = einsum(subs, ...ops.map((o) => o.lazy));
            const want = denseEinsum(
              terms,
              out,
              ops.map((o) => o.dense),
              'float64',
            );
            expect(y.shape).toEqual(want.shape);
            expectArray(await compute(y), want, 1e-10);
          },
        ),
        { numRuns: 8 },
      );
    },
  );

  test('parseSubscripts: implicit output is the letters used once, sorted', () => {
    expect(parseSubscripts('ij,jk', [2, 2])).toEqual({ terms: ['ij', 'jk'], out: 'ik' });
    expect(parseSubscripts(' ba ', [2])).toEqual({ terms: ['ba'], out: 'ab' });
    expect(parseSubscripts('ii', [2])).toEqual({ terms: ['ii'], out: '' });
  });

  test.each([
    ['int32', 'float32'],
    ['int8', 'uint8'],
    ['float32', 'float32'],
    ['bool', 'bool'],
  ] as const)('dtypes %s and %s promote', async (da, db) => {
    const ops = operands(['ij', 'jk'], { i: 3, j: 5, k: 2 }, [da, db], 9);
    const y = einsum('ij,jk->ik', ops[0]!.lazy, ops[1]!.lazy);
    const dt = resultType(da, db);
    expect(y.dtype).toBe(dt);
    expectArray(
      await compute(y),
      denseEinsum(['ij', 'jk'], 'ik', [ops[0]!.dense, ops[1]!.dense], dt),
      1e-5,
    );
  });

  test('a long contraction sums partial results in a tree', async () => {
    const a = randomDense([2, 30], 'float64', 1);
    const b = randomDense([30], 'float64', 2);
    const y = einsum('ij,j->i', fromArray(a, { chunks: [2, 3] }), fromArray(b, { chunks: 3 }));
    // 10 j blocks: 3 partials (4 + 4 + 2 pairs), then one sum
    expect(runnableCount(materializeTasks([y.layer]))).toBe(10 + 10 + 3 + 1);
    expectArray(await compute(y), denseEinsum(['ij', 'j'], 'i', [a, b], 'float64'), 1e-12);
  });

  test('names are deterministic and differ by subscripts', () => {
    const x = fromArray(randomDense([3, 3]), { chunks: 2 });
    expect(einsum('ij->ji', x).name).toBe(einsum('ij->ji', x).name);
    expect(einsum('ij->ji', x).name).not.toBe(einsum('ij->ij', x).name);
  });

  test.each([
    ['ij,jk->ik', [[2, 3]], 'ValueError', ["'ij,jk->ik'", '2 operands, got 1']],
    ['...ij->ij', [[2, 3]], 'ValueError', ['ellipsis']],
    ['i1->i', [[2, 3]], 'ValueError', ["contains '1'"]],
    ['ijk->i', [[2, 3]], 'ValueError', ["term 'ijk'", '2 dimensions']],
    ['ij->ik', [[2, 3]], 'ValueError', ["output letter 'k'"]],
    ['ij->ii', [[2, 3]], 'ValueError', ["'ii'", 'repeats']],
    [
      'ij,jk->ik',
      [
        [2, 3],
        [4, 2],
      ],
      'ShapeError',
      ["index 'j'", '3 and 4'],
    ],
    ['ii->i', [[2, 3]], 'ShapeError', ["index 'i'", '2 and 3']],
  ])('einsum(%s) on %j throws %s', (subs, shapes, tag, parts) => {
    const xs = (shapes as number[][]).map((s) => fromArray(randomDense(s)));
    expectThrow(() => einsum(subs as string, ...xs), tag as string, parts as string[]);
  });
});
