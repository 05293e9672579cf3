// Fresh large buffers are advised to huge pages before their first touch (where Linux, koffi
// and transparent huge pages in 'madvise' or 'always' mode allow): the kernel then backs them
// with 2 MiB pages, which /proc/self/smaps_rollup counts; small buffers are left alone.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { adviseHugePages, HUGE_PAGE_MIN_BYTES } from '../../src/array/huge-pages.ts';

function thpMode(): string | undefined {
  try {
    const text = readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8');
    return /\[(\w+)\]/.exec(text)?.[1];
  } catch {
    return undefined;
  }
}

function hasKoffi(): boolean {
  try {
    createRequire(import.meta.url)('koffi');
    return true;
  } catch {
    return false;
  }
}

/** Anonymous huge-page bytes of this process. */
function anonHuge(): number {
  const m = /AnonHugePages:\s+(\d+) kB/.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

const can =
  process.platform === 'linux' &&
  hasKoffi() &&
  (thpMode() === 'madvise' || thpMode() === 'always') &&
  process.env.TESSERA_HUGE_PAGES !== '0';

describe('huge pages', () => {
  it.runIf(can)('an advised 32 MiB buffer is backed by huge pages once touched', () => {
    const before = anonHuge();
    const buf = new SharedArrayBuffer(32 * 2 ** 20);
    adviseHugePages(buf);
    const a = new Float64Array(buf);
    a.fill(1.5);
    expect(anonHuge() - before).toBeGreaterThanOrEqual(2 ** 21);
    expect(a[0]).toBe(1.5);
    expect(a[a.length - 1]).toBe(1.5);
  });

  it('leaves data intact and small buffers alone', () => {
    const small = new SharedArrayBuffer(HUGE_PAGE_MIN_BYTES - 8);
    const s = new Uint8Array(small);
    s[0] = 7;
    adviseHugePages(small);
    expect(s[0]).toBe(7);
    const big = new SharedArrayBuffer(HUGE_PAGE_MIN_BYTES + 3);
    const b = new Uint8Array(big);
    b[5] = 9;
    adviseHugePages(big);
    expect(b[5]).toBe(9);
    expect(b.every((v, i) => v === (i === 5 ? 9 : 0))).toBe(true);
  });
});
