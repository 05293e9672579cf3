// What the distributed executor and its workers share through Redis: key names, chunks and
// batches as V8-serialized blobs, the job's answer, and how a Redis URL becomes a connection.

import v8 from 'node:v8';
import { ValueError } from '../errors.ts';
import type { Chunk } from '../kernels/types.ts';
import { importIoredis } from './optional-packages.ts';
import type { TaskPayload } from './types.ts';
import { decodeChunk, type WireError } from './wire.ts';

/** A task as a job carries it: its inputs are Redis keys of chunks, not chunk bytes. */
export interface RemoteTask extends Omit<TaskPayload, 'inputs'> {
  readonly inputs: readonly string[];
}

/** The BullMQ job's data: where its batch blob is, and where to put each result. */
export interface BatchJobData {
  readonly batchKey: string;
  readonly resultKeys: readonly string[];
}

/** The job's return value: done (results are at resultKeys), or the first failure. */
export type BatchJobResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly index: number; readonly error: WireError };

/** Chunks and batches expire after this long even if nobody deletes them (ms). */
export const KEY_TTL_MS = 24 * 3600 * 1000;

/** Prefix of every key tessera writes. */
export const KEY_PREFIX = 'tessera:';

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

/**
 * Fail fast, with the URL and what to do, when Redis does not answer (a client left to
 * itself retries forever and a compute would wait for good).
 * @example
 * await checkRedis('DistributedExecutor', 'redis://127.0.0.1:6379');
 */
export async function checkRedis(caller: string, url: string): Promise<void> {
  const { Redis } = await importIoredis(caller);
  const probe = new Redis({
    ...redisConnection(url),
    lazyConnect: true,
    connectTimeout: 5000,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
  } catch (e) {
    throw new ValueError(
      `${caller}: no Redis answers at ${url} (${(e as Error).message}); start redis-server there, or set config.redis or TESSERA_REDIS_URL`,
      { cause: e },
    );
  } finally {
    probe.disconnect();
  }
}

/** ioredis connection options from a `redis://[:password@]host[:port][/db]` URL. */
export interface RedisConnection {
  readonly host: string;
  readonly port: number;
  readonly password?: string;
  readonly db?: number;
  /** BullMQ's blocking commands need this off. */
  readonly maxRetriesPerRequest: null;
}

/**
 * Connection options for a Redis URL.
 * @example
 * redisConnection('redis://127.0.0.1:6379/0'); // { host: '127.0.0.1', port: 6379, db: 0, … }
 */
export function redisConnection(url: string): RedisConnection {
  const u = new URL(url);
  if (u.protocol !== 'redis:') throw new TypeError(`not a redis:// URL: ${url}`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db !== undefined && Number.isInteger(db) ? { db } : {}),
    maxRetriesPerRequest: null,
  };
}
