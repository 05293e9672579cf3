// What the distributed executor and its workers share through Redis: key names, chunks and
// batches as V8-serialized blobs, the job's (signed) data and answer, cancel messages.

import v8 from 'node:v8';
import type { Chunk } from '../kernels/types.ts';
import type { TaskPayload } from './types.ts';
import { decodeChunk, type WireError } from './wire.ts';

/** A task as a job carries it: its inputs are Redis keys of chunks, not chunk bytes. */
export interface RemoteTask extends Omit<TaskPayload, 'inputs'> {
  readonly inputs: readonly string[];
}

/**
 * The BullMQ job's data: where its batch blob is, where to put each result, how long results
 * live, and the HMAC signature over all of it and the blob (see distributed-auth.ts).
 */
export interface BatchJobData {
  readonly computeId: string;
  readonly batchKey: string;
  readonly resultKeys: readonly string[];
  readonly ttlMs: number;
  readonly issuedAt: number;
  /** Absent on jobs of an insecure client. */
  readonly sig?: string;
}

/** A cancel request, published on cancelChannel(queue) when a compute aborts a running job. */
export interface CancelMessage {
  readonly jobId: string;
  readonly sig?: string;
}

/** The pub/sub channel cancel requests of a queue go through. */
export const cancelChannel = (queue: string): string => `${KEY_PREFIX}cancel:${queue}`;

/** The job's return value: done (results are at resultKeys), cancelled, or the first failure. */
export type BatchJobResult =
  | {
      readonly ok: true;
      /** Start and end (epoch ms) of each task, in pairs, and the worker each ran on. */
      readonly times?: readonly number[];
      readonly lanes?: readonly string[];
      /**
       * The worker ('host process 1234') and its resident set size (bytes) when the job ended,
       * the processes of its own pool included.
       */
      readonly worker?: string;
      readonly rss?: number;
    }
  | { readonly ok: false; readonly cancelled: true }
  | { readonly ok: false; readonly index: number; readonly error: WireError };

/**
 * Chunks and batches of a client that died expire after this long (ms); a live client deletes
 * them when its compute ends and renews the rest.
 */
export const DEFAULT_KEY_TTL_MS = 3600 * 1000;

/** Prefix of every key tessera writes. */
export const KEY_PREFIX = 'tessera:';

/** Job failure reasons that start with this come from the worker refusing the job. */
export const REFUSED = 'tessera worker refused the job: ';

/**
 * A chunk (or a batch) as bytes: V8 serialization keeps typed arrays, tuples and params.
 * @example
 * decodeBlob(encodeBlob(ndarray([1, 2]))); // the same values
 */
export function encodeBlob(value: unknown): Buffer {
  return v8.serialize(value);
}

/** The value of a blob, with NDArray classes restored for chunks. */
export function decodeChunkBlob(blob: Buffer): Chunk {
  return decodeChunk(v8.deserialize(blob));
}

/** The batch of a job. */
export function decodeBatchBlob(blob: Buffer): RemoteTask[] {
  return v8.deserialize(blob) as RemoteTask[];
}
