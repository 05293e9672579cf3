// The demo pipeline on a small recording: the same channel means on every scheduler it
// accepts, and the scheduler names the CLI checks.

import { afterAll, describe, expect, test, vi } from 'vitest';
import { isDemoScheduler, runDemo } from '../../src/cli/demo.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';

afterAll(() => shutdownDefaultPool());

describe('demo', () => {
  test('isDemoScheduler accepts the three local schedulers only', () => {
    expect(['threads', 'processes', 'sync'].every(isDemoScheduler)).toBe(true);
    expect(isDemoScheduler('distributed')).toBe(false);
    expect(isDemoScheduler('thread')).toBe(false);
  });

  test('every scheduler computes the same channel means', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const opts = { channels: 8, samples: 2 ** 19 };
      const sync = await runDemo({ ...opts, scheduler: 'sync' });
      for (const scheduler of ['threads', 'processes'] as const) {
        const got = await runDemo({ ...opts, scheduler });
        expect(Array.from(got), scheduler).toEqual(Array.from(sync));
      }
      expect(log.mock.calls.flat().join('\n')).toContain("on 'processes'");
    } finally {
      log.mockRestore();
    }
  }, 60_000);
});
