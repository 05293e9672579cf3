// A per-device pool of storage buffers by size class (powers of two from 256 bytes, then
// 1/4 steps): a released buffer is reused by the next request of its class, never re-created.

/// <reference types="@webgpu/types" />

/** Bytes a pool holds on its device. */
export interface PoolStats {
  /** Bytes of buffers handed out and not yet released. */
  readonly live: number;
  /** Bytes of released buffers kept for reuse. */
  readonly pooled: number;
  /** The largest live + pooled seen. */
  readonly peak: number;
  /** Buffers created, and requests served from the pool. */
  readonly created: number;
  readonly reused: number;
}

// STORAGE | COPY_SRC | COPY_DST (the GPUBufferUsage flags, spelled out: no globals needed).
const STORAGE_USAGE = 0x80 | 0x04 | 0x08;
const MIN_CLASS = 256;

/**
 * The size class holding `bytes`: a power of two up to 1 MiB, above it the next multiple
 * of a quarter of the power of two below (so at most 25 % of a large buffer is slack).
 * @example
 * sizeClass(1000); // 1024
 */
export function sizeClass(bytes: number): number {
  const b = Math.max(MIN_CLASS, bytes);
  const pow = 2 ** Math.ceil(Math.log2(b));
  if (pow <= 1 << 20) return pow;
  const step = pow / 8;
  return Math.ceil(b / step) * step;
}

export class BufferPool {
  private readonly free = new Map<number, GPUBuffer[]>();
  private readonly sizes = new WeakMap<GPUBuffer, number>();
  private live = 0;
  private pooled = 0;
  private peak = 0;
  private created = 0;
  private reused = 0;

  constructor(
    private readonly device: GPUDevice,
    private readonly maxBufferSize: number,
  ) {}

  /** A storage buffer of at least `bytes` bytes (contents undefined). */
  acquire(bytes: number): GPUBuffer {
    // Near the limit the class may not fit: then the exact size (a multiple of 4).
    let cls = sizeClass(bytes);
    if (cls > this.maxBufferSize) cls = Math.ceil(bytes / 4) * 4;
    const list = this.free.get(cls);
    const hit = list?.pop();
    if (hit !== undefined) {
      this.pooled -= cls;
      this.live += cls;
      this.reused++;
      return hit;
    }
    if (cls > this.maxBufferSize) {
      throw new RangeError(
        `BufferPool.acquire: ${bytes} bytes exceed the device's maxBufferSize ${this.maxBufferSize}`,
      );
    }
    const buf = this.device.createBuffer({ size: cls, usage: STORAGE_USAGE });
    this.sizes.set(buf, cls);
    this.created++;
    this.live += cls;
    this.peak = Math.max(this.peak, this.live + this.pooled);
    return buf;
  }

  /** Return a buffer for reuse. */
  release(buf: GPUBuffer): void {
    const cls = this.sizes.get(buf);
    if (cls === undefined) throw new Error('BufferPool.release: buffer is not from this pool');
    this.live -= cls;
    this.pooled += cls;
    let list = this.free.get(cls);
    if (list === undefined) {
      list = [];
      this.free.set(cls, list);
    }
    list.push(buf);
  }

  /** Destroy every pooled buffer (live ones stay with their owners). */
  trim(): void {
    for (const list of this.free.values()) for (const b of list) b.destroy();
    this.free.clear();
    this.pooled = 0;
  }

  stats(): PoolStats {
    return {
      live: this.live,
      pooled: this.pooled,
      peak: this.peak,
      created: this.created,
      reused: this.reused,
    };
  }
}
