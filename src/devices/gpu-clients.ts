// One GPU worker per device, opened on first use and reopened after a crash; closed by
// shutdown() so the program can exit.

import type { GpuClient } from '../backends/webgpu/gpu-client.ts';

const clients = new Map<string, Promise<GpuClient>>();

/** The client of `device` ('gpu' and 'gpu:0' are the same first adapter). */
export async function gpuClient(device: string): Promise<GpuClient> {
  const name = device === 'gpu:0' ? 'gpu' : device;
  const held = clients.get(name);
  if (held !== undefined) {
    const c = await held.catch(() => undefined);
    if (c !== undefined && !c.crashed) return c;
    clients.delete(name);
  }
  const opening = import('../backends/webgpu/gpu-client.ts').then((m) => m.openGpu(name));
  clients.set(name, opening);
  opening.catch(() => clients.delete(name));
  return opening;
}

/** Close every GPU worker (their buffers are freed). */
export async function closeGpuClients(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((p) => p.then((c) => c.close()).catch(() => undefined)));
}
