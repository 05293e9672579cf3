// In a real browser (headless chromium): the profile report loads with no console error and
// shows one lane per worker and one bar per task; the dashboard's count of finished tasks
// grows to the total while a compute runs. Screenshots go to a temporary folder.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  compute,
  mapBlocks,
  ones,
  type Profile,
  serveDashboard,
  shutdown,
} from '../../src/index.ts';
import { browserMissing, launchChromium, screenshotDir } from '../helpers/browser.ts';

const missing = browserMissing();
if (missing !== undefined) {
  if (process.env.CI === 'true') {
    test('a browser for the browser tests', () => {
      throw new Error(`CI=true: ${missing}`);
    });
  } else console.warn(`browser tests skipped: ${missing}`);
}

describe.skipIf(missing !== undefined)('in chromium', () => {
  let browser: Browser;
  const dir = mkdtempSync(join(tmpdir(), 'tessera-browser-'));
  const screens = screenshotDir();

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await shutdown();
    rmSync(dir, { recursive: true, force: true });
    console.log(`browser test screenshots: ${screens}`);
  });

  /** A page that collects console errors and uncaught exceptions. */
  async function watchedPage(): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    return { page, errors };
  }

  test('the profile report: no console error, a lane per worker, a bar per task', async () => {
    const y = ones([32, 32], { chunks: 4 }).mul(2).add(1).sum({ axis: 0 });
    const file = join(dir, 'profile.html');
    let profile: Profile | undefined;
    await compute(y, {
      scheduler: 'threads',
      workers: 2,
      profile: file,
      onProfile: (p) => (profile = p),
    });
    const { page, errors } = await watchedPage();
    await page.goto(pathToFileURL(file).href);
    await page.locator('rect.task').first().waitFor();
    expect(errors).toEqual([]);
    const lanes = await page
      .locator('g.lane')
      .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-lane')));
    expect(lanes).toEqual(profile!.lanes);
    expect(lanes.every((l) => l!.startsWith('thread '))).toBe(true);
    const keys = await page
      .locator('rect.task')
      .evaluateAll((rs) => rs.map((r) => r.getAttribute('data-key')));
    expect(keys.sort()).toEqual([...profile!.tasks.key].sort());
    expect(await page.locator('#kernels tbody tr').count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('#graph svg').count()).toBe(1);
    await page.screenshot({ path: join(screens, 'profile-report.png'), fullPage: true });
    await page.close();
  });

  test('the dashboard: finished tasks shown grow to the total while a compute runs', async () => {
    const dash = await serveDashboard({ port: 0, log: false });
    try {
      const { page, errors } = await watchedPage();
      await page.goto(dash.url);
      // page-side code as text: the tests are type-checked without the DOM's types
      await page.waitForFunction("document.getElementById('status').textContent === 'live'");
      // record every value the page shows, as it changes
      await page.evaluate(`{
        window.seen = [];
        const done = document.getElementById('done');
        new MutationObserver(() => window.seen.push(done.textContent)).observe(done, {
          childList: true, characterData: true, subtree: true,
        });
      }`);
      const slow = mapBlocks(
        (b) => {
          const t = Date.now();
          while (Date.now() - t < 25) {}
          return b;
        },
        ones([40, 4], { chunks: [1, 4] }),
        { dtype: 'float64' },
      );
      await compute(slow.sum(), { scheduler: 'threads', workers: 2 });
      const total = await page.locator('#total').textContent();
      await page.waitForFunction(
        "document.getElementById('done').textContent === document.getElementById('total').textContent",
      );
      const seen = ((await page.evaluate('window.seen')) as string[]).map(Number);
      expect(Number(total)).toBeGreaterThan(40);
      expect(seen[seen.length - 1]).toBe(Number(total));
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      // it grew while the compute ran: some count between none and all was shown
      expect(seen.some((n) => n > 0 && n < Number(total))).toBe(true);
      expect(await page.locator('li.worker').count()).toBeGreaterThanOrEqual(1);
      expect(await page.locator('rect.task').count()).toBe(Number(total));
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(screens, 'dashboard.png'), fullPage: true });
      await page.close();
    } finally {
      await dash.close();
    }
  });
});
