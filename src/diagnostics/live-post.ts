// Computes of a process started with TESSERA_DASHBOARD=<url> report to that dashboard (one
// served by another process, such as `tessera dashboard`): live events posted in batches.

import { request } from 'node:http';
import { type LiveEvent, subscribeLive } from './live-bus.ts';

/** The environment variable naming the dashboard to report to. */
export const DASHBOARD_ENV = 'TESSERA_DASHBOARD';
const POST_MS = 100;

let connected: string | undefined;

function post(base: string, events: LiveEvent[]): void {
  const body = JSON.stringify(events);
  const req = request(new URL('publish', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  // a dashboard that is gone or slow must not fail or hold up the computes it would show
  req.on('error', () => {});
  req.setTimeout(2000, () => req.destroy());
  req.end(body);
}

/**
 * Start posting this process's live events to the dashboard TESSERA_DASHBOARD names (once;
 * nothing when it is unset). Returns whether events are posted.
 * @example
 * postToEnvDashboard(); // TESSERA_DASHBOARD=http://127.0.0.1:8787/
 */
export function postToEnvDashboard(): boolean {
  const url = process.env[DASHBOARD_ENV];
  if (url === undefined || url === '') return false;
  if (connected === url) return true;
  connected = url;
  const base = url.endsWith('/') ? url : `${url}/`;
  let queue: LiveEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (queue.length === 0) return;
    post(base, queue);
    queue = [];
  };
  subscribeLive((e) => {
    queue.push(e);
    if (e.type === 'compute-end' || e.type === 'compute-error') flush();
    else if (timer === undefined) {
      timer = setTimeout(flush, POST_MS);
      timer.unref();
    }
  });
  return true;
}
