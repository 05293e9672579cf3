import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fromArray } from '../../src/array/from-array.ts';
import { hashData, layerName, tokenize } from '../../src/graph/tokenize.ts';

// The text-joining tokenizer the streaming one replaced, kept as the reference: names must
// not change (same expression ⇒ same name, across versions too).
function refCyrb53(str: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

function refStable(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : `n:${value}`;
  if (Array.isArray(value)) {
    let s = '[';
    for (let i = 0; i < value.length; i++) s += (i === 0 ? '' : ',') + refStable(value[i]);
    return `${s}]`;
  }
  if (value === undefined) return 'u';
  if (typeof value === 'function') return `fn:${value.name}:${value.toString()}`;
  if (ArrayBuffer.isView(value)) return `ta:${hashData(value as Float64Array)}`;
  if (value !== null && typeof value === 'object') {
    if ('name' in value && typeof value.name === 'string' && 'chunks' in value) {
      return `L:${value.name}`;
    }
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${k}:${refStable((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function refTokenize(op: string, ...parts: unknown[]): string {
  let s = op;
  for (let i = 0; i < parts.length; i++) s += `|${refStable(parts[i])}`;
  const [a, b] = refCyrb53(s);
  return `${op}-${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
}

// strings with quotes, backslashes, control characters and lone surrogates (JSON escapes them)
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', '\\', '\n', '\u0001', '\ud800', '\udc00', '😀'),
    fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
  ),
});
const number = fc.oneof(
  fc.integer({ min: 0, max: 2 ** 31 + 5 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, 2 ** 31 - 1, 2 ** 31, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, Number.NaN),
);
const part = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    number,
    fc.boolean(),
    fc.constantFrom(null, undefined),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    fc.record({ name: text, chunks: fc.constant([[1]]) }),
  ),
})).value;

describe('tokenize', () => {
  test('names equal the text-joining reference on random parameters', () => {
    fc.assert(
      fc.property(text, fc.array(part, { maxLength: 6 }), (op, parts) => {
        expect(tokenize(op, ...parts)).toBe(refTokenize(op, ...parts));
      }),
      { numRuns: 2000 },
    );
  });

  test('names equal the reference on what layers hash: names, chunks, dtypes, data, functions', () => {
    const x = fromArray(new Float64Array([1, 2, 3, 4]), { chunks: 2 });
    const cases: unknown[][] = [
      [
        ['array-0123456789abcdef', 'add-fedcba9876543210'],
        ['add(in0,c1)'],
        [[100000, 100000, 5]],
        'float64',
      ],
      [
        x,
        x.layer,
        new Int32Array([1, 2, 3]),
        (a: number) => a + 1,
        Symbol('s'),
        { b: 1, a: [2, 'x'] },
      ],
      [[], {}, [[]], ''],
    ];
    for (const parts of cases) expect(tokenize('op', ...parts)).toBe(refTokenize('op', ...parts));
  });

  test('different parameters give different names; "1" and 1 differ', () => {
    expect(tokenize('add', [1])).not.toBe(tokenize('add', ['1']));
    expect(tokenize('add', [[2, 2]], 'float64')).not.toBe(tokenize('add', [[2, 2]], 'float32'));
    expect(tokenize('add', 12)).toBe(tokenize('add', 12));
    expect(tokenize('add', 12)).toMatch(/^add-[0-9a-f]{16}$/);
  });

  test("layerName is tokenize over the deps' names and the token with the backend appended", () => {
    fc.assert(
      fc.property(
        text,
        fc.array(text, { maxLength: 3 }),
        fc.array(part, { maxLength: 3 }),
        fc.option(text, { nil: undefined }),
        fc.array(fc.array(fc.oneof(fc.nat(), fc.constant(null)), { maxLength: 4 }), {
          maxLength: 3,
        }),
        text,
        (op, names, token, backend, chunks, dtype) => {
          const deps = names.map((name) => ({ name }));
          const tok = backend === undefined ? token : [...token, `backend=${backend}`];
          expect(layerName(op, deps, token, backend, chunks, dtype)).toBe(
            refTokenize(op, names, tok, chunks, dtype),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});
