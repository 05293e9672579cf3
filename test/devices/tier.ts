// The devices tier's gate: asks the probe (synchronously, once per process) whether there is
// a WebGPU adapter. Suites run only with one; with CI=true a missing adapter fails the run.

import { expect, it } from 'vitest';
import { probeGpu } from '../../src/devices/probe.ts';

export const probe = probeGpu();
export const hasGpu = probe.ok;

/** Log the tier's verdict for a suite file (and, under CI=true, fail when skipped). */
export function announceTier(file: string): void {
  if (probe.ok) {
    const a = probe.adapters[0]!;
    console.log(`[devices tier] RAN on ${a.description} (${file})`);
    return;
  }
  console.log(`[devices tier] SKIPPED: ${probe.reason} (${file})`);
  if (process.env.CI === 'true') {
    it('finds a WebGPU adapter (required when CI=true)', () => {
      expect.fail(`CI=true but ${probe.reason}`);
    });
  }
}

/** Values agree within float32 tolerance (NaN equals NaN; infinities exactly). */
export function expectClose(
  got: ArrayLike<number | bigint>,
  want: ArrayLike<number | bigint>,
  rtol = 1e-5,
  atol = 1e-5,
  what = '',
): void {
  expect(got.length, `${what} length`).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    const g = Number(got[i]!);
    const w = Number(want[i]!);
    if (Number.isNaN(w) && Number.isNaN(g)) continue;
    if (g === w) continue;
    if (Math.abs(g - w) <= atol + rtol * Math.abs(w)) continue;
    expect.fail(`${what} element ${i}: got ${g}, want ${w}`);
  }
}
