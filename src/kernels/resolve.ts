// Turns FnRefs back into functions on the current thread: module refs from defineKernels,
// source refs compiled once, inline refs from the main thread's registry of functions.

import { KernelError } from '../errors.ts';
import { lookupModuleKernel } from './define-kernels.ts';
import type { FnResolver } from './run-task.ts';
import type { FnRef } from './types.ts';

type UserFn = (...args: unknown[]) => unknown;

/** A resolver for this thread; `preload` imports module refs so that resolving stays sync. */
export interface ThreadFnResolver extends FnResolver {
  preload(refs: readonly FnRef[]): Promise<void>;
}

export interface FnResolverOptions {
  /** Allow inline refs (true only on the main thread, where they were registered). */
  readonly inline?: boolean;
}

// Inline functions: the ref itself holds the function (a non-enumerable symbol that structured
// clone and JSON drop), so a registered closure lives exactly as long as the graph using it.
const INLINE_FN = Symbol('tessera.inlineFn');
const inlineIds = new WeakMap<Function, number>();
const inlineById = new Map<number, WeakRef<Function>>();
let nextInlineId = 1;

/**
 * Register a function that runs on the main thread only; the same function gets the same ref.
 * @example
 * const ref = registerInlineFn((x: NDArray) => render(x)); // { kind: 'inline', id: 1, name: '' }
 */
export function registerInlineFn(fn: Function): FnRef {
  let id = inlineIds.get(fn);
  if (id === undefined) {
    id = nextInlineId++;
    inlineIds.set(fn, id);
    inlineById.set(id, new WeakRef(fn));
  }
  const ref: FnRef = { kind: 'inline', id, name: fn.name };
  Object.defineProperty(ref, INLINE_FN, { value: fn, enumerable: false });
  return ref;
}

/** True when `x` has the shape of an FnRef. */
export function isFnRef(x: unknown): x is FnRef {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  if (typeof r.name !== 'string') return false;
  if (r.kind === 'module') return typeof r.url === 'string';
  if (r.kind === 'source') return typeof r.source === 'string';
  return r.kind === 'inline' && typeof r.id === 'number';
}

/**
 * Every FnRef inside task params (nested objects and arrays; typed arrays are skipped).
 * @example
 * findFnRefs({ steps: [{ params: { fn: ref } }] }); // [ref]
 */
export function findFnRefs(params: unknown): FnRef[] {
  const out: FnRef[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (typeof v !== 'object' || v === null || depth > 64 || ArrayBuffer.isView(v)) return;
    if (isFnRef(v)) {
      out.push(v);
      return;
    }
    if (Array.isArray(v)) {
      for (const e of v) if (typeof e === 'object') walk(e, depth + 1);
      return;
    }
    for (const k in v) walk((v as Record<string, unknown>)[k], depth + 1);
  };
  walk(params, 0);
  return out;
}

// esbuild's keepNames helper, which tsx leaves in function sources.
const nameHelper = (target: Function, value: string): Function =>
  Object.defineProperty(target, 'name', { value, configurable: true });

const compiled = new Map<string, UserFn>();

function compileSource(ref: Extract<FnRef, { kind: 'source' }>): UserFn {
  let fn = compiled.get(ref.source);
  if (fn !== undefined) return fn;
  let value: unknown;
  try {
    value = new Function('__name', `"use strict";\nreturn (${ref.source});`)(nameHelper);
  } catch (e) {
    throw new KernelError(
      `resolve: kernel '${ref.name}' source does not compile: ${(e as Error).message}`,
      { cause: e },
    );
  }
  if (typeof value !== 'function') {
    throw new KernelError(`resolve: kernel '${ref.name}' source is not a function`);
  }
  fn = value as UserFn;
  compiled.set(ref.source, fn);
  return fn;
}

const imports = new Map<string, Promise<void>>();

function importOnce(url: string): Promise<void> {
  let p = imports.get(url);
  if (p === undefined) {
    p = import(/* @vite-ignore */ url).then(
      () => undefined,
      (e: unknown) => {
        imports.delete(url);
        throw new KernelError(`resolve: cannot import kernel module ${JSON.stringify(url)}`, {
          cause: e,
        });
      },
    );
    imports.set(url, p);
  }
  return p;
}

function resolveModule(ref: Extract<FnRef, { kind: 'module' }>): UserFn {
  const fn = lookupModuleKernel(ref.url, ref.name);
  if (fn !== undefined) return fn as UserFn;
  const hint = imports.has(ref.url)
    ? 'it does not export one under that name through defineKernels'
    : 'the module is not loaded on this thread (preload it first)';
  throw new KernelError(
    `resolve: no kernel '${ref.name}' from ${JSON.stringify(ref.url)}: ${hint}`,
  );
}

function resolveInline(ref: Extract<FnRef, { kind: 'inline' }>, allowed: boolean): UserFn {
  if (!allowed) {
    throw new KernelError(
      `resolve: inline kernel '${ref.name}' (id ${ref.id}) runs only on the main thread`,
    );
  }
  const held = (ref as { [INLINE_FN]?: Function })[INLINE_FN];
  const fn = held ?? inlineById.get(ref.id)?.deref();
  if (fn === undefined) {
    throw new KernelError(`resolve: inline kernel '${ref.name}' (id ${ref.id}) is not registered`);
  }
  return fn as UserFn;
}

/**
 * A resolver for the current thread. Call `preload(refs)` before resolving module refs whose
 * module this thread may not have imported yet.
 * @example
 * const resolve = createFnResolver({ inline: true });
 * await resolve.preload(findFnRefs(task.params));
 * const f = resolve(task.params.fn);
 */
export function createFnResolver(opts: FnResolverOptions = {}): ThreadFnResolver {
  const inline = opts.inline ?? false;
  const resolve = (ref: FnRef): UserFn => {
    switch (ref.kind) {
      case 'source':
        return compileSource(ref);
      case 'module':
        return resolveModule(ref);
      case 'inline':
        return resolveInline(ref, inline);
      default:
        throw new KernelError(`resolve: unknown function reference ${JSON.stringify(ref)}`);
    }
  };
  const preload = async (refs: readonly FnRef[]): Promise<void> => {
    const pending: Promise<void>[] = [];
    for (const r of refs) {
      if (r.kind === 'module' && lookupModuleKernel(r.url, r.name) === undefined)
        pending.push(importOnce(r.url));
    }
    if (pending.length > 0) await Promise.all(pending);
  };
  return Object.assign(resolve, { preload });
}

/** True when some ref in `refs` needs an import before it resolves on this thread. */
export function needsPreload(refs: readonly FnRef[]): boolean {
  for (const r of refs)
    if (r.kind === 'module' && lookupModuleKernel(r.url, r.name) === undefined) return true;
  return false;
}
