// Device discovery without a GPU or without the optional `webgpu` package: importing never
// throws, and gpuStatus explains what was looked for and how to install a driver.

import { describe, expect, it, vi } from 'vitest';

vi.mock('webgpu', () => {
  throw new Error('Cannot find package webgpu');
});

describe('webgpu device discovery without the webgpu package', () => {
  it('imports, lists no adapters, and gives a reason with install advice', async () => {
    const m = await import('../../../src/backends/webgpu/index.ts');
    expect(await m.listAdapters()).toEqual([]);
    const s = await m.gpuStatus();
    expect(s).toMatch(/^gpuStatus: .*'webgpu'/);
    expect(s).toMatch(/lavapipe/);
    expect(s).toMatch(/libvulkan1/);
  });
});
