// The device-side state of one GPU: buffers by id, the buffer pool, cached pipelines, and the
// upload / dispatch / readback primitives every kernel is built from.

/// <reference types="@webgpu/types" />

import type { DType } from '../../array/dtype.ts';
import { BufferPool, sizeClass } from './buffer-pool.ts';
import type { GpuDevice } from './device.ts';
import { gpuBytes } from './gpu-dtype.ts';

/** A chunk resident on the device. */
export interface GpuTensor {
  readonly buffer: GPUBuffer;
  readonly dtype: DType;
  readonly shape: readonly number[];
  /** Bytes of data (a whole number of words). */
  readonly bytes: number;
}

const MAP_READ_COPY_DST = 0x01 | 0x08;
const MAX_GROUPS = 65535;
export const WORKGROUP = 256;
const UPLOAD_SLICE = 64 * 1024 * 1024;

export class GpuRuntime {
  readonly pool: BufferPool;
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  private readonly staging = new Map<number, GPUBuffer[]>();
  pipelineMs = 0;
  private scratch = new Uint8Array(4096);

  constructor(readonly dev: GpuDevice) {
    this.pool = new BufferPool(dev.device, dev.limits.maxBufferSize);
  }

  get device(): GPUDevice {
    return this.dev.device;
  }

  /** A new tensor of `n` elements of `dtype` (contents undefined). */
  alloc(dtype: DType, shape: readonly number[]): GpuTensor {
    const n = shape.reduce((a, b) => a * b, 1);
    const bytes = gpuBytes(dtype, n);
    const limit = this.dev.limits.maxStorageBufferBindingSize;
    if (bytes > limit) {
      throw new RangeError(
        `gpu: a ${dtype} chunk of shape [${shape.join(', ')}] needs ${bytes} bytes, over the ` +
          `device's maxStorageBufferBindingSize ${limit}; use smaller chunks`,
      );
    }
    return { buffer: this.pool.acquire(bytes), dtype, shape: [...shape], bytes };
  }

  free(t: GpuTensor): void {
    this.pool.release(t.buffer);
  }

  /**
   * Copy host bytes in (padded to a word). dawn.node crashes on views of a
   * SharedArrayBuffer (every NDArray's), so bytes pass through a reused plain scratch buffer
   * in slices of at most UPLOAD_SLICE.
   */
  upload(data: ArrayBufferView, dtype: DType, shape: readonly number[]): GpuTensor {
    const t = this.alloc(dtype, shape);
    const src = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const total = Math.max(4, Math.ceil(src.length / 4) * 4);
    for (let off = 0; off < total; off += UPLOAD_SLICE) {
      const len = Math.min(UPLOAD_SLICE, total - off);
      if (this.scratch.length < len) this.scratch = new Uint8Array(Math.max(len, 4096));
      const part = src.subarray(off, Math.min(src.length, off + len));
      this.scratch.set(part);
      this.scratch.fill(0, part.length, len);
      this.dev.queue.writeBuffer(t.buffer, off, this.scratch.buffer, 0, len);
    }
    return t;
  }

  /** A small read-only u32 buffer (kernel metadata). */
  meta(values: readonly number[]): GpuTensor {
    const u = Uint32Array.from(values.length > 0 ? values : [0], (v) => v >>> 0);
    return this.upload(u, 'uint32', [u.length]);
  }

  /** Read `t` back into `into` (its first t.bytes rounded down to its length). */
  async download(t: GpuTensor, into: Uint8Array): Promise<void> {
    const size = sizeClass(t.bytes);
    const list = this.staging.get(size) ?? [];
    this.staging.set(size, list);
    const st = list.pop() ?? this.device.createBuffer({ size, usage: MAP_READ_COPY_DST });
    const enc = this.device.createCommandEncoder();
    enc.copyBufferToBuffer(t.buffer, 0, st, 0, t.bytes);
    this.dev.queue.submit([enc.finish()]);
    await this.dev.inst.hold(st.mapAsync(1, 0, t.bytes));
    into.set(new Uint8Array(st.getMappedRange(0, t.bytes), 0, into.byteLength));
    st.unmap();
    list.push(st);
  }

  /** The pipeline of `key`, compiling `source()` on first use. */
  async pipeline(key: string, source: () => string): Promise<GPUComputePipeline> {
    const hit = this.pipelines.get(key);
    if (hit) return hit;
    const t0 = performance.now();
    this.device.pushErrorScope('validation');
    const module = this.device.createShaderModule({ code: source() });
    let p: GPUComputePipeline | undefined;
    let failure: unknown;
    try {
      p = await this.dev.inst.hold(
        this.device.createComputePipelineAsync({
          layout: 'auto',
          compute: { module, entryPoint: 'main' },
        }),
      );
    } catch (e) {
      failure = e;
    }
    const err = await this.dev.inst.hold(this.device.popErrorScope());
    if (err || p === undefined) {
      const why = err?.message ?? (failure instanceof Error ? failure.message : String(failure));
      throw new Error(`webgpu: pipeline ${key.slice(0, 120)} failed: ${why}`);
    }
    this.pipelineMs += performance.now() - t0;
    this.pipelines.set(key, p);
    return p;
  }

  get pipelineCount(): number {
    return this.pipelines.size;
  }

  /** Dispatch `threads` invocations (1-d, folded into x·y when over 65535 groups). */
  dispatch(p: GPUComputePipeline, buffers: readonly GPUBuffer[], threads: number): void {
    const groups = Math.max(1, Math.ceil(threads / WORKGROUP));
    const x = Math.min(groups, MAX_GROUPS);
    const y = Math.ceil(groups / x);
    this.dispatchGroups(p, buffers, x, y);
  }

  dispatchGroups(
    p: GPUComputePipeline,
    buffers: readonly GPUBuffer[],
    x: number,
    y = 1,
    z = 1,
  ): void {
    const bind = this.device.createBindGroup({
      layout: p.getBindGroupLayout(0),
      entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    const enc = this.device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(p);
    pass.setBindGroup(0, bind);
    pass.dispatchWorkgroups(x, y, z);
    pass.end();
    this.dev.queue.submit([enc.finish()]);
  }

  /** Run `f` and reject with the first validation or out-of-memory error it caused. */
  async checked<T>(what: string, f: () => Promise<T>): Promise<T> {
    this.device.pushErrorScope('out-of-memory');
    this.device.pushErrorScope('validation');
    let value: T | undefined;
    let failure: { e: unknown } | undefined;
    try {
      value = await f();
    } catch (e) {
      failure = { e };
    }
    const validation = await this.dev.inst.hold(this.device.popErrorScope());
    const oom = await this.dev.inst.hold(this.device.popErrorScope());
    if (failure) throw failure.e;
    const err = validation ?? oom;
    if (err) throw new Error(`${what}: the device rejected the work: ${err.message}`);
    return value as T;
  }

  /** Resolves when every submitted command has run. */
  async sync(): Promise<void> {
    await this.dev.inst.hold(this.dev.queue.onSubmittedWorkDone());
  }

  async close(): Promise<void> {
    await this.sync();
    this.pool.trim();
    for (const list of this.staging.values()) for (const b of list) b.destroy();
    this.staging.clear();
    this.pipelines.clear();
    await this.dev.close();
  }
}
