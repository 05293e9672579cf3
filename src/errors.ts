// The one tagged error hierarchy of tessera.
// Every message starts with the name of the function that threw and quotes the bad value.

/** Base class of every error tessera raises; `_tag` narrows without `instanceof`. */
export class TesseraError extends Error {
  readonly _tag: string = 'TesseraError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** An argument has the right type but a bad value. */
export class ValueError extends TesseraError {
  override readonly _tag = 'ValueError';
}

/**
 * Shapes do not match, broadcast, or agree with a declaration. `key` names the task whose
 * result contradicted its declared shape (then compute rejects with this error itself).
 */
export class ShapeError extends TesseraError {
  override readonly _tag = 'ShapeError';
  readonly key: string | undefined;
  constructor(message: string, options?: { cause?: unknown; key?: string }) {
    super(message, options);
    this.key = options?.key;
  }
}

/** A chunk specification is invalid, or an operation needs chunk sizes that are unknown. */
export class ChunkError extends TesseraError {
  override readonly _tag = 'ChunkError';
}

/** A dtype is unknown or not allowed for an operation. */
export class DTypeError extends TesseraError {
  override readonly _tag = 'DTypeError';
}

/** An index is out of bounds or malformed. */
export class IndexError extends TesseraError {
  override readonly _tag = 'IndexError';
}

/**
 * A linear-algebra failure that depends on the values (NumPy's LinAlgError): a singular
 * matrix for inv or solve, a matrix that is not positive definite for cholesky. Raised inside
 * a task, so compute rejects with a TaskError whose `cause` is this error.
 */
export class LinAlgError extends TesseraError {
  override readonly _tag = 'LinAlgError';
}

/** A kernel cannot be shipped to workers (it closes over local state) or is not found. */
export class KernelError extends TesseraError {
  override readonly _tag = 'KernelError';
}

/** A kernel threw while a task ran; `cause` is the original error with its stack. */
export class TaskError extends TesseraError {
  override readonly _tag = 'TaskError';
  readonly key: string;
  readonly kernel: string;
  constructor(key: string, kernel: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`compute: task ${key} (kernel ${kernel}) failed: ${reason}`, { cause });
    this.key = key;
    this.kernel = kernel;
  }
}

/** Data would move between devices without permission. */
export class TransferGuardError extends TesseraError {
  override readonly _tag = 'TransferGuardError';
  readonly array: string;
  readonly from: string;
  readonly to: string;
  readonly bytes: number;
  constructor(fn: string, array: string, from: string, to: string, bytes: number) {
    super(
      `${fn}: transfer of '${array}' (${bytes} bytes) from ${from} to ${to} is guarded; ` +
        'use toDevice(), pass { allowTransfer: true }, or wrap the call in disableGuards()',
    );
    this.array = array;
    this.from = from;
    this.to = to;
    this.bytes = bytes;
  }
}

/** A worker died (exit, out of memory, native crash) while running a task. */
export class WorkerCrashedError extends TesseraError {
  override readonly _tag = 'WorkerCrashedError';
  readonly key: string;
  constructor(key: string, detail: string) {
    super(`compute: worker crashed while running task ${key}: ${detail}`);
    this.key = key;
  }
}

/** An optional package a feature needs (bullmq and ioredis for 'distributed') is not installed. */
export class MissingPackageError extends TesseraError {
  override readonly _tag = 'MissingPackageError';
  readonly packageName: string;
  constructor(caller: string, packageName: string, install: string) {
    super(
      `${caller}: needs the optional package '${packageName}', which is not installed: ${install}`,
    );
    this.packageName = packageName;
  }
}

/** A compute was cancelled through its AbortSignal; `cause` is the signal's abort reason. */
export class CancelledError extends TesseraError {
  override readonly _tag = 'CancelledError';
}

/**
 * A compute ran past its `timeout` (or its signal aborted with a TimeoutError reason, as
 * AbortSignal.timeout's does); `cause` is that reason.
 */
export class TimeoutError extends TesseraError {
  override readonly _tag = 'TimeoutError';
}

/** Narrow an unknown value to a tessera error, optionally of one tag. */
export function isTesseraError(e: unknown, tag?: string): e is TesseraError {
  return e instanceof TesseraError && (tag === undefined || e._tag === tag);
}
