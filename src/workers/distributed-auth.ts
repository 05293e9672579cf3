// Job authentication of the distributed scheduler: client and workers share a secret; every
// batch job and cancel message is signed with HMAC-SHA256 and checked in constant time.

import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ValueError } from '../errors.ts';

/** The shared secret as a key object: util.inspect and logs show its size, never its bytes. */
export type JobSecret = KeyObject;

export interface SecretSource {
  /** The secret itself (default: env TESSERA_SECRET). */
  readonly secret?: string;
  /** A file holding the secret (default: env TESSERA_SECRET_FILE). */
  readonly secretFile?: string;
  /**
   * Send or accept unsigned jobs (any secret is then ignored): anyone who can write to the
   * Redis runs code on the workers.
   */
  readonly insecure?: boolean;
}

const MIN_SECRET_CHARS = 16;

const howTo = (flag: string, insecure: string): string =>
  `make one with \`openssl rand -hex 32 > secret\` and pass it to the computes and every worker ` +
  `(TESSERA_SECRET=$(cat secret), or ${flag}), or pass ${insecure} to run without job signatures ` +
  '(then anyone who can write to the Redis runs code on the workers)';

/**
 * The secret jobs are signed with, or undefined when running insecure (asked for explicitly,
 * it wins over a secret in the environment); throws ValueError when there is none.
 * @example
 * const key = loadSecret({ secretFile: '/etc/tessera/secret' }, 'tessera worker');
 */
export function loadSecret(
  src: SecretSource,
  caller: string,
  flags = { file: '--secret-file <path>', insecure: '--insecure' },
): JobSecret | undefined {
  if (src.insecure === true) return undefined;
  const file = src.secretFile ?? process.env.TESSERA_SECRET_FILE;
  let text = src.secret ?? (file === undefined ? process.env.TESSERA_SECRET : undefined);
  if (text === undefined && file !== undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new ValueError(
        `${caller}: cannot read the secret file ${JSON.stringify(file)} (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  text = text?.trim();
  if (text === undefined || text === '') {
    throw new ValueError(
      `${caller}: no secret to sign jobs with (TESSERA_SECRET is not set); ${howTo(flags.file, flags.insecure)}`,
    );
  }
  if (text.length < MIN_SECRET_CHARS) {
    throw new ValueError(
      `${caller}: the secret is ${text.length} characters, fewer than ${MIN_SECRET_CHARS}; ${howTo(flags.file, flags.insecure)}`,
    );
  }
  return createSecretKey(Buffer.from(text, 'utf8'));
}

/** The signed part of a job: everything the worker acts on, and the batch blob's bytes. */
export interface SignedFields {
  readonly computeId: string;
  readonly jobId: string;
  readonly batchKey: string;
  readonly resultKeys: readonly string[];
  readonly ttlMs: number;
  readonly issuedAt: number;
}

function mac(secret: JobSecret, fields: SignedFields, blob: Buffer): Buffer {
  const header = JSON.stringify([
    'tessera-batch-v1',
    fields.computeId,
    fields.jobId,
    fields.batchKey,
    fields.resultKeys,
    fields.ttlMs,
    fields.issuedAt,
  ]);
  return createHmac('sha256', secret).update(header).update('\0').update(blob).digest();
}

/** The hex HMAC-SHA256 of a job's fields and its batch blob. */
export function signBatch(secret: JobSecret, fields: SignedFields, blob: Buffer): string {
  return mac(secret, fields, blob).toString('hex');
}

/** Whether `sig` is the signature of these fields and blob (constant-time compare). */
export function verifyBatch(
  secret: JobSecret,
  fields: SignedFields,
  blob: Buffer,
  sig: unknown,
): boolean {
  if (typeof sig !== 'string' || !/^[0-9a-f]{64}$/.test(sig)) return false;
  return timingSafeEqual(mac(secret, fields, blob), Buffer.from(sig, 'hex'));
}

/** The signature of a cancel message for `jobId`. */
export function signCancel(secret: JobSecret, jobId: string): string {
  return createHmac('sha256', secret).update(`tessera-cancel-v1\0${jobId}`).digest('hex');
}

/** Whether `sig` signs a cancel of `jobId`. */
export function verifyCancel(secret: JobSecret, jobId: string, sig: unknown): boolean {
  if (typeof sig !== 'string' || !/^[0-9a-f]{64}$/.test(sig)) return false;
  return timingSafeEqual(Buffer.from(signCancel(secret, jobId), 'hex'), Buffer.from(sig, 'hex'));
}
