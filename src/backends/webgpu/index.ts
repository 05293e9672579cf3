// The WebGPU layer's public surface: device discovery and status, and the worker-backed
// handle API. Importing it never touches the GPU or the optional `webgpu` package.

export type { PoolStats } from './buffer-pool.ts';
export { type AdapterEntry, gpuStatus, listAdapters } from './device.ts';
export { GpuClient, type GpuHandle, type GpuStats, openGpu } from './gpu-client.ts';
export { GPU_DTYPES } from './gpu-dtype.ts';
