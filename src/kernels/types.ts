// What a task runs: kernel references (plain, serialisable data) and the kernel signature.
// Built-ins are named; user functions travel by module reference or by source text.

import type { NDArray } from '../array/ndarray.ts';

/**
 * The backend a layer's tasks run on, as tasks carry it: its name, its device kind, and the
 * module that holds its kernels (imported lazily on each thread that runs them).
 */
export interface BackendRef {
  readonly name: string;
  readonly device: 'cpu' | 'gpu';
  readonly module?: string;
  /**
   * The kernels fusion makes ('ew-view', 'ew-reduce', 'ew-reduce-views') that it implements:
   * fusion of its layers produces only these (cpu-js implements them all).
   */
  readonly fuses?: readonly string[];
}

/** Whether fusion may produce `kernel` for a layer of backend `b` (glue: cpu-js). */
export function fusesInto(b: BackendRef | undefined, kernel: string): boolean {
  return b === undefined || b.name === 'cpu-js' || (b.fuses?.includes(kernel) ?? false);
}

/** The value of one block: an array, or a tuple (multi-output and reduction intermediates). */
export type Chunk = NDArray | Chunk[];

/**
 * A reference to a user function, resolvable on any thread:
 * - `module`: exported through defineKernels from the module at `url` under `name`;
 * - `source`: a self-contained function shipped by its source text;
 * - `inline`: a function registered on the main thread, run only there.
 */
export type FnRef =
  | { kind: 'module'; url: string; name: string }
  | { kind: 'source'; source: string; name: string }
  | { kind: 'inline'; id: number; name: string };

/** Context a kernel receives: its task key, a resolver for user function refs, and a way
 * to run another kernel of the same registry (fused tasks run their steps through it). */
export interface KernelContext {
  readonly key: string;
  /** The backend the task runs on (undefined: cpu-js). */
  readonly backend?: string;
  resolve(ref: FnRef): (...args: unknown[]) => unknown;
  run(kernel: string, inputs: Chunk[], params: unknown): Chunk;
}

/** A built-in kernel: inputs are the blocks named by the task, params its static data. */
export type Kernel<P = unknown> = (inputs: Chunk[], params: P, ctx: KernelContext) => Chunk;

/**
 * A kernel that may wait on something (a file or store read, a device, an async user
 * function): when it returns a promise its executor awaits it. Such a task runs on its
 * own, never as a step of a fused task.
 */
export type AsyncKernel<P = unknown> = (
  inputs: Chunk[],
  params: P,
  ctx: KernelContext,
) => Chunk | Promise<Chunk>;

/** Built-in kernels by name. Registries are objects passed in; one default lives in backends/cpu-js/registry. */
export type KernelRegistry = Map<string, Kernel<never> | AsyncKernel<never>>;
