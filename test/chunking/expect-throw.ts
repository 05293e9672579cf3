// Test helper: assert that a call throws a tessera error of one tag whose message holds
// every given fragment.

import { expect } from 'vitest';
import { isTesseraError } from '../../src/errors.ts';

export function expectThrow(f: () => unknown, tag: string, fragments: readonly string[]): void {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(isTesseraError(caught, tag), `expected ${tag}, got ${String(caught)}`).toBe(true);
  for (const s of fragments) expect((caught as Error).message).toContain(s);
}
