// The default backend registry, with the built-in backends registered in their order.
// Tests build registries of their own; the public functions use this one.

import { cpuBlas } from '../backends/cpu-blas/backend.ts';
import { cpuJs } from '../backends/cpu-js/backend.ts';
import { cpuWasm } from '../backends/cpu-wasm/backend.ts';
import { webgpu } from '../backends/webgpu/backend.ts';
import { BackendRegistry } from './registry.ts';
import type { Backend } from './types.ts';

/** Names of functions made dispatchable with `dispatchable()` (backends may implement them). */
export const dispatchableNames = new Set<string>();

/** Every operation a backend may implement: built-in kernels and dispatchable functions. */
export function knownOperations(): ReadonlySet<string> {
  return new Set([...cpuJs.kernels, ...dispatchableNames]);
}

/** The registry tessera's functions dispatch through. */
export const defaultBackends = new BackendRegistry(knownOperations);
defaultBackends.register(cpuJs);
defaultBackends.register(cpuWasm);
defaultBackends.register(cpuBlas);
defaultBackends.register({ ...webgpu, higherPriorityThan: ['cpu-js'] });

/**
 * Register a backend with the default registry; validated at once (ValueError naming it).
 * @example
 * registerBackend({ name: 'my-simd', device: 'cpu', kernels: ['ew'], supports: '>=0.1',
 *   module: new URL('./my-kernels.js', import.meta.url).href });
 */
export function registerBackend(b: Backend): void {
  defaultBackends.register(b);
}

/**
 * Remove a backend from the default registry; true when it was there.
 * @example
 * unregisterBackend('my-simd');
 */
export function unregisterBackend(name: string): boolean {
  return defaultBackends.unregister(name);
}

/**
 * The registered backends, highest built-in priority first.
 * @example
 * listBackends().map((b) => b.name); // ['cpu-blas', 'cpu-wasm', 'webgpu', 'cpu-js']
 */
export function listBackends(): readonly Backend[] {
  return defaultBackends.list();
}
