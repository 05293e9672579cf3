// What a dashboard remembers of the computes it saw: per compute its progress, the latest part
// of its task stream and memory, and its error; a snapshot of it greets each new page.

import type { LiveEvent } from './live-bus.ts';
import type { MemorySample, ProfileTask } from './profile.ts';

/** Computes kept (the oldest finished ones are dropped first). */
const MAX_COMPUTES = 20;
/** Tasks and memory samples kept per compute: the latest ones. */
const MAX_TASKS = 5000;
const MAX_SAMPLES = 2000;

/** One compute as the dashboard shows it. */
export interface ComputeView {
  /** `pid:id`: unique across the processes that report here. */
  readonly key: string;
  readonly pid: number;
  readonly scheduler: string;
  readonly workers: number;
  readonly total: number;
  readonly startedAt: number;
  done: number;
  status: 'running' | 'done' | 'failed';
  durationMs?: number;
  lanes: readonly string[];
  tasks: ProfileTask[];
  memory: MemorySample[];
  error?: { readonly message: string; readonly key?: string; readonly kernel?: string };
}

const keep = <T>(list: T[], more: readonly T[], max: number): T[] => {
  const all = list.concat(more);
  return all.length > max ? all.slice(all.length - max) : all;
};

/**
 * The computes seen, updated by live events.
 * @example
 * const state = new DashboardState();
 * subscribeLive((e) => state.apply(e));
 */
export class DashboardState {
  private readonly computes = new Map<string, ComputeView>();

  apply(e: LiveEvent): void {
    const key = `${e.pid}:${e.id}`;
    if (e.type === 'compute-start') {
      this.computes.set(key, {
        key,
        pid: e.pid,
        scheduler: e.scheduler,
        workers: e.workers,
        total: e.total,
        startedAt: e.startedAt,
        done: 0,
        status: 'running',
        lanes: [],
        tasks: [],
        memory: [],
      });
      this.trim();
      return;
    }
    const c = this.computes.get(key);
    if (c === undefined) return;
    if (e.type === 'tasks') {
      c.done = e.done;
      c.lanes = e.lanes;
      c.tasks = keep(c.tasks, e.tasks, MAX_TASKS);
      c.memory = keep(c.memory, e.memory, MAX_SAMPLES);
    } else if (e.type === 'compute-end') {
      c.status = 'done';
      c.durationMs = e.durationMs;
    } else {
      c.status = 'failed';
      c.error = {
        message: e.message,
        ...(e.key !== undefined ? { key: e.key } : {}),
        ...(e.kernel !== undefined ? { kernel: e.kernel } : {}),
      };
    }
  }

  private trim(): void {
    for (const [key, c] of this.computes) {
      if (this.computes.size <= MAX_COMPUTES) return;
      if (c.status !== 'running') this.computes.delete(key);
    }
  }

  /** Every compute kept, oldest first. */
  snapshot(): ComputeView[] {
    return [...this.computes.values()];
  }
}
