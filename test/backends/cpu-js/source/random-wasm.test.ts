// The WebAssembly uniform fill against the scalar reference uniformAt: the same values, bit for
// bit, at any seed and offset (past 2^32 too), in float64 and float32, across fill chunks.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { NumberArray } from '../../../../src/array/dtype.ts';
import { uniformAt, uniformBlock } from '../../../../src/backends/cpu-js/source/random.ts';
import { WASM_CHUNK, wasmUniform } from '../../../../src/backends/cpu-js/source/random-wasm.ts';

describe('random-uniform in WebAssembly', () => {
  test('WebAssembly is available here (the fast path is the one tested)', () => {
    expect(wasmUniform()).not.toBeNull();
  });

  test('blocks equal low + width · uniformAt, rounded and capped as the dtype stores them', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.nat(2 ** 32 - 1), fc.nat(2 ** 32 - 1)),
        fc.nat(2 ** 40),
        fc.integer({ min: 1, max: 300 }),
        fc.constantFrom('float64', 'float32'),
        fc.constantFrom([0, 1], [-3, 5], [1, 1 + 2 ** -20]),
        (seed, g0, n, dtype, [low, high]) => {
          const p = {
            seed,
            arrayShape: [g0 + n],
            offset: [g0],
            shape: [n],
            dtype,
            low: low!,
            high: high!,
          };
          const got = uniformBlock(p as Parameters<typeof uniformBlock>[0]).data as NumberArray;
          for (let j = 0; j < n; j++) {
            let v = low! + (high! - low!) * uniformAt(seed, g0 + j);
            if (dtype === 'float32') v = Math.fround(v);
            if (v >= high!) v = got[j]!; // capped just below high: checked below
            expect(got[j]).toBe(v);
            expect(got[j]).toBeLessThan(high!);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a block longer than one fill chunk continues the stream across chunks', () => {
    const n = WASM_CHUNK + 1000;
    const seed: [number, number] = [7, 0xdeadbeef];
    const p = { seed, arrayShape: [n], offset: [0], shape: [n], dtype: 'float64', low: 0, high: 1 };
    const got = uniformBlock(p as Parameters<typeof uniformBlock>[0]).data;
    for (const j of [0, WASM_CHUNK - 1, WASM_CHUNK, WASM_CHUNK + 1, n - 1]) {
      expect(got[j]).toBe(uniformAt(seed, j));
    }
  });
});
