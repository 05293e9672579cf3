// withBackend scopes and a call's explicit { backend }: both run the building code in a
// dispatch scope (AsyncLocalStorage), so they nest and concurrent async scopes stay apart.

import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';
import { defaultBackends } from './default.ts';
import { currentScope, type DispatchScope, runInScope } from './scope.ts';
import type { Decision } from './stats.ts';

/** What a withBackend scope changes. */
export interface BackendScopeOptions {
  /** Backends tried first in the scope, highest first. */
  readonly prioritize?: string | readonly string[];
  /** Backends never selected in the scope. */
  readonly disable?: string | readonly string[];
  /** Record the decisions made in the scope and return them with the value. */
  readonly trace?: boolean;
}

/** The value of a traced scope and the decisions made in it. */
export interface Traced<T> {
  readonly value: T;
  readonly decisions: Decision[];
}

const asList = (v: string | readonly string[] | undefined): readonly string[] =>
  v === undefined ? [] : typeof v === 'string' ? [v] : v;

function checkNames(fn: string, names: readonly string[]): void {
  for (const n of names) {
    if (typeof n !== 'string' || defaultBackends.get(n) === undefined) {
      const known = defaultBackends
        .list()
        .map((b) => b.name)
        .join(', ');
      throw new ValueError(`${fn}: no backend named ${formatValue(n)} (registered: ${known})`);
    }
  }
}

function scopeOf(spec: string | BackendScopeOptions, trace: Decision[] | undefined): DispatchScope {
  const fn = 'withBackend';
  if (typeof spec !== 'string' && (spec === null || typeof spec !== 'object')) {
    throw new ValueError(`${fn}: expected a backend name or options, got ${formatValue(spec)}`);
  }
  const opts: BackendScopeOptions = typeof spec === 'string' ? { prioritize: spec } : spec;
  const prioritize = asList(opts.prioritize);
  const disable = asList(opts.disable);
  checkNames(fn, prioritize);
  checkNames(fn, disable);
  const outer = currentScope();
  return {
    prioritize: [...prioritize, ...outer.prioritize.filter((n) => !prioritize.includes(n))],
    disable: new Set([...outer.disable, ...disable].filter((n) => !prioritize.includes(n))),
    traces: trace === undefined ? outer.traces : [...outer.traces, trace],
    ...(outer.explicit ? { explicit: outer.explicit } : {}),
  };
}

/**
 * Run `fn` with backends prioritized or disabled for every operation it builds (a name is
 * `{ prioritize: name }`). Scopes nest; concurrent async scopes never leak into each other.
 * With `{ trace: true }` it returns `{ value, decisions }` (awaited when `fn` is async).
 * @example
 * const y = withBackend('cpu-wasm', () => x.mul(2).add(1));
 * const { decisions } = withBackend({ trace: true }, () => x.sum());
 */
export function withBackend<T>(
  spec: BackendScopeOptions & { trace: true },
  fn: () => Promise<T>,
): Promise<Traced<T>>;
export function withBackend<T>(spec: BackendScopeOptions & { trace: true }, fn: () => T): Traced<T>;
export function withBackend<T>(spec: string | BackendScopeOptions, fn: () => T): T;
export function withBackend<T>(
  spec: string | BackendScopeOptions,
  fn: () => T,
): T | Traced<T> | Promise<Traced<unknown>> {
  if (typeof fn !== 'function') {
    throw new ValueError(`withBackend: expected a function to run, got ${formatValue(fn)}`);
  }
  const trace = typeof spec === 'object' && spec?.trace === true ? ([] as Decision[]) : undefined;
  const value = runInScope(scopeOf(spec, trace), fn);
  if (trace === undefined) return value;
  if (value instanceof Promise) return value.then((v: unknown) => ({ value: v, decisions: trace }));
  return { value, decisions: trace };
}

/**
 * Build with a call's explicit backend: every operation of the call that the backend
 * implements runs on it or fails (no silent fallback); a backend that implements none of
 * them is an error too. Without a backend, `build` runs as it is.
 * @example
 * withCallBackend('sum', opts.backend, () => reduction(spec));
 */
export function withCallBackend<T>(fn: string, backend: unknown, build: () => T): T {
  if (backend === undefined) return build();
  if (typeof backend !== 'string') {
    throw new ValueError(`${fn}: backend must be a backend name, got ${formatValue(backend)}`);
  }
  checkNames(fn, [backend]);
  const explicit = { name: backend, fn, matched: 0 };
  const value = runInScope({ ...currentScope(), explicit }, build);
  if (explicit.matched === 0) {
    throw new ValueError(`${fn}: backend '${backend}' does not implement ${fn}`);
  }
  return value;
}

/** Options every dispatched function takes. */
export interface CallOptions {
  /** Run on this backend or fail (explicit: no silent fallback). */
  readonly backend?: string;
}
