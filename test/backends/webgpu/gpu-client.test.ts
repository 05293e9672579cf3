// The GPU worker's handle API: buffers stay on the device and are reused from the pool, a
// crashed worker rejects pending calls with WorkerCrashedError, and a later open reopens.

import { describe, expect, it } from 'vitest';
import type { NumberArray } from '../../../src/array/dtype.ts';
import { NDArray } from '../../../src/array/ndarray.ts';
import { listAdapters, openGpu } from '../../../src/backends/webgpu/index.ts';
import { WorkerCrashedError } from '../../../src/errors.ts';
import { hasGpu, useGpu } from './tier.ts';

const f32 = (n: number): NDArray =>
  new NDArray(
    Float32Array.from({ length: n }, (_, i) => i),
    [n],
    'float32',
  );
const inc = {
  expr: { op: 'add', args: [{ in: 0 }, { const: 1 }], dtype: 'float32' as const },
  dtype: 'float32' as const,
};

describe.skipIf(!hasGpu)('webgpu worker and buffer pool', () => {
  const box = useGpu();

  it('lists the adapter under the name it opened', async () => {
    const adapters = await listAdapters();
    expect(adapters.map((a) => a.name)).toContain(box.gpu.name);
    expect(adapters[0]!.description).toBe(box.gpu.adapter.description);
  });

  it('returns small serialisable handles and round-trips data', async () => {
    const { gpu } = box;
    const h = await gpu.upload(f32(1000));
    expect(h).toEqual({
      device: 'gpu',
      id: expect.any(Number),
      dtype: 'float32',
      shape: [1000],
      bytes: 4000,
    });
    expect(JSON.parse(JSON.stringify(h))).toEqual(h);
    const back = await gpu.download(h);
    expect(Array.from((back.data as NumberArray).slice(0, 3))).toEqual([0, 1, 2]);
    const into = new NDArray(new Float32Array(new SharedArrayBuffer(4000)), [1000], 'float32');
    expect(await gpu.download(h, into)).toBe(into);
    expect(into.data[999]).toBe(999);
    await expect(gpu.download(h, f32(1000))).rejects.toThrow(/SharedArrayBuffer/);
    gpu.release(h);
  });

  it('reuses released buffers of the same size class instead of allocating', async () => {
    const { gpu } = box;
    const x = await gpu.upload(f32(100_000));
    const [warm] = await gpu.run('ew', [x], inc);
    gpu.release(warm!);
    const before = await gpu.stats();
    for (let i = 0; i < 10; i++) {
      const [y] = await gpu.run('ew', [x], inc);
      gpu.release(y!);
    }
    const after = await gpu.stats();
    expect(after.created).toBe(before.created);
    expect(after.reused).toBeGreaterThanOrEqual(before.reused + 20); // outputs and metadata
    expect(after.peak).toBe(before.peak);
    expect(after.live).toBe(before.live);
    gpu.release(x);
    const done = await gpu.stats();
    expect(done.live).toBeLessThan(before.live);
    expect(done.pooled).toBeGreaterThan(0);
  });

  it('caches one pipeline per kernel specialisation', async () => {
    const { gpu } = box;
    const x = await gpu.upload(f32(10));
    await gpu.run('ew', [x], inc);
    const before = (await gpu.stats()).pipelines;
    const [y] = await gpu.run('ew', [x], inc);
    expect((await gpu.stats()).pipelines).toBe(before);
    gpu.release(x, y!);
  });

  it('refuses a chunk over the binding limit instead of binding it silently', async () => {
    const { gpu } = box;
    const n = gpu.adapter.maxStorageBufferBindingSize / 4 + 1;
    const p = {
      seed: [0, 1],
      arrayShape: [n],
      offset: [0],
      shape: [n],
      dtype: 'float32',
      low: 0,
      high: 1,
    };
    await expect(gpu.run('random-uniform', [], p)).rejects.toThrow(/maxStorageBufferBindingSize/);
  });

  it('rejects an unknown kernel and a released handle, naming them', async () => {
    const { gpu } = box;
    await expect(gpu.run('nope', [], {})).rejects.toThrow(/unknown kernel 'nope'/);
    const h = await gpu.upload(f32(4));
    gpu.release(h);
    await expect(gpu.download(h)).rejects.toThrow(/no buffer with handle id/);
  });
});

describe.skipIf(!hasGpu)('webgpu worker crash', () => {
  it('rejects pending calls with WorkerCrashedError, and openGpu reopens the device', async () => {
    const gpu = await openGpu('gpu');
    const h = await gpu.upload(f32(1 << 20));
    const pending = gpu.run('ew', [h], inc);
    const crash = gpu.simulateCrash();
    const after = gpu.run('ew', [h], inc);
    await expect(crash).rejects.toBeInstanceOf(WorkerCrashedError);
    await expect(after).rejects.toMatchObject({ _tag: 'WorkerCrashedError' });
    await pending.catch(() => {}); // ran before the crash, or was rejected by it
    expect(gpu.crashed).toBe(true);
    await expect(gpu.upload(f32(4))).rejects.toBeInstanceOf(WorkerCrashedError);
    await gpu.close();
    const again = await openGpu('gpu');
    const h2 = await again.upload(f32(8));
    const [y] = await again.run('ew', [h2], inc);
    expect(Array.from((await again.download(y!)).data as NumberArray)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    await again.close();
  }, 60_000);
});
