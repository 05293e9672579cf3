// The profile recorder's columns are reused by later computes, but only once nothing can read
// them: a profile still held keeps its tasks while other computes record.

import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, expect, test } from 'vitest';
import { leaseColumns, takeColumns } from '../../src/diagnostics/profile-columns.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks, runnableCount, taskKey } from '../../src/graph/materialize.ts';
import { compute, fromArray, type Profile, shutdown } from '../../src/index.ts';

afterAll(() => shutdown());

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Collect until `done()` holds (finalizers run in a later task), at most a few hundred ms. */
async function collectUntil(done: () => boolean, times = 50): Promise<boolean> {
  for (let i = 0; i < times; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 5));
    if (done()) return true;
  }
  return false;
}

test('columns whose readers were all collected are taken again; held ones are not', async () => {
  const first = takeColumns(1000, 1200);
  let owner: object | undefined = {};
  leaseColumns(owner, first);
  // while the owner lives, a take gets fresh columns
  expect(takeColumns(1000, 1200).ids).not.toBe(first.ids);
  owner = undefined;
  let again = takeColumns(1000, 1200);
  await collectUntil(() => {
    if (again.ids === first.ids) return true;
    again = takeColumns(1000, 1200);
    return again.ids === first.ids;
  });
  expect(again.ids).toBe(first.ids);
  expect(Array.from(again.bytesOf.subarray(0, 1200)).every((b) => b === 0)).toBe(true);
});

test('a profile held while later computes record keeps its own tasks', async () => {
  const a = fromArray(new Float64Array(600).fill(1), { chunks: 5 }).mul(2);
  // blocks of 6, not 5: its tasks' bytes and keys differ from a's
  const b = fromArray(new Float64Array(600).fill(3), { chunks: 6 }).add(1);
  let held: Profile | undefined;
  await compute(a, { scheduler: 'sync', onProfile: (p) => (held = p) });
  // other computes of about as many tasks, their profiles dropped and collected in between
  for (let k = 0; k < 5; k++) {
    await compute(b, { scheduler: 'sync', onProfile: () => {} });
    await collectUntil(() => false, 3);
  }
  const table = materializeTasks(fuseLayers([a.layer]));
  const want = Array.from({ length: table.count }, (_, t) => t)
    .filter((t) => !table.isConstant[t])
    .map((t) => taskKey(table, t));
  expect(held!.tasks.key.length).toBe(runnableCount(table));
  expect([...held!.tasks.key].sort()).toEqual(want.sort());
  expect(held!.tasks.bytesOut.every((n) => n === 40)).toBe(true);
});
