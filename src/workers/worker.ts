// The worker-thread side of the thread pool: receives batches of tasks, runs each with
// runTask, and answers with results (shared buffers stay shared) or the first error as data.

import { parentPort, workerData } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { createFnResolver, findFnRefs, needsPreload } from '../kernels/resolve.ts';
import { runTask } from '../kernels/run-task.ts';
import type { Chunk, FnRef, KernelRegistry } from '../kernels/types.ts';
import { busy, collectGarbage, collectWhenIdle, notePlaces } from './collect.ts';
import { loadRegistry } from './registry.ts';
import { endTimes, epochNow } from './task-timing.ts';
import {
  type BatchMessage,
  type BatchReply,
  CONTROL,
  decodeInputs,
  encodeError,
  toEndpoint,
  transferables,
  type WorkerInit,
} from './wire.ts';

/** What the main thread calls through comlink. */
export interface WorkerApi {
  runBatch(msg: BatchMessage): BatchReply | Promise<BatchReply>;
}

const init = workerData as WorkerInit;
const control = new Int32Array(init.control);
const registry: KernelRegistry = await loadRegistry(init.registryModule);
const resolve = createFnResolver({ inline: false });

/**
 * Run the batch's tasks from `from` on; synchronous until an asynchronous kernel returns a
 * promise, then the rest of the batch continues once it settles.
 */
function execute(
  msg: BatchMessage,
  results: Chunk[] = new Array<Chunk>(msg.tasks.length),
  from = 0,
  times: Float64Array | undefined = msg.timed ? new Float64Array(2 * msg.tasks.length) : undefined,
): BatchReply | Promise<BatchReply> {
  const tasks = msg.tasks;
  const lane = CONTROL.LANES + msg.lane;
  for (let i = from; i < tasks.length; i++) {
    if (control[lane] !== 0) return { ok: false, cancelled: true };
    control[CONTROL.INDEX] = i;
    // one clock read per task: a task ends when the next one starts (see endTimes)
    if (times) times[2 * i] = epochNow();
    try {
      const out = runTask(tasks[i]!, registry, resolve);
      if (out instanceof Promise) {
        return out.then(
          (value) => {
            results[i] = value;
            notePlaces(tasks[i]!.into);
            if (times) times[2 * i + 1] = epochNow();
            return execute(msg, results, i + 1, times);
          },
          (e: unknown): BatchReply => ({ ok: false, index: i, error: encodeError(e) }),
        );
      }
      results[i] = out;
      notePlaces(tasks[i]!.into);
      collectGarbage();
    } catch (e) {
      return { ok: false, index: i, error: encodeError(e) };
    }
  }
  const reply: BatchReply = times
    ? { ok: true, results, times: endTimes(times) }
    : { ok: true, results };
  return Comlink.transfer(reply, transferables(results));
}

function start(msg: BatchMessage): BatchReply | Promise<BatchReply> {
  control[CONTROL.SEQ] = msg.seq;
  control[CONTROL.INDEX] = 0;
  decodeInputs(msg.tasks);
  const refs: FnRef[] = [];
  for (const t of msg.tasks) {
    if (typeof t.params === 'object' && t.params !== null) refs.push(...findFnRefs(t.params));
  }
  if (!needsPreload(refs)) return execute(msg);
  return resolve.preload(refs).then(
    () => {
      control[CONTROL.SEQ] = msg.seq;
      return execute(msg);
    },
    (e: unknown): BatchReply => ({ ok: false, index: 0, error: encodeError(e) }),
  );
}

// Batches run one after another: a batch waiting on an import holds back the next one.
let pending: Promise<BatchReply> | undefined;

function track(p: Promise<BatchReply>): Promise<BatchReply> {
  pending = p;
  const clear = (): void => {
    if (pending !== p) return;
    pending = undefined;
    collectWhenIdle();
  };
  p.then(clear, clear);
  return p;
}

const api: WorkerApi = {
  runBatch(msg) {
    busy();
    if (pending !== undefined) return track(pending.then(() => start(msg)));
    const reply = start(msg);
    if (reply instanceof Promise) return track(reply);
    collectWhenIdle();
    return reply;
  },
};

Comlink.expose(api, nodeEndpoint(toEndpoint(parentPort!)));
Atomics.store(control, CONTROL.READY, 1);
