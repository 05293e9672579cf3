// TESSERA_GPU=0 turns GPUs off whatever is installed: toDevice and withDevice say so. Always run
// (the probe is lazy and per process; vitest runs each file in its own process).

import { afterAll, describe, expect, test } from 'vitest';

const before = process.env.TESSERA_GPU;
process.env.TESSERA_GPU = '0';

const { probeGpu, gpuDevices } = await import('../../src/devices/probe.ts');
const { compute, ones, shutdown, toDevice, withDevice } = await import('../../src/index.ts');
const { expectThrow } = await import('../helpers/expect-throw.ts');

afterAll(async () => {
  if (before === undefined) delete process.env.TESSERA_GPU;
  else process.env.TESSERA_GPU = before;
  await shutdown();
});

describe('TESSERA_GPU=0', () => {
  test('the probe reports GPUs disabled and lists no devices', () => {
    const p = probeGpu();
    expect(p.ok).toBe(false);
    expect(p.ok ? '' : p.reason).toContain('TESSERA_GPU=0');
    expect(gpuDevices()).toEqual([]);
  });

  test('toDevice and withDevice refuse GPUs with the reason and install advice', () => {
    const x = ones([4], { chunks: 2, dtype: 'float32' });
    expectThrow(() => toDevice(x, 'gpu'), 'ValueError', [
      "toDevice: no GPU for 'gpu'",
      'TESSERA_GPU=0',
      'Vulkan',
    ]);
    expectThrow(() => withDevice('gpu:0', () => 1), 'ValueError', [
      "withDevice: no GPU for 'gpu:0'",
      'TESSERA_GPU=0',
    ]);
    expect(toDevice(x, 'cpu')).toBe(x);
  });

  test('CPU work still computes', async () => {
    expect((await compute(ones([4], { chunks: 2 }).sum())).data[0]).toBe(4);
  });
});
