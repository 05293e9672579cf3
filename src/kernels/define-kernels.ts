// defineKernels: user kernels shipped to worker threads by module reference (url + name).
// Each thread that imports the module registers its functions here, so workers find them.

import { KernelError } from '../errors.ts';

/** Where a kernel exported through defineKernels lives: its module URL and export name. */
export interface KernelLocation {
  readonly url: string;
  readonly name: string;
}

/** The symbol under which a handle carries its location (shared across module copies). */
export const KERNEL_HANDLE: unique symbol = Symbol.for('tessera.kernelHandle') as never;

/** A function returned by defineKernels: still callable, and locatable from any thread. */
export interface KernelHandle {
  readonly [KERNEL_HANDLE]: KernelLocation;
}

type ModuleKernels = Map<string, Function>;

// Per thread, and on globalThis so that two copies of this module still share one registry.
const REGISTRY_KEY = Symbol.for('tessera.moduleKernels');
const holder = globalThis as typeof globalThis & { [REGISTRY_KEY]?: ModuleKernels };
holder[REGISTRY_KEY] ??= new Map();
const moduleKernels: ModuleKernels = holder[REGISTRY_KEY];

const entryKey = (url: string, name: string): string => `${url}#${name}`;

/**
 * Register kernels of a module so that worker threads can import them by reference.
 * Call it at the top level of the module and export the result; workers import the same
 * URL and find each function under the same name, so imports and module state work.
 * @example
 * // my-kernels.ts
 * export const kernels = defineKernels(import.meta.url, {
 *   sortRows: (x: NDArray) => sortEachRow(x),
 * });
 * lazyApply(kernels.sortRows, x, { axis: 1 });
 */
export function defineKernels<T extends Record<string, Function>>(
  moduleUrl: string,
  fns: T,
): { [K in keyof T]: T[K] & KernelHandle } {
  if (typeof moduleUrl !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(moduleUrl)) {
    throw new KernelError(
      `defineKernels: moduleUrl ${JSON.stringify(moduleUrl)} is not a URL; pass import.meta.url`,
    );
  }
  for (const [name, fn] of Object.entries(fns)) {
    if (typeof fn !== 'function') {
      throw new KernelError(`defineKernels: '${name}' is ${typeof fn}, not a function`);
    }
    const location: KernelLocation = { url: moduleUrl, name };
    Object.defineProperty(fn, KERNEL_HANDLE, { value: location, configurable: true });
    moduleKernels.set(entryKey(moduleUrl, name), fn);
  }
  return fns as { [K in keyof T]: T[K] & KernelHandle };
}

/** The location of a defineKernels handle, or undefined for any other value. */
export function kernelLocation(fn: unknown): KernelLocation | undefined {
  if (typeof fn !== 'function') return undefined;
  return (fn as Partial<KernelHandle>)[KERNEL_HANDLE];
}

/** The function registered on this thread under (url, name), if its module was imported. */
export function lookupModuleKernel(url: string, name: string): Function | undefined {
  return moduleKernels.get(entryKey(url, name));
}
