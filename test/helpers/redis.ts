// Shared by the distributed scheduler's tests: whether a Redis answers, the secret the tests
// sign with, and `tessera worker` started in a child process.

import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { config } from '../../src/config.ts';
import { redisConnection } from '../../src/workers/redis-connection.ts';

export const url = config.redis;
export const required = process.env.TESSERA_REQUIRE_REDIS === '1';
/** The secret of the tests' clients and workers (CI may set its own). */
export const SECRET = process.env.TESSERA_SECRET ?? 'test-secret-0123456789abcdef0123456789abcdef';

export async function reachable(at: string): Promise<boolean> {
  const r = new Redis({ ...redisConnection(at), lazyConnect: true, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

/** Whether the tests' Redis is up; throws when it is required (TESSERA_REQUIRE_REDIS=1) and is not. */
export async function redisUp(file: string): Promise<boolean> {
  const up = await reachable(url);
  if (!up && required) throw new Error(`${file}: no Redis at ${url} (TESSERA_REQUIRE_REDIS=1)`);
  if (!up) console.warn(`${file} skipped: no Redis at ${url}`);
  return up;
}

export interface CliWorker {
  readonly child: ReturnType<typeof spawn>;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  /** Everything it wrote to stderr so far. */
  readonly stderr: () => string;
}

/**
 * `tessera worker` in a child process, once it serves (Redis URL and secret through the
 * environment unless `env` says otherwise).
 */
export async function cliWorker(
  queue: string,
  extra: readonly string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<CliWorker> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'worker', '--queue', queue, ...extra],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TESSERA_REDIS_URL: url, TESSERA_SECRET: SECRET, ...env },
    },
  );
  let err = '';
  child.stderr!.on('data', (d) => {
    err += String(d);
    process.stderr.write(d);
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      if (String(d).includes('serving')) resolve();
    });
    void exited.then((e) => reject(new Error(`worker exited early: ${JSON.stringify(e)}: ${err}`)));
  });
  return { child, exited, stderr: () => err };
}

/** A private redis-server on a random port (killed by stop()); undefined if it would not start. */
export async function spawnRedis(
  args: readonly string[],
): Promise<{ port: number; stop: () => void; ready: Promise<boolean> }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const tls = args.includes('--tls-port');
  const server = spawn(
    'redis-server',
    [
      ...(tls ? ['--port', '0', '--tls-port', String(port)] : ['--port', String(port)]),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      ...args.filter((a) => a !== '--tls-port'),
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<boolean>((r) => server.on('exit', () => r(false)));
  const ready = (async () => {
    const { createConnection } = await import('node:net');
    for (let i = 0; i < 100; i++) {
      const open = await Promise.race([
        exited,
        new Promise<boolean>((r) => {
          const s = createConnection(port, '127.0.0.1');
          s.once('connect', () => {
            s.destroy();
            r(true);
          });
          s.once('error', () => r(false));
        }),
      ]);
      if (open) return true;
      if (server.exitCode !== null) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  })();
  return { port, stop: () => server.kill('SIGKILL'), ready };
}
