// Is there a GPU? Asked synchronously (expressions are built synchronously), answered once
// per process by a child process that lists WebGPU adapters (gpu-probe.mjs).

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ValueError } from '../errors.ts';
import type { Device } from './device.ts';

/** One adapter found. */
export interface AdapterInfo {
  readonly description: string;
  readonly vendor: string;
  readonly architecture: string;
  readonly f16: boolean;
}

/** What the probe found: adapters, or why there are none. */
export type GpuProbe =
  | { readonly ok: true; readonly adapters: readonly AdapterInfo[] }
  | { readonly ok: false; readonly reason: string };

const HOW_TO_INSTALL =
  'install a Vulkan driver: on NVIDIA the NVIDIA driver and libvulkan1; without a GPU, Mesa ' +
  'lavapipe (Debian\'s mesa-vulkan-drivers from bookworm-backports, or `eval "$(bash .ci/lavapipe.sh)"` ' +
  'in a tessera checkout, which needs no root)';

let probed: GpuProbe | undefined;

/** The probe's answer, run at most once per process (TESSERA_GPU=0 skips it). */
export function probeGpu(): GpuProbe {
  if (probed !== undefined) return probed;
  if (process.env.TESSERA_GPU === '0' || process.env.TESSERA_GPU === 'false') {
    probed = { ok: false, reason: 'GPUs are disabled by TESSERA_GPU=0' };
    return probed;
  }
  const script = fileURLToPath(new URL('./gpu-probe.mjs', import.meta.url));
  try {
    const text = execFileSync(process.execPath, [script], {
      encoding: 'utf8',
      timeout: 30_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    probed = JSON.parse(text.trim().split('\n').pop() ?? '') as GpuProbe;
  } catch (e) {
    probed = {
      ok: false,
      reason: `the WebGPU probe failed (${(e as Error).message.split('\n')[0]})`,
    };
  }
  return probed;
}

/** True once probed and no adapter was found (never probes by itself). */
export function knownNoGpu(): string | undefined {
  return probed !== undefined && !probed.ok ? probed.reason : undefined;
}

/** The devices the adapters give: 'gpu' for one, 'gpu:0', 'gpu:1', … (and 'gpu') for several. */
export function gpuDevices(): Device[] {
  const p = probeGpu();
  if (!p.ok) return [];
  if (p.adapters.length === 1) return ['gpu', 'gpu:0'];
  return ['gpu', ...p.adapters.map((_, i) => `gpu:${i}` as Device)];
}

/**
 * Throw a ValueError (starting with `fn`) unless `device` exists: says what was looked for
 * and how to install a driver.
 * @example
 * requireDevice('toDevice', 'gpu');
 */
export function requireDevice(fn: string, device: Device): void {
  if (device === 'cpu') return;
  const p = probeGpu();
  if (!p.ok) throw new ValueError(`${fn}: no GPU for '${device}': ${p.reason}; ${HOW_TO_INSTALL}`);
  if (!gpuDevices().includes(device)) {
    throw new ValueError(
      `${fn}: no device '${device}': ${p.adapters.length} adapter(s) found (${p.adapters.map((a) => a.description).join(', ')})`,
    );
  }
}
