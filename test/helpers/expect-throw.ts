// Test helper: assert that a call throws a tessera error of one tag whose message holds
// every given fragment (or matches a pattern).

import { expect } from 'vitest';
import { isTesseraError } from '../../src/errors.ts';

export function expectThrow(
  f: () => unknown,
  tag: string,
  fragments: readonly string[] | RegExp,
): void {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(isTesseraError(caught, tag), `expected ${tag}, got ${String(caught)}`).toBe(true);
  const message = (caught as Error).message;
  if (fragments instanceof RegExp) expect(message).toMatch(fragments);
  else for (const s of fragments) expect(message).toContain(s);
}
