// shutdown(): stop every worker tessera started (thread and process pools, GPU workers), so
// a program that is done can exit at once.

import { closeGpuClients } from '../devices/gpu-clients.ts';
import { shutdownDefaultPool } from '../workers/pool.ts';

/**
 * Stop the shared worker pools and GPU workers (they start again on the next compute).
 * @example
 * await compute(x.sum());
 * await shutdown();
 */
export async function shutdown(): Promise<void> {
  await Promise.all([shutdownDefaultPool(), closeGpuClients()]);
}
