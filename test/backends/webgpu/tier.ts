// The GPU tier's gate: opens one GPU worker for a suite, or says why the suite is skipped.
// With CI=true a missing adapter fails the run instead of skipping it.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { type GpuClient, gpuStatus, openGpu } from '../../../src/backends/webgpu/index.ts';

export const status = await gpuStatus();
export const hasGpu = status === true;

if (!hasGpu) {
  console.log(`[webgpu tier] SKIPPED: ${status}`);
  if (process.env.CI === 'true') {
    it('finds a WebGPU adapter (required when CI=true)', () => {
      expect.fail(`CI=true but ${status}`);
    });
  }
}

/** A GPU client opened before the suite and closed after it (undefined when skipped). */
export function useGpu(): { readonly gpu: GpuClient } {
  const box = {} as { gpu: GpuClient };
  beforeAll(async () => {
    if (!hasGpu) return;
    box.gpu = await openGpu('gpu');
    const a = box.gpu.adapter;
    console.log(
      `[webgpu tier] RAN on adapter '${a.description}' (vendor ${a.vendor || '?'}, ` +
        `architecture ${a.architecture || '?'}, backend ${a.backend}, f16 ${box.gpu.hasF16})`,
    );
  }, 60_000);
  afterAll(async () => {
    if (box.gpu) await box.gpu.close();
  });
  return box;
}

/** A deterministic PRNG (mulberry32) for random shapes and values. */
export { rng } from '../../helpers/reference.ts';

/** Values agree within float32 tolerance (NaN equals NaN; infinities exactly). */
export function expectClose(
  got: ArrayLike<number>,
  want: ArrayLike<number>,
  rtol = 1e-5,
  atol = 1e-6,
  what = '',
): void {
  expect(got.length, `${what} length`).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    const g = got[i]!;
    const w = want[i]!;
    if (Number.isNaN(w) && Number.isNaN(g)) continue;
    if (g === w) continue;
    if (Math.abs(g - w) <= atol + rtol * Math.abs(w)) continue;
    expect.fail(`${what} element ${i}: got ${g}, want ${w}`);
  }
}
