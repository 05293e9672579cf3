// What dispatch decided: one Decision per dispatched layer, counted per (operation, backend,
// reason) for dispatchStats(), recorded in traced scopes, printed under TESSERA_LOG=dispatch.

/** One backend's answer while an operation was dispatched. */
export interface Attempt {
  readonly backend: string;
  /** 'ok', or why it was skipped or deferred. */
  readonly verdict: string;
}

/** One dispatch decision. */
export interface Decision {
  /** The kernel or dispatchable function dispatched. */
  readonly op: string;
  /** The function the user called, when known ('add', 'sum', …). */
  readonly fn?: string;
  /** The backend chosen. */
  readonly backend: string;
  /** Why it was chosen ('explicit', 'scope', 'inputs', 'priority', 'deferred fallback', …). */
  readonly reason: string;
  /** Every backend that implements the operation, in the order tried. */
  readonly tried: readonly Attempt[];
}

/** One row of dispatchStats(). */
export interface DispatchStat {
  readonly op: string;
  readonly backend: string;
  readonly reason: string;
  readonly count: number;
}

const counts = new Map<string, DispatchStat>();

/** Count `d` (and print it when logging is on). */
export function recordDecision(d: Decision, log: boolean): void {
  const key = `${d.op}\u0000${d.backend}\u0000${d.reason}`;
  const row = counts.get(key);
  counts.set(key, { op: d.op, backend: d.backend, reason: d.reason, count: (row?.count ?? 0) + 1 });
  if (log) console.error(formatDecision(d));
}

/** The line TESSERA_LOG=dispatch prints for a decision. */
export function formatDecision(d: Decision): string {
  const tried = d.tried.map((a) => `${a.backend}: ${a.verdict}`).join('; ');
  return `tessera dispatch: ${d.fn ? `${d.fn} ` : ''}${d.op} -> ${d.backend} (${d.reason}) [${tried}]`;
}

/**
 * Calls per (operation, backend, reason) since start or the last reset.
 * @example
 * sum(x).compute; dispatchStats(); // [{ op: 'reduce-partial', backend: 'cpu-wasm', reason: 'priority', count: 1 }, …]
 */
export function dispatchStats(): DispatchStat[] {
  return [...counts.values()];
}

/** Forget every count. */
export function resetDispatchStats(): void {
  counts.clear();
}
