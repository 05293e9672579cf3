// The kernel registry a pool member runs with: the built-ins, with the kernels of an optional
// registry module (ThreadPoolOptions.registryModule) merged over them.

import { builtinKernels } from '../backends/cpu-js/registry.ts';
import type { KernelRegistry } from '../kernels/types.ts';

/**
 * The built-in kernels, or them merged with the `registry` export of the module at `url`.
 * @example
 * const registry = await loadRegistry(new URL('./my-kernels.ts', import.meta.url).href);
 */
export async function loadRegistry(url: string | undefined): Promise<KernelRegistry> {
  if (url === undefined) return builtinKernels;
  const mod = (await import(/* @vite-ignore */ url)) as { registry?: KernelRegistry };
  return new Map([...builtinKernels, ...(mod.registry ?? [])]);
}
