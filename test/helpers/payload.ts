// Test helper: hand-made task payloads for executor tests, with unique ids and keys.

import type { Chunk } from '../../src/kernels/types.ts';
import type { TaskPayload } from '../../src/workers/types.ts';

let nextId = 0;

/** A payload running `kernel` on `inputs`; `extra` adds fields such as mainThread. */
export function task(
  kernel: string,
  params: unknown,
  inputs: Chunk[] = [],
  extra: Partial<TaskPayload> = {},
): TaskPayload {
  const id = nextId++;
  return { id, key: `${kernel}-${id}`, kernel, params, inputs, ...extra };
}
