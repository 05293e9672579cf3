// How a Redis URL becomes a connection of the distributed scheduler: redis:// and rediss://
// (TLS), ACL user and password, a fail-fast probe that tells a wrong password apart, and
// URLs redacted wherever they are shown.

import type { ConnectionOptions as TlsOptions } from 'node:tls';
import { ValueError } from '../errors.ts';
import { importIoredis } from './optional-packages.ts';

/** TLS settings for rediss:// URLs (PEM strings or buffers). */
export interface RedisTlsOptions {
  /** Certificate authorities to trust instead of the system's. */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  /** A client certificate and its key, for servers that ask for one. */
  readonly cert?: string | Buffer;
  readonly key?: string | Buffer;
  /** The name the server certificate must carry (default: the URL's host). */
  readonly servername?: string;
  /** Check the server certificate (default true). */
  readonly rejectUnauthorized?: boolean;
}

/** ioredis connection options from a `redis[s]://[user[:password]@]host[:port][/db]` URL. */
export interface RedisConnection {
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
  readonly db?: number;
  readonly tls?: TlsOptions;
  /** BullMQ's blocking commands need this off. */
  readonly maxRetriesPerRequest: null;
}

/**
 * `url` with its password replaced by `***`: safe for messages and logs.
 * @example
 * redactRedisUrl('redis://app:hunter2@db:6379'); // 'redis://app:***@db:6379'
 */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.href.replace(/\/$/, '');
  } catch {
    // unparsable: keep only what cannot hold a password
    return url.includes('@')
      ? `${url.slice(0, url.indexOf('//') + 2)}***@${url.slice(url.lastIndexOf('@') + 1)}`
      : url;
  }
}

/**
 * Connection options for a Redis URL; `rediss://` connects over TLS with `tls` settings.
 * @example
 * redisConnection('rediss://app:pw@db:6380/0', { ca: readFileSync('ca.pem') });
 */
export function redisConnection(
  url: string,
  tls?: RedisTlsOptions,
  caller = 'redisConnection',
): RedisConnection {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ValueError(
      `${caller}: Redis URL ${JSON.stringify(redactRedisUrl(url))} is not a URL (redis://host:port or rediss://host:port)`,
    );
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new ValueError(
      `${caller}: Redis URL ${JSON.stringify(redactRedisUrl(url))} is not redis:// or rediss://`,
    );
  }
  if (tls !== undefined && u.protocol !== 'rediss:') {
    throw new ValueError(
      `${caller}: TLS options given for ${JSON.stringify(redactRedisUrl(url))}, which is not a rediss:// URL`,
    );
  }
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  return {
    host,
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db !== undefined && Number.isInteger(db) ? { db } : {}),
    ...(u.protocol === 'rediss:' ? { tls: tlsOptions(tls) } : {}),
    maxRetriesPerRequest: null,
  };
}

function tlsOptions(t: RedisTlsOptions | undefined): TlsOptions {
  if (t === undefined) return {};
  return {
    ...(t.ca !== undefined
      ? { ca: Array.isArray(t.ca) ? [...t.ca] : (t.ca as string | Buffer) }
      : {}),
    ...(t.cert !== undefined ? { cert: t.cert } : {}),
    ...(t.key !== undefined ? { key: t.key } : {}),
    ...(t.servername !== undefined ? { servername: t.servername } : {}),
    ...(t.rejectUnauthorized !== undefined ? { rejectUnauthorized: t.rejectUnauthorized } : {}),
  };
}

const AUTH_FAILED = /WRONGPASS|NOAUTH|invalid password|invalid username-password/i;

/** Whether a Redis error (or reason text) says the credentials were refused. */
export function isAuthFailure(e: unknown): boolean {
  return AUTH_FAILED.test(e instanceof Error ? e.message : String(e));
}

/**
 * Fail fast, with the (redacted) URL and what to do, when Redis does not answer or refuses
 * the credentials (a client left to itself retries forever and a compute would wait for good).
 * Redis's own errors are not kept as causes: ioredis attaches the AUTH command, password included.
 * @example
 * await checkRedis('DistributedExecutor', 'redis://127.0.0.1:6379');
 */
export async function checkRedis(
  caller: string,
  url: string,
  tls?: RedisTlsOptions,
): Promise<void> {
  const connection = redisConnection(url, tls, caller);
  const { Redis } = await importIoredis(caller);
  const probe = new Redis({
    ...connection,
    lazyConnect: true,
    connectTimeout: 5000,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  let first: Error | undefined;
  probe.on('error', (e: Error) => {
    first ??= e;
  });
  const shown = redactRedisUrl(url);
  try {
    await probe.connect();
    await probe.ping();
  } catch (e) {
    const why = first ?? (e as Error);
    if (isAuthFailure(why)) {
      const who =
        connection.username === undefined ? 'the default user' : `user '${connection.username}'`;
      throw new ValueError(
        `${caller}: Redis at ${shown} refused the credentials: authentication failed for ${who} ` +
          `(${connection.password === undefined ? 'no password given' : 'wrong password, or the user is disabled'})`,
      );
    }
    throw new ValueError(
      `${caller}: no Redis answers at ${shown} (${why.message}); start redis-server there, or set config.redis or TESSERA_REDIS_URL`,
    );
  } finally {
    probe.disconnect();
  }
}
