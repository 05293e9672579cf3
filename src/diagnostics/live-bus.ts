// The channel live computes report on: every compute of this process publishes its progress,
// task stream, memory and errors here while a dashboard (or another listener) subscribes.

import type { MemorySample, ProfileTask } from './profile.ts';

/** What a compute tells a dashboard, as it runs. `id` is unique within process `pid`. */
export type LiveEvent =
  | {
      readonly type: 'compute-start';
      readonly pid: number;
      readonly id: number;
      readonly scheduler: string;
      readonly workers: number;
      readonly total: number;
      readonly startedAt: number;
    }
  | {
      readonly type: 'tasks';
      readonly pid: number;
      readonly id: number;
      readonly done: number;
      readonly lanes: readonly string[];
      /** Tasks finished since the last event (times relative to the compute's startedAt). */
      readonly tasks: readonly ProfileTask[];
      readonly memory: readonly MemorySample[];
    }
  | {
      readonly type: 'compute-end';
      readonly pid: number;
      readonly id: number;
      readonly durationMs: number;
    }
  | {
      readonly type: 'compute-error';
      readonly pid: number;
      readonly id: number;
      readonly message: string;
      /** The task that failed, when the error names one. */
      readonly key?: string;
      readonly kernel?: string;
    };

export type LiveListener = (e: LiveEvent) => void;

const listeners = new Set<LiveListener>();
let nextId = 1;

/**
 * Receive every compute's live events until the returned function is called.
 * @example
 * const stop = subscribeLive((e) => console.log(e.type));
 * stop();
 */
export function subscribeLive(fn: LiveListener): () => void {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}

/** Whether anyone listens (computes record their task stream only then). */
export function liveListening(): boolean {
  return listeners.size > 0;
}

/** A fresh compute id for this process. */
export function nextComputeId(): number {
  return nextId++;
}

/** Hand `e` to every listener; a listener that throws does not stop the others or the compute. */
export function publishLive(e: LiveEvent): void {
  for (const fn of listeners) {
    try {
      fn(e);
    } catch {
      // a broken dashboard must not fail the compute it watches
    }
  }
}
