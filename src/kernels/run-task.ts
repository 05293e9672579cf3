// Runs one task payload against a kernel registry: the single code path of every executor.
// Kernel failures become TaskError carrying the key, the kernel name and the original error.

import { insideTask, recycleBuffer } from '../array/buffer-pool.ts';
import { writePlaces } from '../array/output-place.ts';
import { KernelError, ShapeError, TaskError } from '../errors.ts';
import { exposeChunk, exposeResultOfUserCode } from '../workers/recycler.ts';
import type { TaskPayload } from '../workers/types.ts';
import { backendKernelKey, backendKernelsReady } from './backend-kernels.ts';
import { recycleSteps } from './recycle-steps.ts';
import type { Chunk, FnRef, KernelContext, KernelRegistry } from './types.ts';

/** Resolves user function references on the current thread. */
export type FnResolver = (ref: FnRef) => (...args: unknown[]) => unknown;

/**
 * Run `task` with `registry`: its result, or a promise of it for an asynchronous kernel.
 * A kernel failure throws (or rejects with) TaskError.
 */
export function runTask(
  task: TaskPayload,
  registry: KernelRegistry,
  resolve: FnResolver,
): Chunk | Promise<Chunk> {
  const backend = task.backend;
  if (backend !== undefined) {
    const ready = backendKernelsReady(registry, backend);
    if (ready !== undefined) {
      return ready.then(
        () => runTask(task, registry, resolve),
        (e: unknown) => failed(task, e),
      );
    }
  }
  if (task.spare !== undefined) recycleBuffer(task.spare);
  const ctx = new TaskRun(task, registry, resolve);
  const kernel = ctx.find(task.kernel);
  try {
    const out = insideTask(() => kernel(task.inputs, task.params, ctx));
    return out instanceof Promise
      ? out.then(
          (v) => ctx.finish(v),
          (e: unknown) => failed(task, e),
        )
      : ctx.finish(out);
  } catch (e) {
    return failed(task, e);
  }
}

/**
 * One task's run: the context its kernels get, and what it does once they are done. A class,
 * not closures per task: a task costs a microsecond or so, and every closure counts.
 */
class TaskRun implements KernelContext {
  readonly key: string;
  readonly backend?: string;
  /**
   * Code tessera does not own may keep what it was given or returns: those buffers are never
   * reused (array/buffer-pool.ts). A third-party backend's kernels may keep anything of the
   * task; a user function, what its step was given and what it returned (tessera's copies
   * of unshared arrays it returned excepted: it never saw those).
   */
  private readonly foreign: boolean;
  /**
   * The values of a fused task's steps, reused once the task is done with them (a pool's
   * registry module may hold kernels that keep what they make: nothing is reused there).
   */
  private readonly steps: Chunk[] | undefined;
  /** The kernel call running now resolved a user function. */
  private userCode = false;

  constructor(
    private readonly task: TaskPayload,
    private readonly registry: KernelRegistry,
    private readonly resolver: FnResolver,
  ) {
    this.key = task.key;
    if (task.backend !== undefined) this.backend = task.backend.name;
    this.foreign = task.backend !== undefined && !isBuiltinBackend(task.backend.module);
    this.steps = ownRegistries.has(registry) && !this.foreign ? [] : undefined;
  }

  find(name: string): AnyKernel {
    return lookup(this.registry, name, this.task.key, this.backend);
  }

  resolve(ref: FnRef): (...args: unknown[]) => unknown {
    this.userCode = true;
    return this.resolver(ref);
  }

  run(name: string, inputs: Chunk[], params: unknown): Chunk {
    const outer = this.userCode;
    this.userCode = false;
    const out = this.find(name)(inputs, params, this);
    if (out instanceof Promise) {
      throw new KernelError(
        `compute: kernel '${name}' is asynchronous and cannot run as a step of task ${this.task.key}` +
          ' (a user function that returns a promise must be declared async: its tasks then run on their own)',
      );
    }
    if (this.userCode) exposeUserStep(inputs, out);
    this.userCode = outer;
    this.steps?.push(out);
    return out;
  }

  /** The kernel's result, once it is placed, exposed where it must be, and steps recycled. */
  finish(out: Chunk): Chunk {
    const { task, steps } = this;
    if (task.into !== undefined) writePlaces(task.into, out);
    if (this.foreign) {
      for (const c of task.inputs) exposeChunk(c);
      exposeChunk(out);
    } else if (this.userCode) exposeUserStep(task.inputs, out);
    // after the exposures: an exposed buffer is never recycled
    if (steps !== undefined && steps.length > 0) recycleSteps(steps, [...task.inputs, out]);
    return out;
  }
}

/** Mark what a user function's step was given, and what it returned, as exposed. */
function exposeUserStep(inputs: readonly Chunk[], out: Chunk): void {
  for (const c of inputs) exposeChunk(c);
  exposeResultOfUserCode(out);
}

/** Registries of tessera's own kernels only (a pool's registry module adds others'). */
const ownRegistries = new WeakSet<KernelRegistry>();

/**
 * Declare `registry` to hold only tessera's own kernels: the blocks its tasks make and drop
 * may be reused at once (see recycle-steps.ts).
 * @example
 * markOwnRegistry(builtinKernels);
 */
export function markOwnRegistry(registry: KernelRegistry): void {
  ownRegistries.add(registry);
}

/** Where tessera's own backends' kernel modules live. */
const OWN_BACKENDS = new URL('../backends/', import.meta.url).href;

const isBuiltinBackend = (module: string | undefined): boolean =>
  module === undefined || module.startsWith(OWN_BACKENDS);

function failed(task: TaskPayload, e: unknown): never {
  // a result that contradicts its declared shape is the graph's error, not the kernel's
  if (e instanceof TaskError || (e instanceof ShapeError && e.key === task.key)) throw e;
  throw new TaskError(task.key, kernelLabel(task), e);
}

type AnyKernel = (inputs: Chunk[], params: unknown, ctx: KernelContext) => Chunk | Promise<Chunk>;

/**
 * The kernel `name` of `backend` when it has one, else the reference kernel: a CPU backend
 * implements what it makes faster and shares the rest (glue steps of its fused tasks).
 */
function lookup(registry: KernelRegistry, name: string, key: string, backend?: string): AnyKernel {
  const kernel =
    (backend === undefined ? undefined : registry.get(backendKernelKey(backend, name))) ??
    registry.get(name);
  if (kernel === undefined)
    throw new KernelError(`compute: no kernel named '${name}' for task ${key}`);
  return kernel as AnyKernel;
}

/** The name shown for a task's kernel: a user function's name when it wraps one. */
export function kernelLabel(task: Pick<TaskPayload, 'kernel' | 'params'>): string {
  const p = task.params as { fn?: FnRef } | undefined;
  return p?.fn?.name ? `${task.kernel}:${p.fn.name}` : task.kernel;
}
