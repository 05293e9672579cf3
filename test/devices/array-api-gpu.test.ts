// The Array API elementwise ops on GPU data: those WGSL translates run on webgpu; those it
// declines (no accurate WGSL form) fall to the CPU, which is a guarded transfer raised when
// the expression is built, and computes the right values once allowed. Needs an adapter.

import { afterAll, describe, expect, test } from 'vitest';
import {
  acos,
  compute,
  disableGuards,
  fromArray,
  log2,
  ndarray,
  shutdown,
  TransferGuardError,
  toDevice,
  trunc,
} from '../../src/index.ts';
import { announceTier, expectClose, hasGpu } from './tier.ts';

announceTier('array-api-gpu');
afterAll(async () => {
  await shutdown();
}, 60_000);

const data = Float32Array.from({ length: 48 }, (_, i) => Math.sin(i) * 0.9);
const host = () => fromArray(ndarray(data, [6, 8], 'float32'), { chunks: [3, 4] });

describe.runIf(hasGpu)('new elementwise ops on GPU arrays', () => {
  test('log2 and trunc run on webgpu', async () => {
    const g = toDevice(host(), 'gpu');
    const y = trunc(log2(g));
    expect(y.layer.backend?.name).toBe('webgpu');
    const got = await disableGuards(async () => compute(y, { scheduler: 'sync' }));
    expectClose(
      got.data,
      Array.from(data, (v) => Math.trunc(Math.fround(Math.log2(v)))),
    );
  });

  test('acos is declined by webgpu: a transfer guard at build time, right values when allowed', async () => {
    const g = toDevice(host(), 'gpu');
    expect(() => acos(g)).toThrow(TransferGuardError);
    const got = await disableGuards(async () => compute(acos(g), { scheduler: 'sync' }));
    expectClose(
      got.data,
      Array.from(data, (v) => Math.fround(Math.acos(v))),
      1e-6,
      0,
    );
  });
});
