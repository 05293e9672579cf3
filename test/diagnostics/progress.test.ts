import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createProgress, formatBytes, type ProgressEvent } from '../../src/diagnostics/progress.ts';

afterEach(() => {
  vi.useRealTimers();
});

function fakeStream(isTTY: boolean): {
  stream: PassThrough & { isTTY: boolean };
  text: () => string;
} {
  const stream = Object.assign(new PassThrough(), { isTTY, columns: 120 });
  let text = '';
  stream.on('data', (d: Buffer) => {
    text += d.toString();
  });
  return { stream, text: () => text };
}

describe('createProgress with a callback', () => {
  test('events are throttled to 10 a second, and the final one always comes', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const events: ProgressEvent[] = [];
    const p = createProgress((e) => events.push(e), 1000);
    for (let done = 1; done <= 1000; done++) {
      p.update(done, done * 8);
      vi.advanceTimersByTime(1); // 1 ms per task: 1 s in all
    }
    p.finish();
    expect(events.length).toBeGreaterThanOrEqual(10);
    expect(events.length).toBeLessThanOrEqual(12);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ done: 1000, total: 1000, bytes: 8000, etaMs: 0 });
    for (let i = 1; i < events.length; i++) {
      expect(events[i]!.done).toBeGreaterThan(events[i - 1]!.done);
      if (i < events.length - 1) {
        expect(events[i]!.elapsedMs - events[i - 1]!.elapsedMs).toBeGreaterThanOrEqual(100);
      }
    }
  });

  test('the ETA follows the mean rate so far', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const events: ProgressEvent[] = [];
    const p = createProgress((e) => events.push(e), 100);
    vi.advanceTimersByTime(500);
    p.update(25, 0);
    expect(events[0]).toMatchObject({ done: 25, elapsedMs: 500, etaMs: 1500 });
  });

  test('finish sends nothing new when the last update was already sent, and only once', () => {
    const events: ProgressEvent[] = [];
    const p = createProgress((e) => events.push(e), 3);
    p.update(3, 10);
    p.finish();
    p.finish();
    p.update(4, 10);
    expect(events.map((e) => e.done)).toEqual([3]);
  });
});

describe('createProgress with true', () => {
  test('draws a bar with tasks, bytes and ETA on a TTY', () => {
    const { stream, text } = fakeStream(true);
    const p = createProgress(true, 10, stream);
    p.update(4, 3 * 2 ** 20);
    p.finish();
    expect(text()).toContain('4/10 tasks');
    expect(text()).toContain('3.00 MiB');
    expect(text()).toContain('ETA');
  });

  test.each([
    ['true, not a TTY', true, false],
    ['false on a TTY', false, true],
    ['undefined on a TTY', undefined, true],
  ])('prints nothing for %s', (_, opt, isTTY) => {
    const { stream, text } = fakeStream(isTTY);
    const p = createProgress(opt, 10, stream);
    p.update(5, 100);
    p.finish();
    expect(text()).toBe('');
  });

  test('defaults to stderr, and prints nothing there when it is not a TTY', () => {
    const write = vi.spyOn(process.stderr, 'write');
    const wasTTY = process.stderr.isTTY;
    Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true });
    try {
      const p = createProgress(true, 10);
      p.update(5, 100);
      p.finish();
      expect(write).not.toHaveBeenCalled();
    } finally {
      Object.defineProperty(process.stderr, 'isTTY', { value: wasTTY, configurable: true });
      write.mockRestore();
    }
  });
});

test.each([
  [0, '0 B'],
  [1023, '1023 B'],
  [1536, '1.50 KiB'],
  [3 * 2 ** 30, '3.00 GiB'],
])('formatBytes(%d) = %s', (n, want) => {
  expect(formatBytes(n)).toBe(want);
});
