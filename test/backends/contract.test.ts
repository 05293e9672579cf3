// The backend contract suite: every built-in operation each available backend implements,
// run on it and on cpu-js over random shapes, chunkings and dtypes (src/dispatch/contract.ts).
// cpu-wasm must agree bit for bit on elementwise chains; GPU backends within float32
// tolerance, on arrays moved to the GPU (skipped, saying why, without an adapter).

import { afterAll, describe, expect, test } from 'vitest';
import { probeGpu } from '../../src/devices/probe.ts';
import { CONTRACT, runContract, seededDraw } from '../../src/dispatch/contract.ts';
import { listBackends, shutdown } from '../../src/index.ts';

afterAll(() => shutdown());

const gpu = probeGpu();
const backends = listBackends().filter((b) => b.name !== 'cpu-js');

describe.each(backends.map((b) => [b.name, b] as const))('%s', (name, b) => {
  const onGpu = b.device === 'gpu';
  const avail = b.available?.() ?? true;
  const why = onGpu ? (gpu.ok ? undefined : gpu.reason) : avail === true ? undefined : avail;
  const skip = why !== undefined;
  if (skip) console.log(`[contract] ${name} SKIPPED: ${why}`);
  // CI installs what the GPU tier (lavapipe) and cpu-blas (OpenBLAS) need, so there a skip
  // is a failure; TESSERA_REQUIRE_BLAS is set by .ci/run when OpenBLAS installed
  const required = onGpu ? process.env.CI === 'true' : process.env.TESSERA_REQUIRE_BLAS === '1';
  if (skip && required) {
    test('is available (required here)', () => expect.fail(`${name} is required but ${why}`));
  }
  test.skipIf(skip).each([1, 2, 3, 4])(
    'seed %i: every case matches cpu-js',
    async (seed) => {
      const results = await runContract(name, seededDraw(seed * 7919), 1);
      const failed = results.filter((r) => !r.passed);
      expect(failed.map((r) => `${r.kernel} ${r.label}: ${r.detail}`)).toEqual([]);
      expect(results.length).toBeGreaterThan(0);
    },
    120_000,
  );

  test.skipIf(skip)(
    'its kernels with contract cases are exercised on it',
    async () => {
      const results = await runContract(name, seededDraw(99), 3);
      const withCases = b.kernels.filter((k) => CONTRACT[k] !== undefined);
      for (const k of withCases) {
        expect(
          results.some((r) => r.kernel === k && r.exercised),
          `${name} never ran ${k}`,
        ).toBe(true);
      }
    },
    120_000,
  );
});
