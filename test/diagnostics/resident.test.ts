// residentBytes: the resident set size process.memoryUsage.rss() gives, read from statm.

import { expect, test } from 'vitest';
import { residentBytes } from '../../src/diagnostics/resident.ts';

test('it is the resident set size, and it grows as memory is touched', () => {
  const before = residentBytes();
  const rss = process.memoryUsage.rss();
  expect(before).toBeGreaterThan(rss * 0.9);
  expect(before).toBeLessThan(rss * 1.1);
  // 64 MiB written page by page: resident now
  const block = new Uint8Array(64 * 2 ** 20);
  for (let i = 0; i < block.length; i += 4096) block[i] = 1;
  const after = residentBytes();
  expect(after - before).toBeGreaterThan(48 * 2 ** 20);
  expect(block[4096]).toBe(1);
});
