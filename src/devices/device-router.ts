// The executor of a compute that touches a GPU: host tasks go to the host executor, device
// tasks to their device's worker, and blocks cross only where the graph said they may
// (toDevice, or transfers the guards allowed when the expression was built).

import { NDArray } from '../array/ndarray.ts';
import type { FusedParams } from '../backends/cpu-js/registry.ts';
import type { GpuClient, GpuHandle } from '../backends/webgpu/gpu-client.ts';
import { TaskError, TesseraError } from '../errors.ts';
import type { Chunk } from '../kernels/types.ts';
import { type DeviceChunk, isDeviceChunk } from '../workers/device-chunk.ts';
import { type BatchTiming, copyTiming, newTiming } from '../workers/task-timing.ts';
import type { Executor, TaskPayload } from '../workers/types.ts';
import { gpuClient } from './gpu-clients.ts';

const asChunk = (h: GpuHandle): Chunk => h as unknown as Chunk;

/** Runs a compute's tasks on the host executor and on GPU workers. */
export class DeviceRouter implements Executor {
  readonly name: string;
  readonly concurrency: number;
  /**
   * Device blocks made in this compute and not yet released, with the number of task values
   * holding each (identity kernels such as 'passthrough' hand on their input's block).
   */
  private readonly made = new Map<number, { handle: GpuHandle; refs: number }>();
  private readonly kept = new Set<number>();

  constructor(private readonly host: Executor) {
    this.name = `${host.name}+gpu`;
    this.concurrency = host.concurrency + 1;
    if (host.runSync) this.runSync = (task) => this.runOne(task);
  }

  async run(
    batch: readonly TaskPayload[],
    signal?: AbortSignal,
    timing?: BatchTiming,
  ): Promise<Chunk[]> {
    const out = new Array<Chunk>(batch.length);
    const hostIdx: number[] = [];
    const gpuRuns: Promise<void>[] = [];
    batch.forEach((t, i) => {
      if (t.device === undefined || t.device === 'cpu') hostIdx.push(i);
      else
        gpuRuns.push(
          this.runOnGpu(t).then((v) => {
            out[i] = v;
          }),
        );
    });
    const hostRun = (async () => {
      if (hostIdx.length === 0) return;
      const tasks = await Promise.all(hostIdx.map((i) => this.toHostTask(batch[i]!)));
      const sub = timing ? newTiming(tasks.length) : undefined;
      const values = await this.host.run(tasks, signal, sub);
      hostIdx.forEach((i, k) => {
        out[i] = values[k]!;
      });
      if (timing && sub) copyTiming(sub, timing, hostIdx);
    })();
    await Promise.all([hostRun, ...gpuRuns]);
    return out;
  }

  /** Present when the host executor has it (so 'threads' keeps running batches). */
  readonly runSync?: (task: TaskPayload) => Chunk | Promise<Chunk>;

  private runOne(task: TaskPayload): Chunk | Promise<Chunk> {
    if (task.device !== undefined && task.device !== 'cpu') return this.runOnGpu(task);
    if (task.inputs.some(hasDeviceBlock)) {
      return this.toHostTask(task).then((t) => this.runHost(t));
    }
    return this.runHost(task);
  }

  private runHost(task: TaskPayload): Chunk | Promise<Chunk> {
    if (this.host.runSync) return this.host.runSync(task);
    return this.host.run([task]).then((v) => v[0]!);
  }

  /** A host task whose device inputs were brought to the host (allowed at build time). */
  private async toHostTask(t: TaskPayload): Promise<TaskPayload> {
    if (!t.inputs.some(hasDeviceBlock)) return t;
    const inputs = await Promise.all(t.inputs.map((c) => this.download(c)));
    return { ...t, inputs };
  }

  private async download(c: Chunk): Promise<Chunk> {
    if (isDeviceChunk(c)) {
      const client = await gpuClient(c.device);
      return client.download(c as unknown as GpuHandle);
    }
    if (Array.isArray(c)) return Promise.all(c.map((e) => this.download(e)));
    return c;
  }

  private async runOnGpu(task: TaskPayload): Promise<Chunk> {
    const device = task.device!;
    let client: GpuClient;
    try {
      client = await gpuClient(device);
    } catch (e) {
      throw new TaskError(task.key, task.kernel, e);
    }
    // every handle this task makes (uploads, kernel outputs): all but the result are freed
    const created = new Map<number, GpuHandle>();
    let value: Chunk | undefined;
    try {
      const inputs = await Promise.all(task.inputs.map((c) => this.upload(client, c, created)));
      value = await this.runKernel(client, task.kernel, inputs, task.params, created);
      const result = flatHandles(value);
      for (const h of result) {
        created.delete(h.id);
        const held = this.made.get(h.id);
        if (held) held.refs++;
        else this.made.set(h.id, { handle: h, refs: 1 });
        if (task.output) this.kept.add(h.id);
      }
      return value;
    } catch (e) {
      if (e instanceof TaskError || (e instanceof TesseraError && e._tag === 'WorkerCrashedError'))
        throw e;
      throw new TaskError(task.key, task.kernel, e);
    } finally {
      if (created.size > 0) client.release(...created.values());
    }
  }

  /** A block as a device handle on `client`: host blocks are uploaded. */
  private async upload(
    client: GpuClient,
    c: Chunk,
    created: Map<number, GpuHandle>,
  ): Promise<Chunk> {
    if (c instanceof NDArray) {
      const h = await client.upload(c);
      created.set(h.id, h);
      return asChunk(h);
    }
    if (isDeviceChunk(c) && sameGpu(c.device, client.name)) return c;
    if (isDeviceChunk(c)) {
      const host = await (await gpuClient(c.device)).download(c as unknown as GpuHandle);
      const h = await client.upload(host);
      created.set(h.id, h);
      return asChunk(h);
    }
    if (Array.isArray(c)) return Promise.all(c.map((e) => this.upload(client, e, created)));
    return c;
  }

  private async runKernel(
    client: GpuClient,
    kernel: string,
    inputs: Chunk[],
    params: unknown,
    created: Map<number, GpuHandle>,
  ): Promise<Chunk> {
    if (kernel === 'to-device' || kernel === 'passthrough') return inputs[0]!;
    if (kernel === 'pick') return (inputs[0] as Chunk[])[(params as { index: number }).index]!;
    if (kernel === 'fused') {
      const values: Chunk[] = [];
      for (const step of (params as FusedParams).steps) {
        const args = step.inputs.map((i) => (i >= 0 ? inputs[i]! : values[-i - 1]!));
        values.push(await this.runKernel(client, step.kernel, args, step.params, created));
      }
      return values[values.length - 1]!;
    }
    const handles = inputs.map((c) => c as unknown as GpuHandle);
    const outs = await client.run(kernel, handles, params);
    for (const h of outs) created.set(h.id, h);
    return outs.length === 1 ? asChunk(outs[0]!) : outs.map(asChunk);
  }

  release(value: Chunk): void {
    for (const h of flatHandles(value)) {
      const held = this.made.get(h.id);
      if (held === undefined || --held.refs > 0) continue;
      this.made.delete(h.id);
      void gpuClient(h.device).then(
        (c) => c.release(h),
        () => undefined,
      );
    }
  }

  computeEnded(): void {
    // what failed or was cancelled mid-compute leaves blocks behind: free them (not outputs)
    const left = [...this.made.values()].map((m) => m.handle).filter((h) => !this.kept.has(h.id));
    this.made.clear();
    this.kept.clear();
    for (const h of left)
      void gpuClient(h.device).then(
        (c) => c.release(h),
        () => undefined,
      );
    this.host.computeEnded?.();
  }
}

/** 'gpu' and 'gpu:0' name the same first adapter. */
const sameGpu = (a: string, b: string): boolean =>
  a === b || ((a === 'gpu' || a === 'gpu:0') && (b === 'gpu' || b === 'gpu:0'));

function hasDeviceBlock(c: Chunk): boolean {
  return isDeviceChunk(c) || (Array.isArray(c) && c.some(hasDeviceBlock));
}

function flatHandles(c: Chunk | DeviceChunk): GpuHandle[] {
  if (isDeviceChunk(c)) return [c as unknown as GpuHandle];
  if (Array.isArray(c)) return c.flatMap(flatHandles);
  return [];
}
