// The child-process side of the process pool: runs batches in arrival order with runTask,
// tells the parent which task it is on (to name a crash), and yields between tasks so a
// cancel message can stop a batch.

import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { type CodePolicy, checkTasksCode } from '../kernels/code-policy.ts';
import { createFnResolver, findFnRefs, needsPreload } from '../kernels/resolve.ts';
import { runTask } from '../kernels/run-task.ts';
import type { Chunk, FnRef, KernelRegistry } from '../kernels/types.ts';
import { HeldBuffers } from './buffer-cache.ts';
import { collectGarbage } from './collect.ts';
import type { FromProcess, ToProcess } from './process-wire.ts';
import { loadRegistry } from './registry.ts';
import { endTimes, epochNow } from './task-timing.ts';
import type { TaskPayload } from './types.ts';
import { type BatchReply, decodeInputs, encodeError } from './wire.ts';

/** Run a batch at most this long before reading messages (a cancel) again. */
const YIELD_MS = 2;

const send = (m: FromProcess): void => {
  process.send!(m);
};

const cancelled = new Set<number>();
const queue: { seq: number; tasks: readonly TaskPayload[]; timed: boolean }[] = [];
let running = false;
// Batches arrive in increasing seq order: a cancel for one already answered is stale.
let lastDone = 0;
let registry: KernelRegistry;
const resolve = createFnResolver({ inline: false });
const held = new HeldBuffers();
const policy = process.argv[4] ? (JSON.parse(process.argv[4]) as CodePolicy) : undefined;

async function execute(
  seq: number,
  tasks: readonly TaskPayload[],
  timed: boolean,
): Promise<BatchReply> {
  if (policy !== undefined) {
    try {
      checkTasksCode(policy, tasks, 'ProcessPoolExecutor');
    } catch (e) {
      const key = (e as { key?: string }).key;
      return {
        ok: false,
        index: Math.max(
          0,
          tasks.findIndex((t) => t.key === key),
        ),
        error: encodeError(e),
      };
    }
  }
  decodeInputs(tasks);
  const refs: FnRef[] = [];
  for (const t of tasks) {
    if (typeof t.params === 'object' && t.params !== null) refs.push(...findFnRefs(t.params));
  }
  if (needsPreload(refs)) {
    try {
      await resolve.preload(refs);
    } catch (e) {
      return { ok: false, index: 0, error: encodeError(e) };
    }
  }
  const results = new Array<Chunk>(tasks.length);
  const times = timed ? new Float64Array(2 * tasks.length) : undefined;
  let lastYield = performance.now();
  for (let i = 0; i < tasks.length; i++) {
    if (performance.now() - lastYield > YIELD_MS) {
      await nextMacrotask();
      lastYield = performance.now();
    }
    if (cancelled.has(seq)) return { ok: false, cancelled: true };
    if (i > 0) send({ t: 'at', seq, index: i });
    try {
      // one clock read per task: a task ends when the next one starts (see endTimes)
      if (times) times[2 * i] = epochNow();
      const out = runTask(tasks[i]!, registry, resolve);
      if (out instanceof Promise) {
        results[i] = await out;
        if (times) times[2 * i + 1] = epochNow();
      } else results[i] = out;
      collectGarbage();
    } catch (e) {
      return { ok: false, index: i, error: encodeError(e) };
    }
  }
  // the profile shows the workers' memory beside the host's (a process's is not the host's)
  return times
    ? { ok: true, results, times: endTimes(times), rss: process.memoryUsage.rss() }
    : { ok: true, results };
}

async function drain(): Promise<void> {
  running = true;
  for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
    const reply = cancelled.has(job.seq)
      ? ({ ok: false, cancelled: true } as const)
      : await execute(job.seq, job.tasks, job.timed);
    cancelled.delete(job.seq);
    lastDone = job.seq;
    send({ t: 'reply', seq: job.seq, reply });
  }
  running = false;
}

try {
  registry = await loadRegistry(process.argv[3] || undefined);
  process.on('message', (m: ToProcess) => {
    if (m.t === 'cancel') {
      if (m.seq > lastDone) cancelled.add(m.seq);
    } else if (m.t === 'batch') {
      try {
        held.resolve(m.tasks);
      } catch (e) {
        send({ t: 'reply', seq: m.seq, reply: { ok: false, index: 0, error: encodeError(e) } });
        return;
      }
      queue.push({ seq: m.seq, tasks: m.tasks, timed: m.timed === true });
      if (!running) void drain();
    } else held.apply(m);
  });
  send({ t: 'ready' });
} catch (e) {
  send({ t: 'failed', error: encodeError(e) });
  process.exitCode = 1;
  process.disconnect();
}
