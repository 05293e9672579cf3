// Tests of parseIndex: NumPy index text to items, with malformed texts raising IndexError.
// A round-trip property prints random items as text and parses them back.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type IndexItem, parseIndex } from '../../src/chunking/parse-index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';

describe('parseIndex', () => {
  test.each([
    ['', []],
    ['1:5, ::-1, None, ..., 3', [{ start: 1, stop: 5 }, { step: -1 }, null, '...', 3]],
    [':', [{}]],
    ['::', [{}]],
    ['-2', [-2]],
    ['+4', [4]],
    ['- 1', [-1]],
    ['-0', [0]],
    ['1:', [{ start: 1 }]],
    [':-1', [{ stop: -1 }]],
    ['1:10:2', [{ start: 1, stop: 10, step: 2 }]],
    [' 3 , ', [3]],
    ['newaxis, np.newaxis, Ellipsis', [null, null, '...']],
    ['[0, 2, -1]', [[0, 2, -1]]],
    ['[ ]', [[]]],
    ['[1,], 2', [[1], 2]],
    [': , -2 :', [{}, { start: -2 }]],
  ] as [string, IndexItem[]][])('%j', (text, expected) => {
    expect(parseIndex(text)).toEqual(expected);
  });

  test.each([
    ['1:2:3:4', "expected ','"],
    ['a', 'expected an index item'],
    ['1.5', "expected ','"],
    ['1,,2', 'expected an index item'],
    ['[1, x]', 'expected an integer'],
    ['[1, 2', "expected ','"],
    ['+', 'expected digits'],
    [',', 'expected an index item'],
    ['1 2', "expected ','"],
    ['....', "expected ','"],
  ])('%j throws', (text, what) => {
    expectThrow(() => parseIndex(text), 'IndexError', ['parseIndex:', JSON.stringify(text), what]);
  });

  test('round trip of printed items', () => {
    const int = fc.integer({ min: -50, max: 50 });
    const part = fc.option(int, { nil: undefined });
    const item: fc.Arbitrary<IndexItem> = fc.oneof(
      int,
      fc.constant(null),
      fc.constant('...' as const),
      fc.array(int, { maxLength: 3 }),
      fc.record({ start: part, stop: part, step: part }, { requiredKeys: [] }),
    );
    const print = (it: IndexItem): string => {
      if (it === null) return 'None';
      if (typeof it === 'number' || it === '...') return String(it);
      if (Array.isArray(it)) return `[${it.join(', ')}]`;
      if (it instanceof Int32Array) return `[${[...it].join(', ')}]`;
      return `${it.start ?? ''}:${it.stop ?? ''}:${it.step ?? ''}`;
    };
    fc.assert(
      fc.property(fc.array(item, { maxLength: 5 }), (items) => {
        const parsed = parseIndex(items.map(print).join(', '));
        const clean = items.map((it) =>
          typeof it === 'object' && it !== null && !Array.isArray(it)
            ? Object.fromEntries(Object.entries(it).filter(([, v]) => v !== undefined))
            : it,
        );
        expect(parsed).toEqual(clean);
      }),
    );
  });
});
