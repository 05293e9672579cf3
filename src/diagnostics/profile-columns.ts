// The typed-array columns a ProfileRecorder records into, reused by later computes once
// nothing can read them: allocating a few MB of fresh columns per compute of a hundred
// thousand tasks cost page faults and set off collections more often than recording into
// them did.

/** One recorder's columns: per task in the order they finished, and per task id. */
export interface Columns {
  /** Per finished task: its id, lane and kernel (interned), start and end. */
  readonly ids: Int32Array;
  readonly laneOf: Int32Array;
  readonly kernelOf: Int32Array;
  readonly starts: Float64Array;
  readonly ends: Float64Array;
  /** Per task id: the bytes of its value (zero until recorded). */
  readonly bytesOf: Float64Array;
}

/** Who may still read a set of columns: the recorder and the profiles it gave. */
interface Lease {
  readonly columns: Columns;
  readers: number;
  /** False once the recorder outgrew them (they are left to the collector). */
  returnable: boolean;
}

/** Columns for up to this many tasks are kept for reuse (larger ones are left to the GC). */
const MAX_KEPT_TASKS = 2 ** 18;
let kept: Columns | undefined;

const readersGone = new FinalizationRegistry<Lease>((lease) => {
  if (--lease.readers > 0 || !lease.returnable) return;
  const c = lease.columns;
  if (c.ids.length > MAX_KEPT_TASKS || c.bytesOf.length > 2 * MAX_KEPT_TASKS) return;
  if (kept === undefined || kept.ids.length < c.ids.length) kept = c;
});

/**
 * Columns for `tasks` finished tasks of a table of `ids` task ids: the kept ones when they are
 * large enough, and no more than four times that, else fresh ones. `bytesOf` reads zero.
 * @example
 * const columns = takeColumns(runnableCount(table), table.count);
 */
export function takeColumns(tasks: number, ids: number): Columns {
  const k = kept;
  if (
    k !== undefined &&
    k.ids.length >= tasks &&
    k.ids.length <= 4 * tasks &&
    k.bytesOf.length >= ids &&
    k.bytesOf.length <= 4 * Math.max(16, ids)
  ) {
    kept = undefined;
    k.bytesOf.fill(0, 0, ids);
    return k;
  }
  return {
    ids: new Int32Array(tasks),
    laneOf: new Int32Array(tasks),
    kernelOf: new Int32Array(tasks),
    starts: new Float64Array(tasks),
    ends: new Float64Array(tasks),
    bytesOf: new Float64Array(ids),
  };
}

/**
 * The columns' readers, as they come: once every reader (`owner` and each `addReader`) was
 * collected, the columns are kept for a later takeColumns.
 * @example
 * const lease = leaseColumns(recorder, columns);
 * addReader(lease, profile.tasks);
 */
export function leaseColumns(owner: object, columns: Columns): Lease {
  const lease: Lease = { columns, readers: 1, returnable: true };
  readersGone.register(owner, lease);
  return lease;
}

/** `reader` may read the lease's columns until it is collected. */
export function addReader(lease: Lease, reader: object): void {
  lease.readers++;
  readersGone.register(reader, lease);
}

/** The owner outgrew the columns: they are never reused (earlier profiles may read them). */
export function endLease(lease: Lease): void {
  lease.returnable = false;
}

export type { Lease };
