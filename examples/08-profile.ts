// See what runs: a pipeline computed with `profile: 'profile.html'` on the worker pool and on
// the process pool; the report's embedded JSON is checked (every task once, one lane per
// worker that ran tasks, all of them here) and the paths of the reports and the graph's
// picture are printed.
//
//   npx tsx examples/08-profile.ts

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  compute,
  type Profile,
  profileTasks,
  random,
  readProfileHtml,
  shutdown,
  visualize,
} from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'tessera-profile-'));
const workers = 2;

// 1. A pipeline: 512 × 4096 float64 noise in 64 blocks, detrended and summarised per row.
const x = random.normal([512, 4096], { seed: 3, chunks: [64, 512] });
const detrended = x.sub(x.mean({ axis: 1, keepdims: true }));
const energy = detrended.mul(detrended).sum({ axis: 1 });

// 2. Its picture (operations as they run, fused chains as one node).
const graph = await visualize(energy, {
  format: 'svg',
  optimize: true,
  file: join(dir, 'graph.svg'),
});

for (const scheduler of ['threads', 'processes'] as const) {
  // 3. Computed with a profile: the HTML report is written, the JSON also reaches onProfile.
  const file = join(dir, `profile-${scheduler}.html`);
  let given: Profile | undefined;
  const result = await compute(energy, {
    scheduler,
    workers,
    profile: file,
    onProfile: (p) => (given = p),
  });
  assert.equal(result.shape[0], 512);

  // 4. The report's own JSON: every task once, a lane per worker, nothing fetched from outside.
  const html = readFileSync(file, 'utf8');
  const profile = readProfileHtml(html);
  assert.deepEqual(profile, given);
  const tasks = profileTasks(profile);
  const keys = profile.tasks.key;
  assert.equal(new Set(keys).size, keys.length, 'a task recorded twice');
  assert.ok(keys.length >= 64, `only ${keys.length} tasks recorded`);
  assert.equal(profile.workers, workers);
  assert.equal(profile.lanes.length, workers, `lanes ${profile.lanes.join(', ')}`);
  const prefix = scheduler === 'threads' ? 'thread ' : 'process ';
  assert.ok(profile.lanes.every((l) => l.startsWith(prefix)));
  for (const lane of profile.lanes.keys()) {
    assert.ok(
      tasks.some((t) => t.lane === lane),
      `lane ${lane} ran nothing`,
    );
  }
  assert.ok(tasks.every((t) => t.start <= t.end && t.bytesOut > 0));
  // the pool's processes told their memory with their replies; threads are this process's
  const workersRss = profile.memory.at(-1)?.workersRss;
  if (scheduler === 'processes') assert.ok(workersRss !== undefined && workersRss > 2 ** 20);
  else assert.equal(workersRss, undefined);
  assert.ok(!/<script[^>]+src=|<link /.test(html), 'the report loads something from outside');
  const busy = tasks.reduce((s, t) => s + t.end - t.start, 0);
  console.log(
    `${scheduler}: ${keys.length} tasks on ${profile.lanes.join(', ')} ` +
      `(${busy.toFixed(0)} ms busy in ${profile.durationMs.toFixed(0)} ms)`,
  );
  console.log(`  report: ${file}`);
}
console.log(`graph picture: ${graph}`);
await shutdown();
