// The worker's chunk cache: least recently used chunks go first once over budget, a chunk
// larger than the budget is not kept, and reading a chunk makes it recent.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { NDArray } from '../../src/array/ndarray.ts';
import { ChunkCache } from '../../src/workers/chunk-cache.ts';

const block = (n: number): NDArray => new NDArray(new Float64Array(n), [n], 'float64');

describe('ChunkCache', () => {
  test('evicts least recently used first; get refreshes; oversize is skipped', () => {
    const cache = new ChunkCache(8 * 30);
    cache.set('a', block(10));
    cache.set('b', block(10));
    cache.set('c', block(10));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('d', block(10)); // over budget: b goes
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.get('d')).toBeDefined();
    cache.set('huge', block(31));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.heldBytes).toBe(8 * 30);
  });

  test('property: never over budget, and holds the most recent keys that fit', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ key: fc.integer({ min: 0, max: 9 }), n: fc.integer({ min: 1, max: 6 }) }),
        ),
        (ops) => {
          const cache = new ChunkCache(8 * 10);
          const sizes = new Map<number, number>();
          for (const { key, n } of ops) {
            if (!sizes.has(key)) sizes.set(key, n);
            cache.set(String(key), block(sizes.get(key)!));
            expect(cache.heldBytes).toBeLessThanOrEqual(80);
          }
          const last = ops.at(-1);
          if (last !== undefined) expect(cache.get(String(last.key))).toBeDefined();
        },
      ),
    );
  });
});
