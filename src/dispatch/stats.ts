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

// op → backend → reason → count: no key strings or rows are made per decision
const counts = new Map<string, Map<string, Map<string, number>>>();

/** Count `d` (and print it when logging is on). */
export function recordDecision(d: Decision, log: boolean): void {
  let byBackend = counts.get(d.op);
  if (byBackend === undefined) {
    byBackend = new Map();
    counts.set(d.op, byBackend);
  }
  let byReason = byBackend.get(d.backend);
  if (byReason === undefined) {
    byReason = new Map();
    byBackend.set(d.backend, byReason);
  }
  byReason.set(d.reason, (byReason.get(d.reason) ?? 0) + 1);
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
  const rows: DispatchStat[] = [];
  for (const [op, byBackend] of counts)
    for (const [backend, byReason] of byBackend)
      for (const [reason, count] of byReason) rows.push({ op, backend, reason, count });
  return rows;
}

/**
 * Forget every count.
 * @example
 * resetDispatchStats();
 * await compute(ones([4]).add(1));
 * dispatchStats(); // only the dispatches of that compute
 */
export function resetDispatchStats(): void {
  counts.clear();
}
