// The selection cascade: which backend runs an operation. Precedence, lowest to highest:
// built-in order and declared priorities < config.backendPriority < TESSERA_BACKEND_PRIORITY
// < inferred from the inputs < withBackend scopes < a call's explicit { backend }.
// canRun false skips a backend; shouldRun false defers it to the end (NetworkX's rule).

import { config } from '../config.ts';
import { ValueError } from '../errors.ts';
import { type DispatchEnv, dispatchEnv } from './env.ts';
import type { BackendRegistry } from './registry.ts';
import { currentScope, type DispatchScope } from './scope.ts';
import { type Attempt, type Decision, recordDecision } from './stats.ts';
import type { Backend, OpMeta } from './types.ts';

/** What selection returns: the backend and the decision recorded for it. */
export interface Selection {
  readonly backend: Backend;
  readonly decision: Decision;
}

/** `names` (highest first) moved to the front of `order`, the rest kept in order. */
function promote(order: readonly Backend[], names: readonly string[]): Backend[] {
  if (names.length === 0) return order as Backend[];
  const front: Backend[] = [];
  for (const n of names) {
    const b = order.find((x) => x.name === n);
    if (b !== undefined && !front.includes(b)) front.push(b);
  }
  return [...front, ...order.filter((b) => !front.includes(b))];
}

/** Backends the inputs point to: GPU backends for GPU data, owners of claimed argument types. */
const NONE: readonly string[] = Object.freeze([]);

function inferred(order: readonly Backend[], meta: OpMeta): readonly string[] {
  let onDevice = false;
  for (let i = 0; i < meta.inputs.length; i++)
    if (meta.inputs[i]!.device !== 'cpu') onDevice = true;
  if (!onDevice && meta.args === undefined) return NONE;
  const out: string[] = [];
  if (onDevice) {
    for (const b of order) if (b.device === 'gpu') out.push(b.name);
  }
  if (meta.args !== undefined) {
    for (const b of order) {
      if (
        b.owns !== undefined &&
        meta.args.some((a) => typeof a === 'object' && a !== null && b.owns!(a))
      )
        out.push(b.name);
    }
  }
  return out;
}

const verdictOf = (v: true | string | undefined): string =>
  v === undefined || v === true ? 'ok' : v;

/** The order in which backends are tried for `meta`, and why the first ones are first. */
interface Ordering {
  readonly order: readonly Backend[];
  readonly why: ReadonlyMap<string, string>;
  /** Backends named by a priority list or scope (opt-in backends count as asked for). */
  readonly named: ReadonlySet<string>;
}

// the ordering with no scope and no inputs' preference, until priorities change (compared
// element by element: config.backendPriority is a plain array a user may edit in place)
let cached: { version: number; cfg: string[]; env: readonly string[]; value: Ordering } | undefined;

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

function orderFor(
  registry: BackendRegistry,
  meta: OpMeta,
  env: DispatchEnv,
  scope: DispatchScope,
): Ordering {
  const inputs = inferred(registry.list(), meta);
  const plain = scope.prioritize.length === 0 && inputs.length === 0;
  if (
    plain &&
    cached !== undefined &&
    cached.version === registry.version &&
    cached.env === env.priority &&
    sameList(cached.cfg, config.backendPriority)
  ) {
    return cached.value;
  }
  const why = new Map<string, string>();
  let order = registry.list() as Backend[];
  const levels: [string, readonly string[]][] = [
    ['config.backendPriority', [...config.backendPriority].reverse()],
    ['TESSERA_BACKEND_PRIORITY', [...env.priority].reverse()],
    ['inputs', inputs],
    ['withBackend', scope.prioritize],
  ];
  for (const [label, names] of levels) {
    order = promote(order, names);
    for (const n of names) why.set(n, label);
  }
  const named = new Set([...config.backendPriority, ...env.priority, ...scope.prioritize]);
  const value: Ordering = { order, why, named };
  if (plain) {
    cached = {
      version: registry.version,
      cfg: [...config.backendPriority],
      env: env.priority,
      value,
    };
  }
  return value;
}

const kernelSets = new WeakMap<Backend, ReadonlySet<string>>();

/** Whether `b` implements `op` (its kernel list as a set, made once per backend). */
function implementsOp(b: Backend, op: string): boolean {
  let set = kernelSets.get(b);
  if (set === undefined) {
    set = new Set(b.kernels);
    kernelSets.set(b, set);
  }
  return set.has(op);
}

/**
 * Choose the backend of operation `meta.op`. Throws ValueError when a call's explicit backend
 * cannot run it (explicit means no silent fallback). With `detail` false the decision lists
 * every backend's verdict only where a trace or the log reads it.
 * @example
 * selectBackend(registry, { op: 'ew', params, dtype: 'float64', chunks, inputs, blockElements: 1e6 });
 */
export function selectBackend(
  registry: BackendRegistry,
  meta: OpMeta,
  fn?: string,
  env: DispatchEnv = dispatchEnv,
  detail = true,
): Selection {
  const scope = currentScope();
  const op = meta.op;
  // every backend's verdict, kept where someone reads it (a trace, the log, the caller)
  const full = detail || env.log || scope.traces.length > 0;
  // (nothing is pushed when no one reads it: one shared empty list then)
  const tried: Attempt[] = full ? [] : (NO_ATTEMPTS as Attempt[]);
  const explicit = scope.explicit;
  if (explicit !== undefined) {
    const b = registry.get(explicit.name);
    if (b !== undefined && implementsOp(b, op)) return takeExplicit(b, meta, explicit.fn, env);
  }
  const { order, why, named } = orderFor(registry, meta, env, scope);
  let deferred: Backend | undefined;
  let chosen: Backend | undefined;
  for (const b of order) {
    if (!implementsOp(b, op)) continue;
    const skip = staticSkip(b, scope.disable, named, env);
    if (skip !== undefined) {
      if (full) tried.push({ backend: b.name, verdict: skip });
      continue;
    }
    const can = b.canRun?.(op, meta);
    if (can !== undefined && can !== true) {
      if (full) tried.push({ backend: b.name, verdict: `cannot run: ${can}` });
      continue;
    }
    const should = b.shouldRun?.(op, meta);
    if (should !== undefined && should !== true) {
      if (full) tried.push({ backend: b.name, verdict: `deferred: ${should}` });
      deferred ??= b;
      continue;
    }
    if (full) tried.push({ backend: b.name, verdict: 'ok' });
    chosen = b;
    break;
  }
  let reason: string;
  if (chosen !== undefined) reason = why.get(chosen.name) ?? 'priority';
  else if (deferred !== undefined) {
    chosen = deferred;
    reason = 'deferred fallback';
  } else if (!full) {
    return selectBackend(registry, meta, fn, env, true); // throws, naming every verdict
  } else {
    throw new ValueError(
      `${fn ?? op}: no backend can run '${op}' (${tried.map((a) => `${a.backend}: ${a.verdict}`).join('; ') || 'none implements it'})`,
    );
  }
  const decision: Decision =
    fn === undefined
      ? { op, backend: chosen.name, reason, tried }
      : { op, fn, backend: chosen.name, reason, tried };
  return finish(decision, chosen, env, scope);
}

const NO_ATTEMPTS: readonly Attempt[] = Object.freeze([]);

/** Why `b` is not even asked (blocked, disabled, unavailable, opt-in only), or undefined. */
function staticSkip(
  b: Backend,
  disabled: ReadonlySet<string>,
  named: ReadonlySet<string>,
  env: DispatchEnv,
): string | undefined {
  if (env.block.includes(b.name)) return 'blocked by TESSERA_BACKEND_BLOCK';
  if (disabled.has(b.name)) return 'disabled by withBackend';
  if (b.requiresOptIn && !named.has(b.name)) return 'requires opt-in (name it to use it)';
  const avail = b.available?.();
  if (avail !== undefined && avail !== true) return `unavailable: ${avail}`;
  return undefined;
}

function takeExplicit(b: Backend, meta: OpMeta, fn: string, env: DispatchEnv): Selection {
  const scope = currentScope();
  const blocked = staticSkip(b, new Set(), new Set([b.name]), env);
  const can = blocked ?? verdictOf(b.canRun?.(meta.op, meta));
  if (can !== 'ok') {
    throw new ValueError(`${fn}: backend '${b.name}' cannot run '${meta.op}': ${can}`);
  }
  scope.explicit!.matched++;
  const should = verdictOf(b.shouldRun?.(meta.op, meta));
  const tried: Attempt[] = [
    {
      backend: b.name,
      verdict: should === 'ok' ? 'ok' : `asked to defer (${should}), run as named`,
    },
  ];
  return finish({ op: meta.op, fn, backend: b.name, reason: 'explicit', tried }, b, env, scope);
}

function finish(
  decision: Decision,
  backend: Backend,
  env: DispatchEnv,
  scope: DispatchScope,
): Selection {
  recordDecision(decision, env.log);
  const traces = scope.traces;
  for (let i = 0; i < traces.length; i++) traces[i]!.push(decision);
  return { backend, decision };
}
