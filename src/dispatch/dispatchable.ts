// dispatchable(): a library author's own function (or stateful class) made dispatchable:
// backends implement it under its name, the cascade picks one per call, and the library
// chooses whether an unsupported backend falls back to the default or raises.

import { isLazyArray } from '../array/lazy-array.ts';
import { NDArray } from '../array/ndarray.ts';
import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';
import { selectBackend } from './cascade.ts';
import { defaultBackends, dispatchableNames } from './default.ts';
import { dispatchEnv } from './env.ts';
import { currentScope, runInScope } from './scope.ts';
import { recordDecision } from './stats.ts';
import type { InputMeta, OpMeta } from './types.ts';

/** How a dispatchable function treats a backend that cannot run a call. */
export interface DispatchableOptions {
  /**
   * 'default' (the default): run the default implementation; 'error': raise instead when
   * the inputs (their device or type) asked for a backend that cannot run the call.
   */
  readonly fallback?: 'default' | 'error';
}

// biome-ignore lint/suspicious/noExplicitAny: any function signature
type AnyFn = (...args: any[]) => any;
// biome-ignore lint/suspicious/noExplicitAny: any constructor signature
type AnyClass = new (...args: any[]) => object;

/** Only arrays take part in selection: numbers and nested JS arrays never do. */
function arrayInputs(args: readonly unknown[]): InputMeta[] {
  const out: InputMeta[] = [];
  for (const a of args) {
    if (isLazyArray(a)) {
      out.push({
        dtype: a.dtype,
        chunks: a.chunks,
        device: a.layer.device ?? 'cpu',
        backend: a.layer.backend?.name ?? 'cpu-js',
      });
    } else if (a instanceof NDArray) {
      out.push({
        dtype: a.dtype,
        chunks: a.shape.map((n) => [n]),
        device: 'cpu',
        backend: 'cpu-js',
      });
    }
  }
  return out;
}

interface Chosen {
  readonly impl: unknown;
  readonly backend?: string;
}

function selector(name: string, defaultImpl: unknown, fallback: 'default' | 'error') {
  return (args: readonly unknown[]): Chosen => {
    const implementing = defaultBackends.list().filter((b) => b.functions?.[name] !== undefined);
    if (implementing.length === 0) return { impl: defaultImpl };
    const inputs = arrayInputs(args);
    const objects = args.filter((a) => typeof a === 'object' && a !== null && !Array.isArray(a));
    const meta: OpMeta = {
      op: name,
      params: undefined,
      dtype: inputs[0]?.dtype ?? 'float64',
      chunks: inputs[0]?.chunks ?? [],
      inputs,
      blockElements: 0,
      args: objects,
    };
    const wanted = implementing.filter(
      (b) =>
        objects.some((a) => b.owns?.(a) === true) ||
        (b.device === 'gpu' && inputs.some((i) => i.device !== 'cpu')),
    );
    try {
      const { backend } = selectBackend(defaultBackends, meta, name);
      return { impl: backend.functions![name], backend: backend.name };
    } catch (e) {
      if (!(e instanceof ValueError) || currentScope().explicit !== undefined) throw e;
      if (fallback === 'error' && wanted.length > 0) {
        throw new ValueError(
          `${name}: the inputs need backend '${wanted[0]!.name}', which cannot run it and the library does not fall back (${e.message})`,
        );
      }
      recordDecision(
        { op: name, fn: name, backend: 'default', reason: 'fallback', tried: [] },
        dispatchEnv.log,
      );
      return { impl: defaultImpl };
    }
  };
}

function register(name: string): void {
  if (typeof name !== 'string' || name === '') {
    throw new ValueError(`dispatchable: name must be a non-empty string, got ${formatValue(name)}`);
  }
  if (dispatchableNames.has(name) || defaultBackends.get(name) !== undefined) {
    throw new ValueError(`dispatchable: ${JSON.stringify(name)} is already dispatchable`);
  }
  dispatchableNames.add(name);
}

/** Run `fn` with `backend` first for everything it builds. */
function inBackend<T>(backend: string | undefined, fn: () => T): T {
  if (backend === undefined) return fn();
  const outer = currentScope();
  return runInScope({ ...outer, prioritize: [backend, ...outer.prioritize] }, fn);
}

/**
 * Make `defaultImpl` dispatchable under `name`: a registered backend listing `name` in its
 * kernels and implementing it in `functions` runs calls it is selected for (by the same
 * cascade as built-in operations); otherwise the default runs, unless `fallback: 'error'`
 * and the inputs asked for a backend that cannot run it.
 * @example
 * export const smooth = dispatchable('mylib.smooth', (x: LazyArray, w: number) => x.mul(w));
 */
export function dispatchable<F extends AnyFn>(
  name: string,
  defaultImpl: F,
  opts: DispatchableOptions = {},
): F {
  if (typeof defaultImpl !== 'function') {
    throw new ValueError(
      `dispatchable: the default implementation of ${JSON.stringify(name)} is not a function`,
    );
  }
  register(name);
  const select = selector(name, defaultImpl, opts.fallback ?? 'default');
  const call = (...args: unknown[]): unknown => {
    const chosen = select(args);
    return inBackend(chosen.backend, () => (chosen.impl as AnyFn)(...args));
  };
  Object.defineProperty(call, 'name', { value: defaultImpl.name || name });
  return call as F;
}

/**
 * A dispatchable class: the backend is chosen when an instance is constructed with array
 * arguments, or else at its first method call with array arguments (`fit`), and the
 * instance keeps it for every later call. `instance.backend` names it.
 * @example
 * const Scaler = dispatchableClass('mylib.Scaler', DefaultScaler);
 * const s = new Scaler(); s.fit(x); s.backend; // 'default' unless a backend implements it for x
 */
export function dispatchableClass<C extends AnyClass>(
  name: string,
  DefaultClass: C,
  opts: DispatchableOptions = {},
): new (
  ...args: ConstructorParameters<C>
) => InstanceType<C> & { readonly backend: string | undefined } {
  register(name);
  const select = selector(name, DefaultClass, opts.fallback ?? 'default');
  const owned = (a: unknown): boolean =>
    typeof a === 'object' && a !== null && defaultBackends.list().some((b) => b.owns?.(a) === true);
  const hasArrays = (args: readonly unknown[]): boolean =>
    arrayInputs(args).length > 0 || args.some(owned);
  function Dispatched(...ctorArgs: unknown[]): object {
    let target: Record<string | symbol, unknown> | undefined;
    let backend: string | undefined;
    const bind = (args: readonly unknown[]): Record<string | symbol, unknown> => {
      if (target !== undefined) return target;
      const chosen = select(args);
      backend = chosen.backend ?? 'default';
      const Impl = chosen.impl as AnyClass;
      target = inBackend(chosen.backend, () => new Impl(...ctorArgs)) as Record<
        string | symbol,
        unknown
      >;
      return target;
    };
    if (hasArrays(ctorArgs)) bind(ctorArgs);
    const scoped = chosenScope(() => backend);
    // methods run in the chosen backend's scope; one returning the instance returns this proxy
    const method =
      (prop: string | symbol) =>
      (...args: unknown[]): unknown => {
        const t = bind(hasArrays(args) ? args : ctorArgs);
        const out = scoped(() => (t[prop] as AnyFn).apply(t, args));
        return out === t ? proxy : out;
      };
    const proxy: object = new Proxy(
      {},
      {
        get(_t, prop) {
          if (prop === 'backend') return backend;
          if (target === undefined) return method(prop);
          const v = target[prop];
          return typeof v === 'function' ? method(prop) : v;
        },
        set(_t, prop, value) {
          bind(ctorArgs)[prop] = value;
          return true;
        },
        has(_t, prop) {
          return prop === 'backend' || prop in bind(ctorArgs);
        },
      },
    );
    return proxy;
  }
  return Dispatched as unknown as new (
    ...args: ConstructorParameters<C>
  ) => InstanceType<C> & { readonly backend: string | undefined };
}

/** Runs code in the scope of the backend `current()` names (the default runs unscoped). */
function chosenScope(current: () => string | undefined) {
  return <T>(fn: () => T): T => {
    const b = current();
    return inBackend(b === 'default' ? undefined : b, fn);
  };
}
