// The GPU worker thread: owns one device, its buffers (by handle id) and pipelines, and
// serves the requests of wire.ts one at a time, in order.

import { parentPort, workerData } from 'node:worker_threads';
import { allocate } from '../../array/dtype.ts';
import { isTesseraError } from '../../errors.ts';
import { openDevice } from './device.ts';
import { gpuKernels } from './kernels.ts';
import { GpuRuntime, type GpuTensor } from './runtime.ts';
import type { GpuReady, GpuReply, GpuRequest, WireError } from './wire.ts';

const port = parentPort!;
const deviceName: string = workerData.device;

function wireError(e: unknown): WireError {
  if (e instanceof Error) {
    return { tag: isTesseraError(e) ? e._tag : e.name, message: e.message, stack: e.stack };
  }
  return { tag: 'Error', message: String(e) };
}

class GpuServer {
  private readonly tensors = new Map<number, GpuTensor>();
  private nextId = 1;

  constructor(readonly rt: GpuRuntime) {}

  private get(id: number): GpuTensor {
    const t = this.tensors.get(id);
    if (t === undefined) throw new Error(`gpu: no buffer with handle id ${id} (released?)`);
    return t;
  }

  private handle(t: GpuTensor) {
    const id = this.nextId++;
    this.tensors.set(id, t);
    return { device: deviceName, id, dtype: t.dtype, shape: [...t.shape], bytes: t.bytes };
  }

  async serve(req: GpuRequest): Promise<unknown> {
    switch (req.op) {
      case 'upload':
        return this.handle(this.rt.upload(req.data, req.dtype, req.shape));
      case 'download': {
        const t = this.get(req.id);
        const out =
          req.into ??
          allocate(
            t.dtype,
            t.shape.reduce((a, b) => a * b, 1),
          );
        await this.rt.download(t, new Uint8Array(out.buffer, out.byteOffset, out.byteLength));
        return out;
      }
      case 'run': {
        const kernel = gpuKernels[req.kernel];
        if (kernel === undefined) throw new Error(`gpu.run: unknown kernel '${req.kernel}'`);
        const outs = await kernel(
          this.rt,
          req.inputs.map((i) => this.get(i)),
          req.params as never,
        );
        return outs.map((t) => this.handle(t));
      }
      case 'release':
        for (const id of req.ids) {
          const t = this.tensors.get(id);
          if (t === undefined) continue;
          this.tensors.delete(id);
          this.rt.free(t);
        }
        return null;
      case 'stats':
        return {
          ...this.rt.pool.stats(),
          buffers: this.tensors.size,
          pipelines: this.rt.pipelineCount,
          pipelineMs: this.rt.pipelineMs,
        };
      case 'sync':
        await this.rt.sync();
        return null;
      case 'crash':
        process.exit(3);
        return null;
      case 'close':
        this.tensors.clear();
        await this.rt.close();
        return null;
    }
  }
}

async function main(): Promise<void> {
  let server: GpuServer;
  try {
    const dev = await openDevice(deviceName);
    server = new GpuServer(new GpuRuntime(dev));
    port.postMessage({ ready: true, adapter: dev.adapter, hasF16: dev.hasF16 } satisfies GpuReady);
  } catch (e) {
    port.postMessage({ ready: false, error: wireError(e) } satisfies GpuReady);
    port.close();
    return;
  }
  // Requests run strictly in order: each waits for the one before.
  let chain: Promise<void> = Promise.resolve();
  port.on('message', (msg: { id: number; req: GpuRequest }) => {
    chain = chain.then(async () => {
      let reply: GpuReply;
      try {
        reply = { id: msg.id, ok: true, value: await server.serve(msg.req) };
      } catch (e) {
        reply = { id: msg.id, ok: false, error: wireError(e) };
      }
      port.postMessage(reply);
      if (msg.req.op === 'close') port.close();
    });
  });
}

void main();
