// The distributed scheduler's Redis side: ACL users and TLS (rediss://) connect, a wrong
// password is an authentication error, no password is ever shown (messages, logs, ps); a
// compute's keys are gone when it ends (success, failure, abort, shutdown) and expire when
// its client dies; a kernel still running after an abort gets its worker threads replaced.

import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, test, vi } from 'vitest';
import type { NDArray } from '../../src/array/ndarray.ts';
import { CancelledError, isTesseraError } from '../../src/errors.ts';
import {
  compute,
  DistributedExecutor,
  fromArray,
  mapBlocks,
  startDistributedWorker,
} from '../../src/index.ts';
import { redactRedisUrl, redisConnection } from '../../src/workers/redis-connection.ts';
import { cliWorker, redisUp, SECRET, spawnRedis, url } from '../helpers/redis.ts';
import { rejection } from '../helpers/rejection.ts';

const up = await redisUp('distributed redis tests');
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const T = 30_000;
const dir = mkdtempSync(join(tmpdir(), 'tessera-redis-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PASSWORD = 'pw-Zq8#not-in-logs';

const x = fromArray(
  Float64Array.from({ length: 64 }, (_, i) => i),
  { chunks: 8 },
);

/** Keys of one executor: its own and BullMQ's hashes of its jobs (job ids carry its prefix). */
async function keysOf(redis: Redis, cluster: DistributedExecutor): Promise<string[]> {
  const prefix = (cluster as unknown as { prefix: string }).prefix;
  return redis.keys(`*${prefix}*`);
}

describe('Redis URLs and credentials', () => {
  test('redactRedisUrl hides passwords; redisConnection reads users, TLS and refuses other schemes', () => {
    const encoded = encodeURIComponent(PASSWORD);
    expect(redactRedisUrl(`redis://app:${encoded}@db:6379/2`)).toBe('redis://app:***@db:6379/2');
    expect(redactRedisUrl(`redis://:${encoded}@db`)).not.toContain(encoded);
    // not even a URL (its '#' is taken for a fragment): everything before the '@' goes
    expect(redactRedisUrl(`redis://app:${PASSWORD}@db:6379/2`)).toBe('redis://***@db:6379/2');
    expect(redactRedisUrl('redis://db:6379')).toBe('redis://db:6379');
    expect(redisConnection(`redis://app:${encodeURIComponent(PASSWORD)}@db:7000/3`)).toMatchObject({
      host: 'db',
      port: 7000,
      username: 'app',
      password: PASSWORD,
      db: 3,
    });
    expect(redisConnection('rediss://db', { ca: 'PEM' }).tls).toEqual({ ca: 'PEM' });
    let err: unknown;
    try {
      redisConnection(`http://u:${PASSWORD}@db`, undefined, 'DistributedExecutor');
    } catch (e) {
      err = e;
    }
    expect(isTesseraError(err, 'ValueError')).toBe(true);
    expect(String(err)).toContain('DistributedExecutor: Redis URL');
    expect(String(err)).not.toContain(PASSWORD);
  });

  test.runIf(hasRedisServer)(
    'an ACL user:password@ URL computes; a wrong password is "authentication failed", never printed',
    async () => {
      const server = await spawnRedis([
        '--user',
        'app',
        'on',
        `>${PASSWORD}`,
        '~*',
        '&*',
        '+@all',
        '--user',
        'default',
        'off',
      ]);
      expect(await server.ready).toBe(true);
      const good = `redis://app:${encodeURIComponent(PASSWORD)}@127.0.0.1:${server.port}`;
      const bad = `redis://app:wrong-${encodeURIComponent(PASSWORD)}@127.0.0.1:${server.port}`;
      const queue = `acl-${randomUUID()}`;
      const errors = vi.spyOn(console, 'error');
      try {
        const worker = await startDistributedWorker({
          redis: good,
          queue,
          workers: 1,
          secret: SECRET,
        });
        const cluster = new DistributedExecutor({ redis: good, queue, secret: SECRET });
        try {
          expect((await compute(x.sum(), { scheduler: cluster })).data[0]).toBe(2016);
        } finally {
          await cluster.shutdown();
          await worker.close();
        }
        const wrong = new DistributedExecutor({ redis: bad, queue, secret: SECRET });
        const err = await rejection(compute(x.sum(), { scheduler: wrong }));
        await wrong.shutdown();
        expect(isTesseraError(err, 'ValueError')).toBe(true);
        expect(String(err)).toContain('authentication failed');
        expect(String(err)).toContain("user 'app'");
        expect(String(err)).toContain(`redis://app:***@127.0.0.1:${server.port}`);
        const werr = await rejection(startDistributedWorker({ redis: bad, queue, secret: SECRET }));
        expect(String(werr)).toMatch(/^ValueError: tessera worker: .*authentication failed/);
        for (const shown of [err, werr, (err as Error).cause, ...errors.mock.calls.flat()]) {
          expect(String(shown)).not.toContain(PASSWORD);
          expect(JSON.stringify(shown ?? null)).not.toContain(PASSWORD);
        }
      } finally {
        errors.mockRestore();
        server.stop();
      }
    },
    T,
  );

  test.runIf(up)(
    'tessera worker takes its URL from TESSERA_REDIS_URL or --redis-file: no password in ps',
    async () => {
      if (!hasRedisServer) return;
      const server = await spawnRedis(['--requirepass', PASSWORD]);
      expect(await server.ready).toBe(true);
      const withPw = `redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${server.port}`;
      const file = join(dir, 'redis-url');
      writeFileSync(file, `${withPw}\n`);
      const queue = `ps-${randomUUID()}`;
      const a = await cliWorker(queue, ['--workers', '1'], { TESSERA_REDIS_URL: withPw });
      const b = await cliWorker(queue, ['--workers', '1', '--redis-file', file], {
        TESSERA_REDIS_URL: undefined,
      });
      const cluster = new DistributedExecutor({ redis: withPw, queue, secret: SECRET });
      try {
        for (const w of [a, b]) {
          const cmdline = readFileSync(`/proc/${w.child.pid}/cmdline`, 'utf8');
          expect(cmdline).toContain('worker');
          expect(cmdline).not.toContain(PASSWORD);
        }
        expect((await compute(x.sum(), { scheduler: cluster })).data[0]).toBe(2016);
        // Redis going away: the reconnect log shows the URL redacted
        server.stop();
        await new Promise((r) => setTimeout(r, 500));
        expect(a.stderr()).toContain('tessera worker: Redis at redis://:***@127.0.0.1');
      } finally {
        await Promise.race([cluster.shutdown(), new Promise((r) => setTimeout(r, 2000))]);
        for (const w of [a, b]) w.child.kill('SIGKILL');
        await Promise.all([a.exited, b.exited]);
        server.stop();
      }
      expect(a.stderr() + b.stderr()).not.toContain(PASSWORD);
    },
    T,
  );

  /** A CA and a server certificate for 127.0.0.1, made with openssl. */
  function makeCerts(): { ca: string; cert: string; key: string } {
    const p = (f: string) => join(dir, f);
    const run = (...args: string[]) => {
      const r = spawnSync('openssl', args, { stdio: 'ignore' });
      if (r.status !== 0) throw new Error(`openssl ${args[0]} failed`);
    };
    const subj = (cn: string) => ['-subj', `/CN=${cn}`];
    run(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      p('ca.key'),
      '-out',
      p('ca.crt'),
      '-days',
      '1',
      ...subj('tessera-test-ca'),
    );
    run(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      p('srv.key'),
      '-out',
      p('srv.csr'),
      ...subj('localhost'),
    );
    writeFileSync(p('ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1');
    run(
      'x509',
      '-req',
      '-in',
      p('srv.csr'),
      '-CA',
      p('ca.crt'),
      '-CAkey',
      p('ca.key'),
      '-CAcreateserial',
      '-out',
      p('srv.crt'),
      '-days',
      '1',
      '-extfile',
      p('ext'),
    );
    return { ca: p('ca.crt'), cert: p('srv.crt'), key: p('srv.key') };
  }

  test.runIf(hasRedisServer && hasOpenssl)(
    'rediss:// computes over TLS with a CA option (client, worker, and the CLI with --tls-ca)',
    async () => {
      const certs = makeCerts();
      const server = await spawnRedis([
        '--tls-port',
        '--tls-cert-file',
        certs.cert,
        '--tls-key-file',
        certs.key,
        '--tls-ca-cert-file',
        certs.ca,
        '--tls-auth-clients',
        'no',
        '--requirepass',
        PASSWORD,
      ]);
      expect(await server.ready).toBe(true);
      const at = `rediss://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${server.port}`;
      const tls = { ca: readFileSync(certs.ca, 'utf8') };
      const queue = `tls-${randomUUID()}`;
      try {
        // without the CA the certificate is refused, and that is what the message says
        const untrusted = new DistributedExecutor({ redis: at, queue, secret: SECRET });
        const err = await rejection(compute(x.sum(), { scheduler: untrusted }));
        await untrusted.shutdown();
        expect(String(err)).toMatch(
          /no Redis answers at rediss:\/\/:\*\*\*@127\.0\.0\.1:\d+ \(.*(certificate|self.signed)/i,
        );
        const worker = await startDistributedWorker({
          redis: at,
          tls,
          queue,
          workers: 1,
          secret: SECRET,
        });
        const cli = await cliWorker(queue, ['--workers', '1', '--tls-ca', certs.ca], {
          TESSERA_REDIS_URL: at,
        });
        const cluster = new DistributedExecutor({ redis: at, tls, queue, secret: SECRET });
        try {
          const got = await compute(x.mul(2).sum({ axis: 0 }), { scheduler: cluster });
          expect(got.data[0]).toBe(4032);
        } finally {
          await cluster.shutdown();
          await worker.close();
          cli.child.kill('SIGTERM');
          await cli.exited;
        }
      } finally {
        server.stop();
      }
    },
    T,
  );
});

/** `n` blocks of 2, each task busy for `ms` then returning its block; `marker`.started and `marker` tell when it runs and ends. */
const busyBlocks = (n: number, ms: number, marker = '') =>
  mapBlocks(
    (b: NDArray, k: { ms: number; marker: string }) => {
      const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
      if (k.marker !== '') fs.writeFileSync(`${k.marker}.started`, 'started');
      const until = Date.now() + k.ms;
      while (Date.now() < until) {}
      if (k.marker !== '') fs.writeFileSync(k.marker, 'finished');
      return b.data;
    },
    fromArray(new Float64Array(n), { chunks: 2 }),
    { dtype: 'float64', kwargs: { ms, marker } },
  );

describe.runIf(up)('a compute leaves nothing in Redis', () => {
  test(
    'after a success, a failure, an abort, and shutdown() mid-compute',
    async () => {
      const queue = `clean-${randomUUID()}`;
      const redis = new Redis(redisConnection(url));
      const worker = await startDistributedWorker({
        redis: url,
        queue,
        workers: 2,
        secret: SECRET,
        allowSource: true,
      });
      const cluster = new DistributedExecutor({ redis: url, queue, secret: SECRET });
      const settle = () => new Promise((r) => setTimeout(r, 300));
      try {
        expect((await compute(x.mul(2).add(x).sum(), { scheduler: cluster })).data[0]).toBe(
          3 * 2016,
        );
        await settle();
        expect(await keysOf(redis, cluster)).toEqual([]);
        const bad = mapBlocks(
          (b: NDArray) => {
            if (b.data[0] === 17) throw new Error('bad block');
            return b.data;
          },
          x.add(1),
          { dtype: 'float64' },
        );
        expect(String(await rejection(compute(bad.sum(), { scheduler: cluster })))).toContain(
          'bad block',
        );
        await settle();
        expect(await keysOf(redis, cluster)).toEqual([]);
        const ac = new AbortController();
        setTimeout(() => ac.abort(), 150);
        const cancelled = await rejection(
          compute(busyBlocks(8, 400), { scheduler: cluster, signal: ac.signal }),
        );
        expect(cancelled).toBeInstanceOf(CancelledError);
        await new Promise((r) => setTimeout(r, 1000)); // the running kernels end; their results are not written
        expect(await keysOf(redis, cluster)).toEqual([]);
      } finally {
        await cluster.shutdown();
        await worker.close();
      }
      // shutdown() while a compute waits (no worker serves this queue): its keys go, its job too
      const idle = new DistributedExecutor({
        redis: url,
        queue: `none-${randomUUID()}`,
        secret: SECRET,
      });
      try {
        const run = rejection(compute(x.add(1).sum(), { scheduler: idle }));
        for (let i = 0; i < 50 && (await keysOf(redis, idle)).length === 0; i++)
          await new Promise((r) => setTimeout(r, 20));
        expect((await keysOf(redis, idle)).length).toBeGreaterThan(0);
        await idle.shutdown();
        expect(await run).toBeInstanceOf(CancelledError);
        await settle();
        expect(await keysOf(redis, idle)).toEqual([]);
      } finally {
        redis.disconnect();
      }
    },
    T,
  );

  test(
    "a dead client's keys expire after keyTtlMs; a live one renews them while it waits",
    async () => {
      const redis = new Redis(redisConnection(url));
      const script = join(dir, `client-${randomUUID()}.mts`);
      const src = new URL('../../src/index.ts', import.meta.url).pathname;
      writeFileSync(
        script,
        `import { compute, DistributedExecutor, fromArray } from ${JSON.stringify(src)};
const c = new DistributedExecutor({ queue: 'nobody-${randomUUID()}', keyTtlMs: 1000 });
console.log((c as unknown as { prefix: string }).prefix);
await compute(fromArray(new Float64Array(64), { chunks: 8 }).sum(), { scheduler: c });\n`,
      );
      const child = spawn(process.execPath, ['--import', 'tsx', script], {
        stdio: ['ignore', 'pipe', 'ignore'],
        env: { ...process.env, TESSERA_REDIS_URL: url, TESSERA_SECRET: SECRET },
      });
      try {
        const prefix = await new Promise<string>((r) =>
          child.stdout.once('data', (d) => r(String(d).trim())),
        );
        const tessera = () => redis.keys(`${prefix}*`);
        for (let i = 0; i < 100 && (await tessera()).length === 0; i++)
          await new Promise((r) => setTimeout(r, 20));
        expect((await tessera()).length).toBeGreaterThan(0);
        // alive for 2 TTLs: the client renews them
        await new Promise((r) => setTimeout(r, 2000));
        expect((await tessera()).length).toBeGreaterThan(0);
        child.kill('SIGKILL');
        await new Promise((r) => setTimeout(r, 1500));
        expect(await tessera()).toEqual([]);
      } finally {
        child.kill('SIGKILL');
        redis.disconnect();
      }
    },
    T,
  );
});

describe.runIf(up)('abort on a distributed worker', () => {
  test(
    'a kernel running past the grace period gets its threads replaced; the worker keeps serving',
    async () => {
      const queue = `grace-${randomUUID()}`;
      const worker = await startDistributedWorker({
        redis: url,
        queue,
        workers: 1,
        secret: SECRET,
        allowSource: true,
        abortGraceMs: 300,
      });
      const cluster = new DistributedExecutor({
        redis: url,
        queue,
        secret: SECRET,
        concurrency: 1,
      });
      const marker = join(dir, `runaway-${randomUUID()}`);
      try {
        const ac = new AbortController();
        setTimeout(() => ac.abort(), 300);
        const err = await rejection(
          compute(busyBlocks(2, 6000, marker), { scheduler: cluster, signal: ac.signal }),
        );
        expect(err).toBeInstanceOf(CancelledError);
        // the next compute does not wait 6 s behind the runaway kernel
        const started = performance.now();
        expect((await compute(x.sum(), { scheduler: cluster })).data[0]).toBe(2016);
        expect(performance.now() - started).toBeLessThan(5000);
        expect(worker.poolsReplaced).toBe(1);
        // and the runaway kernel was stopped: it never reached its end
        await new Promise((r) => setTimeout(r, 6500));
        expect(existsSync(marker)).toBe(false);
      } finally {
        await cluster.shutdown();
        await worker.close();
      }
    },
    T,
  );
});
