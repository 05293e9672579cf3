// A backend's kernels on the current thread: its module is imported the first time one of
// its tasks runs here, and its kernels join the thread's registry as 'backend/kernel'.

import { KernelError } from '../errors.ts';
import type { AsyncKernel, BackendRef, Kernel, KernelRegistry } from './types.ts';

const loading = new WeakMap<KernelRegistry, Map<string, Promise<void> | true>>();

/** The registry key of `backend`'s kernel `name`. */
export const backendKernelKey = (backend: string, name: string): string => `${backend}/${name}`;

async function load(registry: KernelRegistry, ref: BackendRef & { module: string }): Promise<void> {
  let mod: { kernels?: Record<string, Kernel<never> | AsyncKernel<never>> };
  try {
    mod = await import(/* @vite-ignore */ ref.module);
  } catch (e) {
    throw new KernelError(
      `compute: backend '${ref.name}' cannot load its kernels from ${JSON.stringify(ref.module)}`,
      { cause: e },
    );
  }
  const kernels = mod.kernels;
  if (kernels === null || typeof kernels !== 'object') {
    throw new KernelError(
      `compute: backend '${ref.name}' module ${JSON.stringify(ref.module)} exports no 'kernels' record`,
    );
  }
  for (const [name, k] of Object.entries(kernels))
    registry.set(backendKernelKey(ref.name, name), k);
}

/**
 * Undefined when `ref`'s kernels are in `registry` already, else the promise of loading them
 * (one import per thread and backend; a failed import is retried by the next task).
 * @example
 * const ready = backendKernelsReady(registry, { name: 'cpu-wasm', device: 'cpu', module });
 * if (ready) await ready;
 */
export function backendKernelsReady(
  registry: KernelRegistry,
  ref: BackendRef,
): Promise<void> | undefined {
  if (ref.module === undefined) return undefined;
  let byName = loading.get(registry);
  if (byName === undefined) {
    byName = new Map();
    loading.set(registry, byName);
  }
  const state = byName.get(ref.name);
  if (state === true) return undefined;
  if (state !== undefined) return state;
  const map = byName;
  const p = load(registry, { ...ref, module: ref.module }).then(
    () => {
      map.set(ref.name, true);
    },
    (e: unknown) => {
      map.delete(ref.name);
      throw e;
    },
  );
  map.set(ref.name, p);
  return p;
}
