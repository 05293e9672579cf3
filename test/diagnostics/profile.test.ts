// compute's profile: every task once with its lane, times, kernel, bytes and device; memory
// over time; the HTML report and the JSON in it; threads, processes and an untimed executor.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks, runnableCount, taskKey } from '../../src/graph/materialize.ts';
import {
  compute,
  type Executor,
  fromArray,
  type LazyArray,
  lazyApply,
  type NDArray,
  type Profile,
  type ProfileTask,
  profileTasks,
  readProfileHtml,
  shutdown,
  TaskError,
  ValueError,
} from '../../src/index.ts';
import { createFnResolver } from '../../src/kernels/resolve.ts';
import { InlineExecutor } from '../../src/workers/inline.ts';
import { randomDense } from '../helpers/reference.ts';

const dir = mkdtempSync(join(tmpdir(), 'tessera-profile-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await shutdown();
});

const x = fromArray(randomDense([12, 10], 'float64', 5), { chunks: [4, 3] });
const y = x.mul(2).add(1).sum({ axis: 0 });

/** The layer names of the tasks a compute of `a` runs (as fused), and their keys. */
function expectedKeys(a: LazyArray): [string[], string[]] {
  const table = materializeTasks(fuseLayers([a.layer]));
  expect(runnableCount(table)).toBeGreaterThan(0);
  const ids = Array.from({ length: table.count }, (_, t) => t).filter((t) => !table.isConstant[t]);
  return [ids.map((t) => table.layers[table.layerOf[t]!]!.name), ids.map((t) => taskKey(table, t))];
}

async function profiled(a: LazyArray, opts: object = { scheduler: 'sync' }): Promise<Profile> {
  let profile: Profile | undefined;
  await compute(a, { ...opts, onProfile: (p) => (profile = p) });
  return profile!;
}

function expectWellFormed(p: Profile, a: LazyArray): ProfileTask[] {
  const [layers, keys] = expectedKeys(a);
  const tasks = profileTasks(p);
  // keys are made from the task table when the profile is built: as the scheduler names tasks
  expect([...p.tasks.key].sort()).toEqual(keys.sort());
  expect(tasks).toHaveLength(layers.length);
  expect(new Set(p.tasks.key).size).toBe(tasks.length);
  expect(p.tasks.key.map((k) => k.slice(0, k.indexOf(':'))).sort()).toEqual(layers.sort());
  for (const column of Object.values(p.tasks)) {
    if (column !== p.tasks.spanOnly) expect(column).toHaveLength(tasks.length);
  }
  for (const t of tasks) {
    expect(t.lane).toBeGreaterThanOrEqual(0);
    expect(t.lane).toBeLessThan(p.lanes.length);
    expect(t.start).toBeLessThanOrEqual(t.end);
    expect(t.end).toBeLessThanOrEqual(p.durationMs);
    expect(t.device).toBe('cpu');
  }
  expect(p.memory.length).toBeGreaterThanOrEqual(2);
  expect(p.memory.every((m) => m.rss > 0 && m.liveBytes >= 0)).toBe(true);
  expect(JSON.parse(JSON.stringify(p))).toEqual(p);
  return tasks;
}

describe("'sync'", () => {
  test('every task once, on the main lane, with its kernel, op and bytes', async () => {
    const p = await profiled(y);
    const tasks = expectWellFormed(p, y);
    expect(p).toMatchObject({ version: 1, scheduler: 'sync', workers: 1, lanes: ['main'] });
    const aggregate = tasks.filter((t) => t.op === 'sum-aggregate');
    // the result: 10 float64 values in blocks of 3, 3, 3, 1
    expect(aggregate.map((t) => t.bytesOut).sort((a, b) => a - b)).toEqual([8, 24, 24, 24]);
    expect(aggregate.every((t) => t.bytesIn > 0 && t.kernel !== '')).toBe(true);
    const fused = tasks.filter((t) => t.op.includes('multiply+add'));
    expect(fused).toHaveLength(12);
    expect(p.tasks.spanOnly).toEqual([]);
  });

  test("a path: the self-contained report holds the same profile and the graph's picture", async () => {
    let profile: Profile | undefined;
    const file = join(dir, 'report.html');
    await compute(y, { scheduler: 'sync', profile: file, onProfile: (p) => (profile = p) });
    const html = readFileSync(file, 'utf8');
    expect(readProfileHtml(html)).toEqual(profile);
    expect(html).toContain('<svg');
    expect(html).toContain('sum-aggregate');
    expect(html).not.toMatch(/<script[^>]+src=|<link|https?:\/\/(?!www\.w3\.org)/);
  });

  test('the result is the same with and without a profile', async () => {
    const plain = await compute(y, { scheduler: 'sync' });
    const withProfile = await compute(y, { scheduler: 'sync', profile: join(dir, 'r2.html') });
    expect(Array.from(withProfile.data as NumberArray)).toEqual(
      Array.from(plain.data as NumberArray),
    );
  });
});

// ('processes' is checked by examples/08-profile.ts: a second pool start costs seconds here)
test("'threads': lanes are the workers that ran tasks, each task once", async () => {
  const p = await profiled(y, { scheduler: 'threads', workers: 2 });
  expectWellFormed(p, y);
  expect(p).toMatchObject({ scheduler: 'threads', workers: 2 });
  expect(p.lanes.length).toBeGreaterThanOrEqual(1);
  expect(p.lanes.length).toBeLessThanOrEqual(2);
  expect(p.lanes.every((l) => /^thread \d+$/.test(l))).toBe(true);
  expect(p.tasks.spanOnly).toEqual([]);
  // threads are this process's memory (rss): no worker processes' memory
  expect(p.memory.every((m) => m.workersRss === undefined)).toBe(true);
});

test("an executor that does not time its tasks: each task gets its batch's span, marked", async () => {
  const inline = new InlineExecutor(createFnResolver({ inline: true }));
  const untimed: Executor = {
    name: 'custom',
    concurrency: 1,
    run: (batch) => inline.run(batch),
  };
  const p = await profiled(y, { scheduler: untimed });
  const tasks = expectWellFormed(p, y);
  expect(p.lanes).toEqual(['custom']);
  expect(tasks.every((t) => t.spanOnly === true)).toBe(true);
});

test.each([
  [
    { profile: true },
    "compute: profile true needs onProfile to receive the profile (or a path such as 'profile.html' for a report)",
  ],
  [
    { profile: '' },
    "compute: profile '' must be a boolean or a file path (such as 'profile.html')",
  ],
  [{ profile: 3 }, 'compute: profile 3 must be a boolean or a file path'],
  [{ onProfile: 'yes' }, "compute: onProfile 'yes' must be a function"],
])('bad profile options %j: ValueError before anything runs', async (opts, message) => {
  await expect(compute(y, { scheduler: 'sync', ...(opts as object) })).rejects.toThrow(ValueError);
  await expect(compute(y, { scheduler: 'sync', ...(opts as object) })).rejects.toThrow(message);
});

test('an onProfile callback that throws fails the compute with ValueError', async () => {
  const boom = (): void => {
    throw new Error('boom');
  };
  await expect(compute(y, { scheduler: 'sync', onProfile: boom })).rejects.toThrow(
    'compute: the onProfile callback threw: boom',
  );
});

describe('a failed compute still delivers its profile', () => {
  // the blocks of column 3 hold 9..11 (x is filled with its flat index): the task of the
  // block that holds 10 throws, the others run
  const seq = fromArray(
    new Float64Array(24).map((_, i) => i),
    { shape: [24], chunks: [3] },
  );
  const failing = lazyApply((b: NDArray) => {
    if (Array.from(b.data as Float64Array).includes(10)) throw new RangeError('no tens here');
    return b;
  }, seq.mul(2).div(2));

  test.each(['sync', 'threads'] as const)(
    "'%s': onProfile gets the tasks that ran and the error, then compute rejects with it",
    async (scheduler) => {
      let profile: Profile | undefined;
      const err = await compute(failing, {
        scheduler,
        workers: 2,
        onProfile: (p) => (profile = p),
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TaskError);
      const { key } = err as TaskError;
      expect(profile).toBeDefined();
      const p = profile!;
      expect(p.error).toMatchObject({ name: 'TaskError', key });
      expect(p.error!.message).toContain('no tens here');
      const tasks = profileTasks(p);
      // the failing task did not finish: it is not among the tasks, every other is at most once
      expect(p.tasks.key).not.toContain(key);
      expect(new Set(p.tasks.key).size).toBe(tasks.length);
      expect(tasks.length).toBeLessThan(
        runnableCount(materializeTasks(fuseLayers([failing.layer]))),
      );
      for (const t of tasks) expect(t.start).toBeLessThanOrEqual(t.end);
      expect(p.memory.length).toBeGreaterThanOrEqual(2);
      expect(JSON.parse(JSON.stringify(p))).toEqual(p);
    },
  );

  test('sync: the tasks before the failing one are in it, in the order they ran', async () => {
    let profile: Profile | undefined;
    await compute(failing, { scheduler: 'sync', onProfile: (p) => (profile = p) }).catch(
      () => undefined,
    );
    // blocks run in order here: the fused tasks of blocks 0..2 finished before block 3 failed
    expect(profile!.tasks.key.length).toBeGreaterThanOrEqual(3);
    expect(profile!.tasks.bytesOut.slice(0, 3)).toEqual([24, 24, 24]);
  });

  test('a path: the report is written, holds the error and shows it', async () => {
    const file = join(dir, 'failed.html');
    const err = await compute(failing, { scheduler: 'sync', profile: file }).catch((e) => e);
    expect(err).toBeInstanceOf(TaskError);
    const html = readFileSync(file, 'utf8');
    const p = readProfileHtml(html);
    expect(p.error).toMatchObject({ name: 'TaskError', key: (err as TaskError).key });
    expect(html).toContain("getElementById('summary').after(failed)");
  });

  test("an onProfile that throws on a failed compute: the run's own error is the one", async () => {
    const err = await compute(failing, {
      scheduler: 'sync',
      onProfile: () => {
        throw new Error('callback');
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskError);
  });

  test('a profile taken mid-run does not change as the run goes on', async () => {
    const { ProfileRecorder } = await import('../../src/diagnostics/profile.ts');
    const table = materializeTasks(fuseLayers([y.layer]));
    const rec = new ProfileRecorder('sync', 1, table);
    const ids = Array.from({ length: table.count }, (_, t) => t).filter(
      (t) => !table.isConstant[t],
    );
    const payload = (id: number) => ({ id, key: '', kernel: 'k', params: null, inputs: [] });
    // the trace's clock is this thread's performance.now()
    const t0 = rec.startedAt - performance.timeOrigin;
    rec.ran(payload(ids[0]!), 0, 'main', t0, t0 + 1, false);
    const early = rec.profile();
    for (const id of ids.slice(1)) rec.ran(payload(id), 0, 'main', t0 + 1, t0 + 2, true);
    rec.end();
    expect(early.tasks.key).toHaveLength(1);
    expect(early.tasks.spanOnly).toEqual([]);
    expect(early.tasks.end).toEqual([1]);
    expect(rec.profile().tasks.key).toHaveLength(ids.length);
    expect(rec.profile().tasks.spanOnly).toHaveLength(ids.length - 1);
    // more tasks than the table has room for (the columns grow): each is kept
    for (let k = 0; k < 3 * ids.length; k++)
      rec.ran(payload(ids[0]!), 0, 'main', t0, t0 + k, false);
    const grownProfile = rec.profile();
    expect(grownProfile.tasks.end).toHaveLength(4 * ids.length);
    expect(grownProfile.tasks.end.at(-1)).toBe(3 * ids.length - 1);
    expect(early.tasks.end).toEqual([1]);
  });
});
