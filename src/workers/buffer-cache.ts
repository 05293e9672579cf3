// Large shared buffers a process pool sends once per process instead of once per task: the
// blocks of fromArray data are views of one big buffer that every task of the array reads.

import { type DType, typedArrayCtor } from '../array/dtype.ts';
import { NDArray } from '../array/ndarray.ts';
import type { Chunk } from '../kernels/types.ts';
import type { TaskPayload } from './types.ts';

/** An input chunk that is a view of buffer `cached`, which the process already holds. */
export interface CachedRef {
  readonly cached: number;
  readonly byteOffset: number;
  readonly length: number;
  readonly dtype: DType;
  readonly shape: readonly number[];
}

/** Main → process: hold a buffer under an id, or let some go. */
export type CacheMessage =
  | { readonly t: 'buffer'; readonly id: number; readonly data: Uint8Array }
  | { readonly t: 'drop'; readonly ids: readonly number[] };

/** Buffers smaller than this travel with each task (their view only). */
export const MIN_CACHED_BYTES = 2 ** 20;

let nextId = 1;

/**
 * The shared buffers one process holds, in least-recently-used order, within `budget` bytes.
 * A buffer the main thread garbage-collects is dropped from the process too.
 * @example
 * const cache = new BufferCache(2 ** 30, (m) => child.send(m));
 * child.send({ t: 'batch', seq, tasks: cache.encode(tasks) });
 */
export class BufferCache {
  private readonly ids = new WeakMap<SharedArrayBuffer, number>();
  /** id → bytes and the finalizer token, least recently used first. */
  private readonly held = new Map<number, { bytes: number; token: object }>();
  private bytes = 0;
  private readonly finalizer = new FinalizationRegistry<number>((id) => this.drop([id]));

  constructor(
    private readonly budget: number,
    private readonly post: (m: CacheMessage) => void,
    private readonly minBytes = MIN_CACHED_BYTES,
  ) {}

  /** Bytes held by the process now. */
  get heldBytes(): number {
    return this.bytes;
  }

  /**
   * The tasks with their large shared inputs replaced by CachedRefs; posts the buffers the
   * process lacks (and drops to stay within budget) before returning.
   */
  encode(tasks: readonly TaskPayload[]): TaskPayload[] {
    const used = new Set<number>();
    const fresh = new Set<SharedArrayBuffer>();
    const encodeChunk = (c: Chunk): Chunk | CachedRef => {
      if (Array.isArray(c)) return c.map(encodeChunk) as Chunk;
      const buf = c.data.buffer;
      if (!this.cacheable(buf, c.data.byteLength)) return c;
      let id = this.ids.get(buf);
      if (id === undefined || !(this.held.has(id) || fresh.has(buf))) {
        id = nextId++;
        this.ids.set(buf, id);
        fresh.add(buf);
      }
      used.add(id);
      const { byteOffset, length } = c.data;
      return { cached: id, byteOffset, length, dtype: c.dtype, shape: c.shape };
    };
    const out = tasks.map((t) => ({ ...t, inputs: t.inputs.map(encodeChunk) as Chunk[] }));
    let incoming = 0;
    for (const buf of fresh) incoming += buf.byteLength;
    this.evict(incoming, used);
    for (const buf of fresh) this.add(buf);
    for (const id of used) this.touch(id);
    return out;
  }

  /** Drop every buffer (the process is told). */
  clear(): void {
    for (const e of this.held.values()) this.finalizer.unregister(e.token);
    this.drop([...this.held.keys()]);
  }

  private cacheable(buf: ArrayBufferLike, viewBytes: number): buf is SharedArrayBuffer {
    return (
      buf instanceof SharedArrayBuffer &&
      buf.byteLength >= this.minBytes &&
      buf.byteLength <= this.budget &&
      // A small view of a big buffer is cheaper to send by itself.
      viewBytes * 4 >= buf.byteLength
    );
  }

  private add(buf: SharedArrayBuffer): void {
    const id = this.ids.get(buf)!;
    const token = {};
    this.held.set(id, { bytes: buf.byteLength, token });
    this.bytes += buf.byteLength;
    this.finalizer.register(buf, id, token);
    this.post({ t: 'buffer', id, data: new Uint8Array(buf) });
  }

  private touch(id: number): void {
    const e = this.held.get(id);
    if (e === undefined) return;
    this.held.delete(id);
    this.held.set(id, e);
  }

  /** Drop least recently used buffers not in `keep` until `incoming` more bytes fit. */
  private evict(incoming: number, keep: ReadonlySet<number>): void {
    const out: number[] = [];
    let bytes = this.bytes;
    for (const [id, e] of this.held) {
      if (bytes + incoming <= this.budget) break;
      if (keep.has(id)) continue;
      out.push(id);
      bytes -= e.bytes;
    }
    for (const id of out) this.finalizer.unregister(this.held.get(id)!.token);
    this.drop(out);
  }

  private drop(ids: readonly number[]): void {
    const gone = ids.filter((id) => this.held.has(id));
    if (gone.length === 0) return;
    for (const id of gone) {
      this.bytes -= this.held.get(id)!.bytes;
      this.held.delete(id);
    }
    this.post({ t: 'drop', ids: gone });
  }
}

/**
 * The process side: buffers by id, and the inputs of arriving tasks resolved against them
 * (at arrival, so a later drop cannot pull a buffer from under a queued batch).
 * @example
 * const held = new HeldBuffers();
 * process.on('message', (m) => (m.t === 'batch' ? held.resolve(m.tasks) : held.apply(m)));
 */
export class HeldBuffers {
  private readonly buffers = new Map<number, Uint8Array>();

  apply(m: CacheMessage): void {
    if (m.t === 'buffer') {
      // IPC hands over bytes at any offset of its own buffer: copy once to a fresh one, so
      // every typed view of it is aligned.
      const d = m.data;
      this.buffers.set(m.id, d.byteOffset % 8 === 0 ? d : d.slice());
    } else for (const id of m.ids) this.buffers.delete(id);
  }

  /** Replace CachedRefs in the tasks' inputs by NDArray views of the held buffers. */
  resolve(tasks: readonly TaskPayload[]): void {
    for (const t of tasks) {
      const inputs = t.inputs;
      for (let i = 0; i < inputs.length; i++) inputs[i] = this.resolveChunk(inputs[i]!);
    }
  }

  private resolveChunk(c: Chunk | CachedRef): Chunk {
    if (Array.isArray(c)) return c.map((e) => this.resolveChunk(e));
    if (!('cached' in c)) return c;
    const held = this.buffers.get(c.cached);
    if (held === undefined) {
      throw new Error(`HeldBuffers.resolve: buffer ${c.cached} is not held (protocol error)`);
    }
    const Ctor = typedArrayCtor(c.dtype);
    const at = held.byteOffset + c.byteOffset;
    const data =
      at % Ctor.BYTES_PER_ELEMENT === 0
        ? new Ctor(held.buffer, at, c.length)
        : new Ctor(
            held.slice(c.byteOffset, c.byteOffset + c.length * Ctor.BYTES_PER_ELEMENT).buffer,
          );
    return new NDArray(data, c.shape, c.dtype);
  }
}
