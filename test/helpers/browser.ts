// The real browser of the browser tests: Debian's chromium fetched by .ci/chromium.sh (its path
// in TESSERA_CHROMIUM), driven headless by playwright-core; no browser is ever downloaded.

import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

const FETCHED = join(import.meta.dirname, '../../.tmp/chromium/chromium');

/** The chromium to drive: TESSERA_CHROMIUM, else the one .ci/chromium.sh fetched, else none. */
export function chromiumPath(): string | undefined {
  const given = process.env.TESSERA_CHROMIUM;
  if (given) return given;
  return existsSync(FETCHED) ? FETCHED : undefined;
}

/**
 * Why the browser tests cannot run here, or undefined when they can. With CI=true a missing
 * browser is a failure (the caller fails instead of skipping).
 */
export function browserMissing(): string | undefined {
  if (chromiumPath() !== undefined) return undefined;
  return 'no chromium: run `eval "$(bash .ci/chromium.sh)"` (sets TESSERA_CHROMIUM) for the browser tests';
}

/** Launch chromium headless. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: chromiumPath()!,
    headless: true,
    // CI runs as root, where chromium's sandbox cannot start
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/** A fresh folder under the system's temporary folder for screenshots. */
export function screenshotDir(): string {
  return mkdtempSync(join(tmpdir(), 'tessera-screens-'));
}
