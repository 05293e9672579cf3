// The live dashboard: a local HTTP server (node:http) whose page follows the computes of this
// process — and of processes that post to it (TESSERA_DASHBOARD) — through server-sent events.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';
import { dashboardHtml } from './dashboard-html.ts';
import { DashboardState } from './dashboard-state.ts';
import { type LiveEvent, subscribeLive } from './live-bus.ts';

/** Options of `serveDashboard`: the port and the address to bind (127.0.0.1 by default), and where its URL is printed. */
export interface DashboardOptions {
  /** TCP port (default 8787, as Dask's); 0 picks a free one. */
  port?: number;
  /** Interface to bind (default '127.0.0.1': this machine only). */
  host?: string;
  /**
   * Where the dashboard's URL is printed, once, when the first compute starts while it is
   * open (default: a line on stderr); false prints nothing.
   */
  log?: ((line: string) => void) | false;
}

/** A running dashboard. */
export interface Dashboard {
  /** The page's address, such as 'http://127.0.0.1:8787/'. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Stop serving: pages are disconnected, the port is freed, no handle stays open. */
  close(): Promise<void>;
}

/** The largest event batch another process may post (bytes). */
const MAX_POST = 16 * 2 ** 20;
/** A comment line this often (ms) keeps idle event streams open through proxies. */
const KEEPALIVE_MS = 15_000;

function checkDashboardOptions(opts: DashboardOptions | undefined): Required<DashboardOptions> {
  if (opts !== undefined && (opts === null || typeof opts !== 'object')) {
    throw new ValueError(`serveDashboard: options ${formatValue(opts)} is not an options object`);
  }
  const { port = 8787, host = '127.0.0.1', log } = opts ?? {};
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ValueError(
      `serveDashboard: port ${formatValue(port)} is not an integer in [0, 65535]`,
    );
  }
  if (typeof host !== 'string' || host === '') {
    throw new ValueError(`serveDashboard: host ${formatValue(host)} is not a host name or address`);
  }
  if (log !== undefined && log !== false && typeof log !== 'function') {
    throw new ValueError(`serveDashboard: log ${formatValue(log)} is not a function or false`);
  }
  const line = (s: string): void => {
    process.stderr.write(`${s}\n`);
  };
  return { port, host, log: log ?? line };
}

const sse = (res: ServerResponse, event: string | undefined, data: unknown): void => {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => {
      size += b.length;
      if (size > MAX_POST) {
        reject(new Error(`more than ${MAX_POST} bytes`));
        req.destroy();
      } else parts.push(b);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Events posted by another process: a JSON array of objects with a known `type`. */
function parseEvents(body: string): LiveEvent[] {
  const list: unknown = JSON.parse(body);
  const types = ['compute-start', 'tasks', 'compute-end', 'compute-error'];
  if (!Array.isArray(list)) throw new Error('not a JSON array');
  return list.filter(
    (e): e is LiveEvent =>
      e !== null && typeof e === 'object' && types.includes((e as { type?: string }).type ?? ''),
  );
}

/**
 * Serve the live dashboard: progress per compute, the task stream, workers busy or idle,
 * memory and live chunk bytes, and errors with their task keys, updated while computes run
 * (any scheduler: 'sync', 'threads', 'processes', 'distributed'). Binds only `host`
 * (127.0.0.1 by default). Processes started with TESSERA_DASHBOARD set to its URL report here too.
 * @example
 * const dash = await serveDashboard({ port: 0 });
 * console.log(dash.url); // open it in a browser, then compute
 * await compute(x.sum(), { scheduler: 'threads' });
 * await dash.close();
 */
export async function serveDashboard(opts?: DashboardOptions): Promise<Dashboard> {
  const { port, host, log } = checkDashboardOptions(opts);
  const state = new DashboardState();
  const streams = new Set<ServerResponse>();
  let url = '';
  let printed = false;
  const onEvent = (e: LiveEvent): void => {
    state.apply(e);
    if (e.type === 'compute-start' && !printed && log !== false) {
      printed = true;
      log(`tessera dashboard: ${url}`);
    }
    for (const res of streams) sse(res, undefined, e);
  };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(dashboardHtml());
    } else if (req.method === 'GET' && path === '/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      sse(res, 'snapshot', state.snapshot());
      streams.add(res);
      req.on('close', () => streams.delete(res));
    } else if (req.method === 'GET' && path === '/state') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(state.snapshot()));
    } else if (req.method === 'POST' && path === '/publish') {
      readBody(req)
        .then(parseEvents)
        .then(
          (events) => {
            for (const e of events) onEvent(e);
            res.writeHead(204).end();
          },
          (e: unknown) => {
            res.writeHead(400, { 'content-type': 'text/plain' });
            res.end(`serveDashboard: bad events: ${e instanceof Error ? e.message : String(e)}`);
          },
        );
    } else if (path === '/favicon.ico') {
      res.writeHead(204).end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${shown}:${address.port}/`;
  const unsubscribe = subscribeLive(onEvent);
  const keepalive = setInterval(() => {
    for (const res of streams) res.write(': keepalive\n\n');
  }, KEEPALIVE_MS);
  keepalive.unref();
  let closing: Promise<void> | undefined;
  return {
    url,
    host: address.address,
    port: address.port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        unsubscribe();
        clearInterval(keepalive);
        for (const res of streams) res.end();
        streams.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
