// GPU execution: device bytes in onStats, device memory bounded by memoryLimit over many
// blocks, and a crashed GPU worker (WorkerCrashedError) replaced by the next compute. Needs a
// WebGPU adapter.

import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { gpuClient } from '../../src/devices/gpu-clients.ts';
import {
  compute,
  isTesseraError,
  ones,
  random,
  shutdown,
  toDevice,
  WorkerCrashedError,
  withDevice,
} from '../../src/index.ts';
import type { RunStats } from '../../src/workers/scheduler.ts';
import { announceTier, expectClose, hasGpu } from './tier.ts';

announceTier('runtime-gpu');
afterAll(async () => {
  await shutdown();
}, 60_000);

const MiB = 2 ** 20;
const BLOCK = MiB / 4; // float32 elements in 1 MiB

/** 64 blocks of 1 MiB float32 on the GPU, a fused chain, then a sum. */
const pipeline = () =>
  withDevice('gpu', () =>
    random.uniform([64 * BLOCK], { chunks: BLOCK, dtype: 'float32', seed: 11 }),
  )
    .mul(2)
    .add(1)
    .sum();

async function statsOf(
  y: ReturnType<typeof pipeline>,
  opts: { memoryLimit?: number } = {},
): Promise<{ value: number; stats: RunStats }> {
  let stats: RunStats | undefined;
  const r = await compute(y, {
    allowTransfer: true,
    ...opts,
    onStats: (s) => {
      stats = s;
    },
  });
  expect(stats).toBeDefined();
  return { value: Number(r.data[0]), stats: stats! };
}

describe.runIf(hasGpu)('device memory', () => {
  test('onStats reports peakDeviceBytes for a GPU compute', async () => {
    const g = toDevice(ones([64, 64], { chunks: 32, dtype: 'float32' }), 'gpu').mul(3);
    let stats: RunStats | undefined;
    const r = await compute(g, { allowTransfer: true, onStats: (s) => (stats = s) });
    expect(Array.from(r.data as NumberArray).every((v) => v === 3)).toBe(true);
    expect(stats!.peakDeviceBytes).toBeGreaterThan(0);
    expect(stats!.peakDeviceBytes).toBeGreaterThanOrEqual(32 * 32 * 4);
    expect(stats!.tasksRun).toBeGreaterThan(0);
  });

  test('a CPU compute reports no device bytes', async () => {
    let stats: RunStats | undefined;
    await compute(ones([64, 64], { chunks: 32 }).mul(3), { onStats: (s) => (stats = s) });
    expect(stats!.peakDeviceBytes).toBe(0);
  });

  test('64 blocks of 1 MiB under memoryLimit 8 MiB: device memory stays well under the total', async () => {
    const total = 64 * MiB;
    const limited = await statsOf(pipeline(), { memoryLimit: 8 * MiB });
    // the sum of 2u + 1 over 2^24 uniforms: about 2 * 2^24
    expect(limited.value / (64 * BLOCK)).toBeGreaterThan(1.95);
    expect(limited.value / (64 * BLOCK)).toBeLessThan(2.05);
    expect(limited.stats.peakDeviceBytes).toBeGreaterThan(0);
    expect(limited.stats.peakDeviceBytes).toBeLessThanOrEqual(total / 4);
    expect(limited.stats.liveChunksAtEnd).toBe(1);
    // the same values as the CPU (float32 sums of a different order)
    const cpu = random
      .uniform([64 * BLOCK], { chunks: BLOCK, dtype: 'float32', seed: 11 })
      .mul(2)
      .add(1)
      .sum();
    const want = Number((await compute(cpu)).data[0]);
    expectClose([limited.value], [want], 1e-4, 0, 'sum');
  }, 120_000);
});

/** The error a promise rejects with. */
async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => expect.unreachable('expected a rejection'),
    (e: unknown) => e,
  );
}

const small = () => toDevice(ones([8], { chunks: 2, dtype: 'float32' }), 'gpu').add(1);

describe.runIf(hasGpu)('a crashed GPU worker', () => {
  test('crashing during a compute gives WorkerCrashedError; the next compute works', async () => {
    // open the worker first, so that the crash lands while tasks are in flight
    expect(
      Array.from((await compute(small(), { allowTransfer: true })).data as NumberArray),
    ).toEqual(new Array(8).fill(2));
    const client = await gpuClient('gpu');
    const y = withDevice('gpu', () =>
      random.uniform([64 * 65536], { chunks: 65536, dtype: 'float32', seed: 2 }),
    )
      .mul(2)
      .sqrt()
      .sum();
    const running = compute(y, { allowTransfer: true });
    setTimeout(() => void client.simulateCrash().catch(() => undefined), 5);
    const e = await rejectionOf(running);
    expect(e, String(e)).toBeInstanceOf(WorkerCrashedError);
    expect(isTesseraError(e, 'WorkerCrashedError')).toBe(true);
    expect(client.crashed).toBe(true);
    const again = await compute(small(), { allowTransfer: true });
    expect(Array.from(again.data as NumberArray)).toEqual(new Array(8).fill(2));
    const fresh = await gpuClient('gpu');
    expect(fresh).not.toBe(client);
    expect(fresh.crashed).toBe(false);
  }, 120_000);

  test('a worker crashed before a compute is replaced', async () => {
    const client = await gpuClient('gpu');
    const e = await rejectionOf(client.simulateCrash());
    expect(e).toBeInstanceOf(WorkerCrashedError);
    expect(client.crashed).toBe(true);
    const r = await compute(small().mul(3), { allowTransfer: true });
    expect(Array.from(r.data as NumberArray)).toEqual(new Array(8).fill(6));
    expect(await gpuClient('gpu')).not.toBe(client);
  }, 60_000);

  test("'gpu:0' is the same worker as 'gpu'", async () => {
    expect(await gpuClient('gpu:0')).toBe(await gpuClient('gpu'));
  });
});
