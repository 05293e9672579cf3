// The demo pipeline on a small recording: the same channel means on every scheduler it
// accepts, and the scheduler names the CLI checks.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { isDemoScheduler, runDemo } from '../../src/cli/demo.ts';
import { readProfileHtml } from '../../src/index.ts';
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
      // 4 blocks of 8 × 2¹⁴, 16 after the time-major rechunk: small, and spread over the members
      const opts = { channels: 8, samples: 2 ** 16, blockSamples: 2 ** 14 };
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

  test('with outDir: writes the graph picture and the profile report, prints their paths', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-demo-test-'));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await runDemo({
        channels: 8,
        samples: 2 ** 14,
        blockSamples: 2 ** 12,
        scheduler: 'sync',
        outDir: dir,
      });
      const printed = log.mock.calls.flat().join('\n');
      expect(printed).toContain(`graph picture: ${join(dir, 'graph.svg')}`);
      expect(printed).toContain(`profile report: ${join(dir, 'profile.html')}`);
      expect(readFileSync(join(dir, 'graph.svg'), 'utf8')).toContain('<svg');
      const profile = readProfileHtml(readFileSync(join(dir, 'profile.html'), 'utf8'));
      expect(profile.tasks.key.length).toBeGreaterThan(0);
      expect(profile.lanes).toEqual(['main']);
    } finally {
      log.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
