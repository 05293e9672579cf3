// The messages between the main thread and a pool process (Node IPC, advanced serialization:
// typed arrays, shared ones included, arrive as copies on ordinary ArrayBuffers).

import type { CacheMessage } from './buffer-cache.ts';
import type { TaskPayload } from './types.ts';
import type { BatchReply, WireError } from './wire.ts';

/**
 * Main → process: run a batch (queued behind the ones before it), cancel one, or hold or
 * drop a shared buffer (buffer-cache.ts).
 */
export type ToProcess =
  | {
      readonly t: 'batch';
      readonly seq: number;
      readonly tasks: readonly TaskPayload[];
      /** Time every task (see BatchMessage.timed). */
      readonly timed?: boolean;
    }
  | { readonly t: 'cancel'; readonly seq: number }
  | CacheMessage;

/**
 * Process → main: it serves; it could not start; batch `seq` moved on to task `index` (so a
 * crash names the right task); a batch's reply.
 */
export type FromProcess =
  | { readonly t: 'ready' }
  | { readonly t: 'failed'; readonly error: WireError }
  | { readonly t: 'at'; readonly seq: number; readonly index: number }
  | { readonly t: 'reply'; readonly seq: number; readonly reply: BatchReply };

/** The environment variable a pool process sees set to '1'. */
export const PROCESS_MEMBER_ENV = 'TESSERA_PROCESS_MEMBER';
