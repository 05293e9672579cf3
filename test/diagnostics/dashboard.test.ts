// serveDashboard: binds where told, serves its page, streams live events (server-sent events)
// of computes here and posted from elsewhere, shows errors with task keys, prints its URL
// once, and close() leaves no open handle.

import { get, type IncomingMessage, request } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import type { ComputeView } from '../../src/diagnostics/dashboard-state.ts';
import type { LiveEvent } from '../../src/diagnostics/live-bus.ts';
import { liveListening } from '../../src/diagnostics/live-bus.ts';
import {
  compute,
  type Dashboard,
  mapBlocks,
  ones,
  serveDashboard,
  ValueError,
} from '../../src/index.ts';

const open: Dashboard[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((d) => d.close()));
});

async function serve(opts: Parameters<typeof serveDashboard>[0] = {}): Promise<Dashboard> {
  const d = await serveDashboard({ port: 0, log: false, ...opts });
  open.push(d);
  return d;
}

function fetchText(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let body = '';
      res.on('data', (b: Buffer) => (body += b.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }),
      );
    }).on('error', reject);
  });
}

const state = async (d: Dashboard): Promise<ComputeView[]> =>
  JSON.parse((await fetchText(`${d.url}state`)).body) as ComputeView[];

/** Follow /events until `until` holds for the events seen; resolves with them. */
function follow(url: string, until: (seen: LiveEvent[]) => boolean): Promise<LiveEvent[]> {
  return new Promise((resolve, reject) => {
    const seen: LiveEvent[] = [];
    let buffer = '';
    const req = get(`${url}events`, (res: IncomingMessage) => {
      res.on('data', (b: Buffer) => {
        buffer += b.toString();
        for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          if (block.startsWith('data: ')) seen.push(JSON.parse(block.slice(6)) as LiveEvent);
        }
        if (until(seen)) {
          req.destroy();
          resolve(seen);
        }
      });
      // the server ended the stream (close())
      res.on('end', () => resolve(seen));
    });
    req.on('error', reject);
  });
}

const y = ones([8, 8], { chunks: 2 }).mul(2).sum();

test('binds 127.0.0.1 by default, and serves its self-contained page', async () => {
  const d = await serve();
  expect(d.host).toBe('127.0.0.1');
  expect(d.url).toBe(`http://127.0.0.1:${d.port}/`);
  const page = await fetchText(d.url);
  expect(page.status).toBe(200);
  expect(page.type).toContain('text/html');
  expect(page.body).toContain('new EventSource');
  expect(page.body).not.toMatch(/<script[^>]+src=|<link|https?:\/\/(?!www\.w3\.org)/);
  expect((await fetchText(`${d.url}nothing`)).status).toBe(404);
});

test('a compute while it is open: its progress, task stream and end, live and in /state', async () => {
  const d = await serve();
  const events = follow(d.url, (seen) => seen.some((e) => e.type === 'compute-end'));
  // the stream's first message (the snapshot) arrives before the compute starts
  await new Promise((r) => setTimeout(r, 50));
  await compute(y, { scheduler: 'sync' });
  const seen = await events;
  const start = seen.find((e) => e.type === 'compute-start')!;
  expect(start).toMatchObject({ scheduler: 'sync', workers: 1, pid: process.pid });
  const tasks = seen.flatMap((e) => (e.type === 'tasks' ? e.tasks : []));
  expect(tasks.length).toBe(start.type === 'compute-start' ? start.total : -1);
  const [view] = await state(d);
  expect(view).toMatchObject({ status: 'done', done: tasks.length, total: tasks.length });
  expect(view!.lanes).toEqual(['main']);
  expect(view!.memory.length).toBeGreaterThan(0);
});

test('a failing compute: the error with the task key', async () => {
  const d = await serve();
  const bad = mapBlocks(
    () => {
      throw new Error('bad block');
    },
    ones([4], { chunks: 2 }),
    { dtype: 'float64' },
  );
  await expect(compute(bad, { scheduler: 'sync' })).rejects.toThrow();
  const [view] = await state(d);
  expect(view!.status).toBe('failed');
  expect(view!.error!.key).toMatch(/:\(\d\)$/);
  expect(view!.error!.message).toContain('bad block');
});

test('events posted by another process (TESSERA_DASHBOARD) show as its computes', async () => {
  const d = await serve();
  const events: LiveEvent[] = [
    {
      type: 'compute-start',
      pid: 1,
      id: 7,
      scheduler: 'processes',
      workers: 3,
      total: 2,
      startedAt: 0,
    },
    { type: 'compute-end', pid: 1, id: 7, durationMs: 5 },
  ];
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(`${d.url}publish`, { method: 'POST' }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end(JSON.stringify(events));
  });
  expect(status).toBe(204);
  expect(await state(d)).toMatchObject([{ key: '1:7', scheduler: 'processes', status: 'done' }]);
});

test('prints its URL once, at the first compute while it is open', async () => {
  const lines: string[] = [];
  const d = await serve({ log: (l) => lines.push(l) });
  expect(lines).toEqual([]);
  await compute(y, { scheduler: 'sync' });
  await compute(y, { scheduler: 'sync' });
  expect(lines).toEqual([`tessera dashboard: ${d.url}`]);
});

describe('close()', () => {
  const handles = (): string[] =>
    process.getActiveResourcesInfo().filter((r) => r.startsWith('TCP') || r === 'Timeout');

  test('frees the port and leaves no open handle, even with a page connected', async () => {
    const before = handles().length;
    const d = await serveDashboard({ port: 0, log: false });
    const stream = follow(d.url, () => false);
    await new Promise((r) => setTimeout(r, 50));
    expect(liveListening()).toBe(true);
    await d.close();
    await stream;
    await new Promise((r) => setTimeout(r, 20));
    expect(handles().length).toBeLessThanOrEqual(before);
    expect(liveListening()).toBe(false);
    await expect(fetchText(d.url)).rejects.toThrow();
    // the same port can be bound again at once
    const again = await serve({ port: d.port });
    expect(again.port).toBe(d.port);
  });
});

test.each([
  [{ port: -1 }, 'serveDashboard: port -1 is not an integer in [0, 65535]'],
  [{ port: 1.5 }, 'serveDashboard: port 1.5 is not an integer in [0, 65535]'],
  [{ host: '' }, "serveDashboard: host '' is not a host name or address"],
  [{ log: 'yes' }, "serveDashboard: log 'yes' is not a function or false"],
])('bad options %j: ValueError', async (opts, message) => {
  await expect(serveDashboard(opts as never)).rejects.toThrow(ValueError);
  await expect(serveDashboard(opts as never)).rejects.toThrow(message);
});
