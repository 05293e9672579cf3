// The dispatch scope of the running code (AsyncLocalStorage): which backends withBackend
// prioritizes or disables, the traces being recorded, and a call's explicit backend.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { Decision } from './stats.ts';

/** An explicit backend from a call's `{ backend }` option. */
export interface ExplicitBackend {
  readonly name: string;
  /** The function the user called (error messages start with it). */
  readonly fn: string;
  /** Layers built in the call that the backend took. */
  matched: number;
}

/** What is in force where an expression is built. */
export interface DispatchScope {
  /** Backend names, highest priority first (inner scopes before outer ones). */
  readonly prioritize: readonly string[];
  readonly disable: ReadonlySet<string>;
  /** Decision lists of every enclosing traced scope. */
  readonly traces: readonly Decision[][];
  readonly explicit?: ExplicitBackend;
}

const EMPTY: DispatchScope = { prioritize: [], disable: new Set(), traces: [] };
const storage = new AsyncLocalStorage<DispatchScope>();

/** The scope in force here. */
export function currentScope(): DispatchScope {
  return storage.getStore() ?? EMPTY;
}

/** Run `fn` in `scope` (synchronous or asynchronous; concurrent scopes never mix). */
export function runInScope<T>(scope: DispatchScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** True when some scope is in force (the fast path skips everything otherwise). */
export function inScope(): boolean {
  return storage.getStore() !== undefined;
}
