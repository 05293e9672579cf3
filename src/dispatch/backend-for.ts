// backendFor(...arrays): the backend of the highest-priority input (Intheon's backend_for),
// with the owner of each input type cached so a call costs a few map lookups.

import { isLazyArray } from '../array/lazy-array.ts';
import { config } from '../config.ts';
import { defaultBackends } from './default.ts';
import { dispatchEnv } from './env.ts';
import { currentScope } from './scope.ts';
import type { Backend } from './types.ts';

const ownerByType = new Map<unknown, string>();
let cacheKey = '';
let rank = new Map<string, number>();

/** Rank of each backend (0 = highest) under the priorities in force; cached until they change. */
function ranks(): Map<string, number> {
  const scope = currentScope();
  const key = `${defaultBackends.version}|${config.backendPriority.join()}|${scope.prioritize.join()}`;
  if (key === cacheKey) return rank;
  let order = defaultBackends.list().map((b) => b.name);
  for (const names of [
    [...config.backendPriority].reverse(),
    [...dispatchEnv.priority].reverse(),
    scope.prioritize,
  ]) {
    const front = names.filter((n) => order.includes(n));
    order = [...new Set([...front, ...order])];
  }
  rank = new Map(order.map((n, i) => [n, i]));
  cacheKey = key;
  ownerByType.clear();
  return rank;
}

/** The backend an input belongs to: a lazy array's layer's, a claimed type's owner, or cpu-js. */
function ownerOf(x: unknown): string {
  if (isLazyArray(x)) return x.layer.backend?.name ?? 'cpu-js';
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return 'cpu-js';
  const type = Object.getPrototypeOf(x);
  // class instances are cached per class; plain objects are asked each time
  const cacheable = type !== Object.prototype && type !== null;
  let owner = cacheable ? ownerByType.get(type) : undefined;
  if (owner === undefined) {
    owner = defaultBackends.list().find((b) => b.owns?.(x))?.name ?? 'cpu-js';
    if (cacheable) ownerByType.set(type, owner);
  }
  return owner;
}

/**
 * The backend of the highest-priority input: write one code path and ask it where the
 * data lives. JS numbers and nested arrays count as cpu-js.
 * @example
 * backendFor(x, y).name; // 'cpu-js'
 */
export function backendFor(...arrays: unknown[]): Backend {
  const r = ranks();
  let best: string | undefined;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const x of arrays) {
    const owner = ownerOf(x);
    const k = r.get(owner) ?? Number.POSITIVE_INFINITY;
    if (best === undefined || k < bestRank) {
      best = owner;
      bestRank = k;
    }
  }
  return defaultBackends.get(best ?? 'cpu-js')!;
}
