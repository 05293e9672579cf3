// What crosses between the main thread and workers: chunks, batches, results, errors.
// Structured clone keeps SharedArrayBuffer data shared; these functions restore classes.

import type { MessagePort, Worker } from 'node:worker_threads';
import type { NodeEndpoint } from 'comlink/dist/umd/node-adapter.js';
import type { DType, TypedArray } from '../array/dtype.ts';
import { NDArray } from '../array/ndarray.ts';
import {
  ChunkError,
  DTypeError,
  IndexError,
  KernelError,
  LinAlgError,
  ShapeError,
  TaskError,
  TesseraError,
  ValueError,
  WorkerCrashedError,
} from '../errors.ts';
import type { Chunk } from '../kernels/types.ts';
import type { TaskPayload } from './types.ts';

/** An NDArray after structured clone: the fields survive, the class does not. */
interface PlainArray {
  readonly dtype: DType;
  readonly shape: number[];
  readonly data: TypedArray;
}

/** An error as data: enough to rebuild it, with its stack, on the other side. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  readonly tag?: string;
  readonly key?: string;
  readonly kernel?: string;
  readonly cause?: WireError;
}

/** What a worker gets at start (its workerData). */
export interface WorkerInit {
  /** URL of the worker module (worker.ts, or worker.js when compiled). */
  readonly entry: string;
  /** Register tsx before importing the entry (see membersNeedTsx). */
  readonly tsx: boolean;
  /** URL of a module exporting `registry`, a KernelRegistry merged over the built-ins. */
  readonly registryModule?: string;
  /** Int32 slots shared with the main thread; see CONTROL. */
  readonly control: SharedArrayBuffer;
}

/**
 * Slots of a worker's control array: READY (set once it serves), SEQ and INDEX (the batch
 * and task it is running, read after a crash to name the task), then one cancel flag per lane.
 */
export const CONTROL = { READY: 0, SEQ: 1, INDEX: 2, LANES: 3 } as const;

/** One batch for one worker. `lane` names the cancel flag the worker polls between tasks. */
export interface BatchMessage {
  readonly seq: number;
  readonly lane: number;
  readonly tasks: readonly TaskPayload[];
  /** Time every task: the reply then carries `times`. */
  readonly timed?: boolean;
}

/** A worker's answer: every result, or the error of the first task that failed. */
export type BatchReply =
  | {
      readonly ok: true;
      readonly results: Chunk[];
      /** For a timed batch: start and end (epoch ms) of each task, in pairs. */
      readonly times?: Float64Array;
      /** For a timed batch run by a worker process: its resident set size (bytes) at the end. */
      readonly rss?: number;
    }
  | { readonly ok: false; readonly index: number; readonly error: WireError }
  | { readonly ok: false; readonly cancelled: true };

/**
 * Restore NDArray instances in a chunk received from another thread (a no-op on instances).
 * @example
 * decodeChunk(structuredClone(ndarray([1, 2]))) instanceof NDArray; // true
 */
export function decodeChunk(c: unknown): Chunk {
  if (c instanceof NDArray) return c;
  if (Array.isArray(c)) return c.map(decodeChunk);
  const p = c as PlainArray;
  if (p !== null && typeof p === 'object' && ArrayBuffer.isView(p.data))
    return new NDArray(p.data, p.shape, p.dtype);
  return c as Chunk;
}

/** Restore the input chunks of a batch in place (tasks arrive as fresh clones). */
export function decodeInputs(tasks: readonly TaskPayload[]): void {
  for (const t of tasks) {
    const inputs = t.inputs;
    for (let i = 0; i < inputs.length; i++) inputs[i] = decodeChunk(inputs[i]);
  }
}

/**
 * The ordinary (non-shared) ArrayBuffers under some chunks: moved, not copied, when posted.
 * Shared buffers are left out: structured clone already shares them.
 */
export function transferables(chunks: readonly unknown[]): ArrayBuffer[] {
  const seen = new Set<ArrayBuffer>();
  const walk = (c: unknown): void => {
    if (Array.isArray(c)) for (const e of c) walk(e);
    else if (c !== null && typeof c === 'object') {
      const data = (c as { data?: unknown }).data;
      if (ArrayBuffer.isView(data) && data.buffer instanceof ArrayBuffer) seen.add(data.buffer);
    }
  };
  for (const c of chunks) walk(c);
  return [...seen];
}

/** Turn any thrown value into data, keeping the tessera tag, key, kernel and cause chain. */
export function encodeError(e: unknown, depth = 0): WireError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const out: {
    -readonly [K in keyof WireError]: WireError[K];
  } = { name: e.name, message: e.message, stack: e.stack };
  if (e instanceof TesseraError) out.tag = e._tag;
  if (e instanceof TaskError || e instanceof WorkerCrashedError) out.key = e.key;
  if (e instanceof ShapeError && e.key !== undefined) out.key = e.key;
  if (e instanceof TaskError) out.kernel = e.kernel;
  if (e.cause !== undefined && depth < 8) out.cause = encodeError(e.cause, depth + 1);
  return out;
}

type MessageErrorCtor = new (message: string, options?: { cause?: unknown }) => Error;

const byTag: Record<string, MessageErrorCtor> = {
  TesseraError,
  ValueError,
  ShapeError,
  ChunkError,
  DTypeError,
  IndexError,
  KernelError,
  LinAlgError,
};

const builtin: Record<string, MessageErrorCtor> = {
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
};

/**
 * Rebuild an error sent as data: TaskError with its key, kernel and cause; tessera errors
 * as their class; JS errors as their built-in class; others as Error with the same name.
 */
export function decodeError(w: WireError): Error {
  const cause = w.cause === undefined ? undefined : decodeError(w.cause);
  let e: Error;
  if (w.tag === 'TaskError') e = new TaskError(w.key ?? '?', w.kernel ?? '?', cause);
  else if (w.tag === 'WorkerCrashedError') e = new WorkerCrashedError(w.key ?? '?', w.message);
  else {
    const Ctor = (w.tag !== undefined ? byTag[w.tag] : builtin[w.name]) ?? Error;
    e =
      w.tag === 'ShapeError' && w.key !== undefined
        ? new ShapeError(w.message, { key: w.key, ...(cause === undefined ? {} : { cause }) })
        : new Ctor(w.message, cause === undefined ? undefined : { cause });
    if (e.name !== w.name) e.name = w.name;
  }
  if (w.stack !== undefined) e.stack = w.stack;
  if (w.tag === 'WorkerCrashedError' || w.tag === 'TaskError') e.message = w.message;
  return e;
}

/** A worker or its parent port, typed as comlink's node adapter expects. */
export function toEndpoint(port: MessagePort | Worker): NodeEndpoint {
  return port as unknown as NodeEndpoint;
}
