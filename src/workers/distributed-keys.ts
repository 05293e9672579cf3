// The Redis keys of the distributed executor's computes: each compute (one scheduler run, known
// by the AbortSignal it passes) owns the keys it wrote; they are deleted when it ends, renewed
// while it lives, and expire after a bounded TTL if the client dies.

import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Chunk } from '../kernels/types.ts';

/** One compute: its id (signed into its jobs), its keys, and its jobs in flight. */
export class ComputeKeys {
  readonly id = randomUUID();
  /** Every key written for it (or about to be: results a worker will write). */
  readonly keys = new Set<string>();
  /** Chunk → the key holding it (inputs uploaded once per compute, results that stayed). */
  readonly held = new WeakMap<object, string>();
  /** Placeholders of results that stay in Redis. */
  readonly remote = new WeakSet<object>();
  /** Job ids in flight. */
  readonly jobs = new Set<string>();
  ended = false;
}

interface Held {
  readonly key: string;
  readonly compute: ComputeKeys;
}

/**
 * The computes of one client and their keys. `redis` resolves once connected; deletions and
 * renewals before that wait for it, failures are ignored (the TTL bounds what is left).
 */
export class ComputeKeyring {
  private readonly computes = new Map<object, ComputeKeys>();
  private readonly finalizer = new FinalizationRegistry<Held>(({ key, compute }) => {
    compute.keys.delete(key);
    this.redis.then((r) => r.del(key)).catch(() => {});
  });
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly redis: Promise<Redis>,
    readonly ttlMs: number,
    /** Called when a compute ends with jobs in flight (to cancel them on the workers). */
    private readonly onEnd: (c: ComputeKeys) => void,
  ) {}

  /** The compute that `signal` belongs to (runs without a signal share one until computeEnded). */
  of(signal: AbortSignal | undefined): ComputeKeys {
    const owner: object = signal ?? this;
    let c = this.computes.get(owner);
    if (c !== undefined) return c;
    c = new ComputeKeys();
    this.computes.set(owner, c);
    const made = c;
    // the scheduler aborts its signal when the run ends: failed, cancelled, or finished
    signal?.addEventListener('abort', () => void this.end(owner, made), { once: true });
    this.renewLater();
    return c;
  }

  /** Remember that `chunk` is held at `key` for `c`; its key is deleted once it is collected. */
  hold(c: ComputeKeys, chunk: Chunk, key: string): void {
    c.keys.add(key);
    c.held.set(chunk, key);
    this.finalizer.register(chunk, { key, compute: c });
  }

  /** Runs without a signal ended: end their compute unless a job is still in flight. */
  endUnsignalled(): void {
    const c = this.computes.get(this);
    if (c !== undefined && c.jobs.size === 0) void this.end(this, c);
  }

  /** End every compute (shutdown): resolves once their keys are deleted. */
  async endAll(): Promise<void> {
    await Promise.all([...this.computes].map(([owner, c]) => this.end(owner, c)));
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async end(owner: object, c: ComputeKeys): Promise<void> {
    if (this.computes.get(owner) === c) this.computes.delete(owner);
    if (c.ended) return;
    c.ended = true;
    if (c.jobs.size > 0) this.onEnd(c);
    const keys = [...c.keys];
    c.keys.clear();
    if (keys.length === 0) return;
    try {
      const r = await this.redis;
      for (let i = 0; i < keys.length; i += 1000) await r.del(...keys.slice(i, i + 1000));
    } catch {
      // Redis is gone: the keys expire on their own after ttlMs
    }
  }

  /** Renew the TTL of live computes' keys every third of it, so a long compute keeps its data. */
  private renewLater(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.renew(), Math.max(50, this.ttlMs / 3));
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    if (this.computes.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    try {
      const r = await this.redis;
      const pipe = r.pipeline();
      for (const c of this.computes.values()) for (const k of c.keys) pipe.pexpire(k, this.ttlMs);
      await pipe.exec();
    } catch {
      // the next renewal, or the TTL, takes care of it
    }
  }
}
