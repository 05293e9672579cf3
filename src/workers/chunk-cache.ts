// The chunks a `tessera worker` keeps after a job (those it made and those it fetched), least
// recently used first, so the next job that reads them skips Redis. Keys are never reused.

import type { Chunk } from '../kernels/types.ts';
import { chunkBytes } from './scheduler.ts';

/**
 * A byte-bounded LRU map from chunk keys to chunks.
 * @example
 * const cache = new ChunkCache(2 ** 30);
 * cache.set('tessera:…:r1.0', block);
 * cache.get('tessera:…:r1.0'); // block
 */
export class ChunkCache {
  private readonly entries = new Map<string, { value: Chunk; bytes: number }>();
  private bytes = 0;

  constructor(private readonly budget: number) {}

  /** Bytes held now. */
  get heldBytes(): number {
    return this.bytes;
  }

  get(key: string): Chunk | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  /** Keep `value` under `key`, dropping the least recently used over budget. */
  set(key: string, value: Chunk): void {
    const bytes = chunkBytes(value);
    if (bytes > this.budget || this.entries.has(key)) return;
    for (const [k, e] of this.entries) {
      if (this.bytes + bytes <= this.budget) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
  }
}
