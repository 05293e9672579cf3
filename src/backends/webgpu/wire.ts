// Messages between the main thread and a GPU worker: requests by id, replies with a value
// or a serialised error (its tag, so the main thread rethrows the same error class).

import type { DType, TypedArray } from '../../array/dtype.ts';

/** A chunk resident on a GPU worker: small, serialisable, and the only thing callers hold. */
export interface GpuHandle {
  readonly device: string;
  readonly id: number;
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly bytes: number;
}

export type GpuRequest =
  | { op: 'upload'; dtype: DType; shape: number[]; data: TypedArray }
  | { op: 'download'; id: number; into?: TypedArray }
  | { op: 'run'; kernel: string; inputs: number[]; params: unknown }
  | { op: 'release'; ids: number[] }
  | { op: 'stats' }
  | { op: 'sync' }
  | { op: 'crash' }
  | { op: 'close' };

export interface WireError {
  readonly tag: string;
  readonly message: string;
  readonly stack?: string;
}

export type GpuReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: WireError };

/** What a worker reports once its device is open (or why it is not). */
export type GpuReady =
  | { ready: true; adapter: import('./device.ts').AdapterEntry; hasF16: boolean }
  | { ready: false; error: WireError };
