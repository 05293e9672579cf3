// Test helper: the error a promise rejects with (failing the test if it resolves).

import { expect } from 'vitest';

/** What `p` rejects with; a resolution fails the test. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => expect.unreachable('expected a rejection'),
    (e: unknown) => e,
  );
}
