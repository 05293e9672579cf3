// `tessera worker`: its options, read so that no password or secret reaches the process list
// (Redis URL from TESSERA_REDIS_URL or --redis-file, the secret from TESSERA_SECRET or --secret-file).

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { DistributedWorkerOptions } from '../workers/distributed-worker.ts';

interface WorkerFlags {
  redis?: string;
  redisFile?: string;
  tlsCa?: string;
  tlsCert?: string;
  tlsKey?: string;
  queue: string;
  workers?: string;
  lockMs: string;
  secretFile?: string;
  insecure?: boolean;
  kernels?: string[];
  allowSource?: boolean;
  abortGraceMs: string;
}

const readText = (what: string, path: string): string => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (e) {
    throw new Error(
      `tessera worker: cannot read ${what} ${JSON.stringify(path)} (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
};

/** A flag that must be a whole number of at least `min`. */
function whole(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new Error(
      `tessera worker: ${flag} ${JSON.stringify(value)} is not ${min === 0 ? 'a non-negative' : 'a positive'} integer`,
    );
  }
  return n;
}

/** The worker's options from its flags (files read here; nothing secret is echoed). */
export function workerOptions(o: WorkerFlags): DistributedWorkerOptions {
  if (o.redis !== undefined && o.redisFile !== undefined) {
    throw new Error('tessera worker: give --redis or --redis-file, not both');
  }
  const redis = o.redisFile !== undefined ? readText('the Redis URL file', o.redisFile) : o.redis;
  if (o.redis !== undefined && /\/\/[^/@]*:[^/@]*@/.test(o.redis)) {
    console.error(
      'tessera worker: warning: --redis puts the Redis password in the process list (ps); ' +
        'set TESSERA_REDIS_URL or use --redis-file instead',
    );
  }
  const tls = {
    ...(o.tlsCa !== undefined ? { ca: readText('the CA file', o.tlsCa) } : {}),
    ...(o.tlsCert !== undefined ? { cert: readText('the certificate file', o.tlsCert) } : {}),
    ...(o.tlsKey !== undefined ? { key: readText('the key file', o.tlsKey) } : {}),
  };
  return {
    queue: o.queue,
    lockMs: whole('--lock-ms', o.lockMs, 1),
    abortGraceMs: whole('--abort-grace-ms', o.abortGraceMs, 0),
    ...(redis !== undefined ? { redis } : {}),
    ...(Object.keys(tls).length > 0 ? { tls } : {}),
    ...(o.workers !== undefined ? { workers: whole('--workers', o.workers, 1) } : {}),
    ...(o.secretFile !== undefined ? { secretFile: o.secretFile } : {}),
    ...(o.insecure === true ? { insecure: true } : {}),
    ...(o.kernels !== undefined ? { kernels: o.kernels } : {}),
    ...(o.allowSource === true ? { allowSource: true } : {}),
  };
}

/** Add the `worker` command to `program`. */
export function addWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description(
      "serve the 'distributed' scheduler: run signed task batches from Redis on this machine",
    )
    .option(
      '--redis <url>',
      'Redis URL (default: TESSERA_REDIS_URL or redis://127.0.0.1:6379); visible in ps, prefer the env var or --redis-file',
    )
    .option(
      '--redis-file <path>',
      'read the Redis URL (redis:// or rediss://, user:password@ allowed) from a file',
    )
    .option('--tls-ca <file>', 'CA certificate (PEM) to trust for a rediss:// URL')
    .option('--tls-cert <file>', 'client certificate (PEM) for a rediss:// URL')
    .option('--tls-key <file>', 'client key (PEM) for a rediss:// URL')
    .option('--queue <name>', 'BullMQ queue shared with the computes', 'tessera')
    .option('--workers <n>', 'worker threads (default: every core)')
    .option('--lock-ms <ms>', "how soon a dead worker's jobs move to another worker", '10000')
    .option(
      '--secret-file <path>',
      'the secret jobs are signed with (default: env TESSERA_SECRET); make one with `openssl rand -hex 32 > secret`',
    )
    .option('--insecure', 'accept unsigned jobs: anyone who can write to the Redis runs tasks here')
    .option(
      '--kernels <roots...>',
      'folders or packages whose modules may hold kernels (defineKernels, backends)',
    )
    .option(
      '--allow-source',
      'run kernels shipped by source text: this runs arbitrary code sent by any client holding the secret',
    )
    .option(
      '--abort-grace-ms <ms>',
      'after an abort, how long a kernel may run on before its threads are replaced',
      '1000',
    )
    .action(async (o: WorkerFlags) => {
      const { startDistributedWorker } = await import('../workers/distributed-worker.ts');
      let worker: Awaited<ReturnType<typeof startDistributedWorker>>;
      try {
        worker = await startDistributedWorker(workerOptions(o));
      } catch (e) {
        // a bad setup (no Redis there, no secret) is a message, not a stack trace
        console.error(e instanceof Error ? e.message : String(e));
        process.exit(1);
      }
      console.log(`tessera worker: serving queue '${o.queue}'`);
      const stop = async (): Promise<void> => {
        await worker.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
