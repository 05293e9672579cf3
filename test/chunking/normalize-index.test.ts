// Tests of normalizeIndex against NumPy: output shapes and values of x[index] on an index grid
// (fixtures generated with NumPy 2.4), Python slice arithmetic, and bad indices.

import { describe, expect, test } from 'vitest';
import type { NormalizedIndex } from '../../src/chunking/normalize-index.ts';
import { normalizeIndex } from '../../src/chunking/normalize-index.ts';
import type { IndexItem } from '../../src/chunking/parse-index.ts';
import type { Size } from '../../src/chunking/types.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { INDEX_CASES, SLICE_CASES } from './numpy-index-cases.ts';

/** x[index].flatten() for x = arange(prod(shape)).reshape(shape), read off a NormalizedIndex. */
function evaluate(norm: NormalizedIndex, shape: readonly number[]): number[] {
  const outShape = norm.shape as number[];
  const out: number[] = [];
  const visit = (prefix: number[]): void => {
    if (prefix.length === outShape.length) {
      let flat = 0;
      norm.axes.forEach((sel, ax) => {
        const k = prefix[norm.outAxes.indexOf(ax)]!;
        const i =
          sel.kind === 'int'
            ? sel.index
            : sel.kind === 'slice'
              ? sel.start + k * sel.step
              : sel.indices[k]!;
        expect(i).toBeGreaterThanOrEqual(0);
        expect(i).toBeLessThan(shape[ax]!);
        flat = flat * shape[ax]! + i;
      });
      out.push(flat);
      return;
    }
    for (let k = 0; k < outShape[prefix.length]!; k++) visit([...prefix, k]);
  };
  visit([]);
  return out;
}

describe('normalizeIndex agrees with NumPy', () => {
  test.each(INDEX_CASES.map((c) => [JSON.stringify(c.index), c] as const))(
    'x[%s]',
    (_, { shape, index, outShape, values }) => {
      const norm = normalizeIndex('get', index, shape);
      expect(norm.shape).toEqual(outShape);
      expect(norm.outAxes.length).toBe(outShape.length);
      expect(norm.newAxes).toEqual(norm.outAxes.flatMap((a, i) => (a === null ? [i] : [])));
      expect(evaluate(norm, shape)).toEqual(values);
    },
  );

  test.each(SLICE_CASES)('range(%d)[%j:%j:%j] = %j', (n, start, stop, step, expected) => {
    const sel = normalizeIndex('get', [{ start, stop, step }], [n]).axes[0]!;
    if (sel.kind !== 'slice') throw new Error('expected a slice');
    const positions = Array.from({ length: sel.count ?? 0 }, (_, k) => sel.start + k * sel.step);
    expect(positions).toEqual(expected);
  });

  test('Int32Array indices and the documented example', () => {
    const norm = normalizeIndex('get', [new Int32Array([2, -1])], [4]);
    expect(norm.axes).toEqual([{ kind: 'array', indices: [2, 3] }]);
    expect(normalizeIndex('get', [{ step: -1 }, null, 2], [4, 5]).axes).toEqual([
      { kind: 'slice', start: 3, step: -1, count: 4 },
      { kind: 'int', index: 2 },
    ]);
  });

  test('an axis of unknown size passes through a full slice', () => {
    const norm = normalizeIndex('get', [null, '...', 1], [null, 3]);
    expect(norm.axes).toEqual([
      { kind: 'slice', start: 0, step: 1, count: null },
      { kind: 'int', index: 1 },
    ]);
    expect(norm.shape).toEqual([1, null]);
    expect(normalizeIndex('get', [{ start: 0 }], [null]).shape).toEqual([null]);
  });
});

describe('normalizeIndex rejects bad indices', () => {
  test.each([
    [[5], [5], 'IndexError', ['get:', 'index 5 is out of bounds for axis 0 with size 5']],
    [[0, -4], [2, 3], 'IndexError', ['index -4', 'axis 1', 'size 3']],
    [[1.5], [5], 'IndexError', ['index 1.5', 'not an integer']],
    [[{ step: 0 }], [5], 'IndexError', ['slice step 0', 'axis 0']],
    [[{ start: 0.5 }], [5], 'IndexError', ['slice start 0.5']],
    [[0, 0, 0], [2, 2], 'IndexError', ['too many indices', '2-dimensional', '3 were indexed']],
    [['...', 0, '...'], [2, 2], 'IndexError', ['more than one ellipsis']],
    [[[0], [1]], [2, 2], 'IndexError', ['more than one integer array']],
    [[[0, 5]], [3], 'IndexError', ['index 5', 'size 3']],
    [[3], [null], 'ChunkError', ['get:', 'axis 0', 'unknown size', 'computeChunkSizes']],
    [[{ start: 1 }], [null], 'ChunkError', ['cannot slice axis 0', 'computeChunkSizes']],
    [[{ step: -1 }], [null], 'ChunkError', ['computeChunkSizes']],
    [[[0]], [null], 'ChunkError', ['computeChunkSizes']],
    [['x'], [3], 'IndexError', ["bad index item 'x'"]],
    [[true], [3], 'IndexError', ['bad index item true']],
  ] as [IndexItem[], Size[], string, string[]][])(
    'x[%j] on %j throws %s',
    (index, shape, tag, fragments) => {
      expectThrow(() => normalizeIndex('get', index, shape), tag, fragments);
    },
  );
});
