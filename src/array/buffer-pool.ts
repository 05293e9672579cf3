// Reuse of large block buffers. Touching fresh memory is slow (page faults: ~0.3 GB/s on the
// machines this runs on, against ~10 GB/s for memory already touched), so the buffers of
// blocks a compute released are kept, by exact byte size, and handed to later blocks.
//
// Every large buffer allocate() makes carries a 16-byte trailer past its data, invisible to
// its TypedArray view: a magic word, a process-unique id, and a state word. The state is 1
// when the buffer was made by a built-in kernel inside a task, 0 once anything outside the
// scheduler's view may hold it (user code ran on it, it became a compute result, it was made
// outside a task). Only state-1 buffers whose every block the scheduler released are reused
// (workers/recycler.ts decides that); the trailer lives in shared memory, so a worker that
// ran user code on a block clears the state for every thread at once.
//
// Each thread keeps its own free list; the main thread's is fed by the scheduler and hands
// buffers to worker tasks (TaskPayload.spare), which allocate() there takes first.

import { totalmem } from 'node:os';
import { threadId } from 'node:worker_threads';
import { adviseHugePages } from './huge-pages.ts';

/** What the pool reads of a block's storage (any TypedArray view). */
type View = ArrayBufferView;

/** Bytes past the data: [MAGIC, id low, id high, state] as int32. */
export const TRAILER_BYTES = 16;
/** Buffers at most this large are slab-carved, never pooled (see allocate). */
export const POOL_MIN_BYTES = 4096;
const MAGIC = 0x7e55e7a1;
/** The trailer word of a slab small blocks are carved from: never pooled. */
const SLAB_MAGIC = 0x7e55e7a2;
const STATE_POOLABLE = 1;
const STATE_ESCAPED = 0;

let counter = 0;
/** Depth of tasks running on this thread (allocations inside one may be reused later). */
let inTask = 0;

/** Free buffers of this thread by data bytes, and their total. */
const free = new Map<number, SharedArrayBuffer[]>();
let freeBytes = 0;
/**
 * The default bound of the main thread's free list (config.bufferPool): an eighth of the
 * machine's memory, at most 1 GiB.
 * @example
 * configure({ bufferPool: defaultBufferPoolLimit() / 2 });
 */
export function defaultBufferPoolLimit(): number {
  return Math.min(Math.floor(totalmem() / 8), 2 ** 30);
}

/**
 * The most bytes this thread's free list holds. A worker's list only keeps the spare buffers
 * its tasks were handed and did not use, so it stays small.
 */
let limit = threadId === 0 ? defaultBufferPoolLimit() : 64 * 2 ** 20;
let trimTimer: ReturnType<typeof setTimeout> | undefined;
/** A free list unused this long (ms) is dropped, so an idle process gives its memory back. */
const IDLE_MS = 2000;
/** Bytes of new buffers made on this thread since takeFreshBytes() last ran. */
let fresh = 0;

/** Data room of a buffer for `bytes`: a multiple of 8, so the trailer is aligned. */
const roomFor = (bytes: number): number => Math.ceil(bytes / 8) * 8;

function trailerOf(buf: SharedArrayBuffer): Int32Array {
  return new Int32Array(buf, buf.byteLength - TRAILER_BYTES, 4);
}

/**
 * A shared buffer with room for `bytes` of data and a trailer: a free one of exactly that
 * size when this thread has one (zeroed, unless `zeroed` is false: a kernel that writes
 * every element first), else a new one. Inside a task it is marked
 * reusable once released; outside one, never.
 * @example
 * const buf = pooledBuffer(8 * 2 ** 20); // data is the first 8 MiB
 */
export function pooledBuffer(bytes: number, zeroed = true): SharedArrayBuffer {
  const room = roomFor(bytes);
  const list = free.get(room);
  let buf = list?.pop();
  if (buf !== undefined) {
    freeBytes -= room;
    if (list!.length === 0) free.delete(room);
    if (zeroed) new Uint8Array(buf, 0, room).fill(0);
  } else {
    buf = new SharedArrayBuffer(room + TRAILER_BYTES);
    adviseHugePages(buf);
    fresh += room;
  }
  const t = trailerOf(buf);
  t[0] = MAGIC;
  t[1] = counter++ | 0;
  t[2] = threadId;
  t[3] = inTask > 0 ? STATE_POOLABLE : STATE_ESCAPED;
  return buf;
}

/**
 * A shared slab with room for `bytes` of small blocks, its trailer saying it is a slab, so
 * its last bytes are never read as a pooled buffer's trailer.
 * @example
 * const slab = slabBuffer(256 * 1024);
 */
export function slabBuffer(bytes: number): SharedArrayBuffer {
  const buf = new SharedArrayBuffer(roomFor(bytes) + TRAILER_BYTES);
  trailerOf(buf)[0] = SLAB_MAGIC;
  return buf;
}

/** The trailer of a view's buffer when it is one of ours, large enough to pool. */
function ownTrailer(d: View): Int32Array | undefined {
  // the buffer's size decides, not the view's: a small view of a pooled buffer holds it too
  const buf = d.buffer;
  if (!(buf instanceof SharedArrayBuffer) || buf.byteLength <= POOL_MIN_BYTES + TRAILER_BYTES) {
    return undefined;
  }
  if (d.byteOffset + d.byteLength > buf.byteLength - TRAILER_BYTES) return undefined;
  const t = trailerOf(buf);
  return t[0] === MAGIC && (t[3] === STATE_POOLABLE || t[3] === STATE_ESCAPED) ? t : undefined;
}

/**
 * The process-unique id of the buffer under `data` while it may still be reused (made by a
 * built-in kernel in a task and never exposed since); undefined for any other storage.
 * @example
 * poolableId(block.data); // e.g. 4294967301, or undefined
 */
export function poolableId(data: View): number | undefined {
  const t = ownTrailer(data);
  return t === undefined || t[3] !== STATE_POOLABLE ? undefined : idOf(t);
}

/** The id a trailer holds: the making thread's id above the thread's counter. */
const idOf = (t: Int32Array): number => t[2]! * 2 ** 32 + (t[1]! >>> 0);

/**
 * The process-unique id of the buffer under `data` whatever its state (a compute's result
 * too), or undefined for storage `allocate` did not make: one buffer's id on every thread.
 * @example
 * bufferId(result.data) === bufferId(place.result.data); // the same memory
 */
export function bufferId(data: View): number | undefined {
  const t = ownTrailer(data);
  return t === undefined ? undefined : idOf(t);
}

/**
 * Whether the buffer under `data` may go to this thread's free list at once: a built-in
 * kernel made it, on this thread, inside a task, and it was never exposed.
 * @example
 * if (reusableHere(step.data)) recycleBuffer(step.data.buffer as SharedArrayBuffer);
 */
export function reusableHere(data: View): boolean {
  const t = ownTrailer(data);
  return t !== undefined && t[3] === STATE_POOLABLE && t[2] === threadId;
}

/**
 * Mark the buffer under `data` as exposed: never reused (user code saw it, or it is part of a
 * compute's result). Storage that is not one of ours is left untouched.
 * @example
 * exposeBuffer(result.data); // a later compute cannot reuse its memory
 */
export function exposeBuffer(data: View): void {
  const t = ownTrailer(data);
  if (t !== undefined) t[3] = STATE_ESCAPED;
}

/** Buffers this thread's engine copied a user function's result into. */
const engineCopies = new WeakSet<ArrayBufferLike>();

/**
 * Note that `data` is tessera's copy of what a user function returned (its array was not in
 * shared memory): the function never saw this buffer, so returning it does not expose it.
 * @example
 * const out = allocate('float64', r.length); out.set(r); markEngineCopy(out);
 */
export function markEngineCopy(data: View): void {
  engineCopies.add(data.buffer);
}

/**
 * exposeBuffer for what a user function returned: its own arrays are exposed, tessera's
 * copies of them (markEngineCopy) stay reusable.
 * @example
 * exposeReturned(block.data); // after a mapBlocks kernel returned block
 */
export function exposeReturned(data: View): void {
  if (!engineCopies.has(data.buffer)) exposeBuffer(data);
}

/**
 * Give a free buffer (no block of it is referenced anywhere) to this thread's free list;
 * false (and dropped) when the list is full.
 * @example
 * recycleBuffer(buf); // a later block of its size takes it
 */
export function recycleBuffer(buf: SharedArrayBuffer): boolean {
  const bytes = buf.byteLength - TRAILER_BYTES;
  if (freeBytes + bytes > limit) return false;
  const list = free.get(bytes);
  if (list === undefined) free.set(bytes, [buf]);
  else list.push(buf);
  freeBytes += bytes;
  scheduleTrim();
  return true;
}

/**
 * A free buffer with exactly `bytes` of data taken from this thread's list (to hand to a
 * task on another thread), or undefined.
 * @example
 * const spare = takeFreeBuffer(nominalBytes);
 */
export function takeFreeBuffer(bytes: number): SharedArrayBuffer | undefined {
  const room = roomFor(bytes);
  const list = free.get(room);
  const buf = list?.pop();
  if (buf === undefined) return undefined;
  freeBytes -= room;
  if (list!.length === 0) free.delete(room);
  return buf;
}

function scheduleTrim(): void {
  if (trimTimer !== undefined) clearTimeout(trimTimer);
  trimTimer = setTimeout(trimBufferPool, IDLE_MS);
  trimTimer.unref?.();
}

/**
 * Drop this thread's free buffers (the garbage collector then returns their memory).
 * @example
 * trimBufferPool(); // freeBufferBytes() === 0
 */
export function trimBufferPool(): void {
  if (trimTimer !== undefined) clearTimeout(trimTimer);
  trimTimer = undefined;
  free.clear();
  freeBytes = 0;
}

/**
 * Bytes of free buffers this thread holds.
 * @example
 * freeBufferBytes(); // 0 after trimBufferPool()
 */
export function freeBufferBytes(): number {
  return freeBytes;
}

/**
 * Set the most bytes this thread's free list holds (0: never keep any); trims to fit.
 * @example
 * setBufferPoolLimit(0); // no reuse on this thread
 */
export function setBufferPoolLimit(bytes: number): void {
  limit = bytes;
  if (freeBytes > limit) trimBufferPool();
}

/**
 * Bytes of new buffers this thread made since the last call (the collector's count: V8 does
 * not see shared memory as pressure, see workers/collect.ts).
 * @example
 * takeFreshBytes(); // 8388608 after one fresh 8 MiB block
 */
export function takeFreshBytes(): number {
  const n = fresh;
  fresh = 0;
  return n;
}

/**
 * Run `fn` as a task's kernel: what it allocates may be reused once released.
 * @example
 * const out = insideTask(() => kernel(inputs, params, ctx));
 */
export function insideTask<T>(fn: () => T): T {
  inTask++;
  try {
    return fn();
  } finally {
    inTask--;
  }
}
