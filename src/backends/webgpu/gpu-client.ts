// The main-thread side of a GPU: `openGpu(name)` starts the worker that owns the device and
// returns a handle-based API; chunks stay on the device between calls until released.

import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TypedArray } from '../../array/dtype.ts';
import { NDArray } from '../../array/ndarray.ts';
import {
  DTypeError,
  KernelError,
  ShapeError,
  type TesseraError,
  ValueError,
  WorkerCrashedError,
} from '../../errors.ts';
import { membersNeedTsx } from '../../workers/exec-argv.ts';
import type { PoolStats } from './buffer-pool.ts';
import type { AdapterEntry } from './device.ts';
import type { GpuHandle, GpuReady, GpuReply, GpuRequest, WireError } from './wire.ts';

export type { GpuHandle } from './wire.ts';

/** Pool and cache figures of one GPU worker. */
export interface GpuStats extends PoolStats {
  readonly buffers: number;
  readonly pipelines: number;
  readonly pipelineMs: number;
}

const ERRORS: Record<string, new (m: string) => TesseraError> = {
  DTypeError,
  ValueError,
  ShapeError,
  KernelError,
};

function rebuild(e: WireError): Error {
  const C = ERRORS[e.tag];
  const err = C ? new C(e.message) : new Error(e.message);
  if (e.stack) err.stack = `${err.name}: ${e.message}\n(in the GPU worker)\n${e.stack}`;
  return err;
}

const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const BOOTSTRAP = fileURLToPath(new URL('../../workers/bootstrap.mjs', import.meta.url));
const ENTRY = new URL(`./gpu-worker${ext}`, import.meta.url).href;

interface Pending {
  resolve(v: unknown): void;
  reject(e: unknown): void;
  what: string;
}

/** A GPU device owned by a worker thread, reached through small handles. */
export class GpuClient {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private dead: Error | null = null;

  private constructor(
    readonly name: string,
    private readonly worker: Worker,
    readonly adapter: AdapterEntry,
    readonly hasF16: boolean,
  ) {
    worker.on('message', (m: GpuReply) => this.settle(m));
    worker.on('error', (e) => this.crash(`error: ${e.message}`));
    worker.on('exit', (code) => this.crash(`exited with code ${code}`));
  }

  /** Start a worker and open device `name` on it. */
  static async open(name: string): Promise<GpuClient> {
    const worker = new Worker(BOOTSTRAP, {
      workerData: { entry: ENTRY, tsx: membersNeedTsx(), device: name },
    });
    // biome-ignore lint/suspicious/noExplicitAny: EventEmitter listeners take any arguments
    const listeners: [string, (...a: any[]) => void][] = [];
    const ready = await new Promise<GpuReady>((resolve, reject) => {
      const onExit = (code: number) =>
        reject(
          new WorkerCrashedError(
            `openGpu ${name}`,
            `exited with code ${code} before the device opened`,
          ),
        );
      listeners.push(['message', resolve], ['error', reject], ['exit', onExit]);
      for (const [ev, f] of listeners) worker.once(ev, f);
    });
    // Only this function's listeners: removeAllListeners() would also drop the Worker's own.
    for (const [ev, f] of listeners) worker.off(ev, f);
    if (!ready.ready) {
      await worker.terminate();
      throw rebuild(ready.error);
    }
    worker.unref();
    return new GpuClient(name, worker, ready.adapter, ready.hasF16);
  }

  private settle(m: GpuReply): void {
    const p = this.pending.get(m.id);
    if (p === undefined) return;
    this.pending.delete(m.id);
    // idle, the worker must not keep the program alive (as the thread pool's workers)
    if (this.pending.size === 0) this.worker.unref();
    if (m.ok) p.resolve(m.value);
    else p.reject(rebuild(m.error));
  }

  private crash(detail: string): void {
    if (this.dead === null) this.dead = new WorkerCrashedError(`gpu ${this.name}`, detail);
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new WorkerCrashedError(`gpu ${this.name} ${p.what}`, detail));
    }
  }

  private call<T>(
    req: GpuRequest,
    what: string = req.op,
    transfer: ArrayBuffer[] = [],
  ): Promise<T> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, what });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ id, req }, transfer);
    });
  }

  /** Copy a host array to the device. */
  upload(x: NDArray): Promise<GpuHandle> {
    return this.call({ op: 'upload', dtype: x.dtype, shape: [...x.shape], data: x.data });
  }

  /**
   * Copy a device chunk back into a new shared host array, or into `into` (an NDArray of the
   * same dtype and size on a SharedArrayBuffer, written in place: reusing host memory
   * avoids faulting in fresh pages, the main cost of large readbacks).
   */
  async download(h: GpuHandle, into?: NDArray): Promise<NDArray> {
    if (into !== undefined) {
      if (into.dtype !== h.dtype || into.size !== h.shape.reduce((a, b) => a * b, 1)) {
        throw new ValueError(
          `GpuClient.download: into is ${into.dtype} [${into.shape.join(', ')}], the chunk ${h.dtype} [${h.shape.join(', ')}]`,
        );
      }
      if (!(into.data.buffer instanceof SharedArrayBuffer)) {
        throw new ValueError('GpuClient.download: into must be on a SharedArrayBuffer');
      }
    }
    const data = await this.call<TypedArray>({ op: 'download', id: h.id, into: into?.data });
    return into ?? new NDArray(data, h.shape, h.dtype);
  }

  /** Run kernel `kernel` on device chunks; the outputs stay on the device. */
  run(kernel: string, inputs: readonly GpuHandle[], params: unknown): Promise<GpuHandle[]> {
    return this.call(
      { op: 'run', kernel, inputs: inputs.map((h) => h.id), params },
      `run ${kernel}`,
    );
  }

  /** Return chunks' buffers to the pool (fire and forget; ordered before later calls). */
  release(...handles: GpuHandle[]): void {
    if (this.dead) return;
    void this.call({ op: 'release', ids: handles.map((h) => h.id) }).catch(() => {});
  }

  stats(): Promise<GpuStats> {
    return this.call({ op: 'stats' });
  }

  /** Wait until the device has run everything submitted so far. */
  sync(): Promise<void> {
    return this.call({ op: 'sync' });
  }

  /** Test hook: make the worker die as a native crash would. */
  simulateCrash(): Promise<void> {
    return this.call({ op: 'crash' });
  }

  get crashed(): boolean {
    return this.dead !== null;
  }

  /** Finish pending work, destroy the device and end the worker. */
  async close(): Promise<void> {
    if (this.dead === null) {
      await this.call({ op: 'close' });
      this.dead = new Error(`gpu ${this.name}: closed`);
    }
    await this.worker.terminate();
  }
}

/**
 * Open GPU device `name` ('gpu', 'gpu:0', …) on its own worker thread.
 * @example
 * const gpu = await openGpu('gpu');
 * const h = await gpu.upload(ndarray([1, 2, 3], [3], 'float32'));
 * const [y] = await gpu.run('ew', [h], { expr: { op: 'exp', args: [{ in: 0 }], dtype: 'float32' }, dtype: 'float32' });
 * const nd = await gpu.download(y!);
 * gpu.release(h, y!);
 * await gpu.close();
 */
export function openGpu(name = 'gpu'): Promise<GpuClient> {
  return GpuClient.open(name);
}
