// Opening WebGPU adapters and devices through dawn.node (the optional `webgpu` package).
// The instance `create()` returns is held by every GpuDevice: see NOTES "GPU from Node".

/// <reference types="@webgpu/types" />

/** What the `webgpu` package exports (loaded lazily: it is an optional dependency). */
interface DawnModule {
  create(options: string[]): GPU;
}

/** One adapter as listed: its device name ('gpu', or 'gpu:0', 'gpu:1', … when several). */
export interface AdapterEntry {
  readonly name: string;
  readonly index: number;
  readonly description: string;
  readonly vendor: string;
  readonly architecture: string;
  readonly backend: string;
  readonly features: readonly string[];
  readonly maxBufferSize: number;
  readonly maxStorageBufferBindingSize: number;
}

const HOW_TO_INSTALL =
  'install a Vulkan driver: Mesa lavapipe (software; `eval "$(bash .ci/lavapipe.sh)"` fetches ' +
  'it without root) or, on NVIDIA, the NVIDIA driver plus libvulkan1';

let dawnPromise: Promise<DawnModule | string> | undefined;

/** The `webgpu` module, or why it could not be loaded; imported once, never throws. */
export function loadDawn(): Promise<DawnModule | string> {
  dawnPromise ??= import('webgpu' as string).then(
    (m: DawnModule) => m,
    (e: unknown) =>
      `the optional package 'webgpu' (dawn.node) did not load: ${e instanceof Error ? e.message : String(e)}`,
  );
  return dawnPromise;
}

/**
 * A Dawn instance and everything requested through it. The instance is kept in a field that
 * `pump()` reads on every call, so V8 cannot collect it while adapters or devices live.
 */
export class GpuInstance {
  private gpu: GPU | null;
  private pending = 0;
  /** Waits completed with the instance held (reading the field keeps it in use). */
  waits = 0;

  constructor(gpu: GPU) {
    this.gpu = gpu;
  }

  /** The live instance; throws once closed. */
  get instance(): GPU {
    if (this.gpu === null) throw new Error('webgpu: the instance is closed');
    return this.gpu;
  }

  /** Run `p` with the instance held (counts pending promises for close()). */
  async hold<T>(p: Promise<T>): Promise<T> {
    this.pending++;
    try {
      return await p;
    } finally {
      this.pending--;
      // Read the field after every wait, so the instance is still in use here.
      if (this.gpu !== null) this.waits++;
    }
  }

  get pendingCount(): number {
    return this.pending;
  }

  /** Drop the instance (after every device is destroyed). */
  release(): void {
    this.gpu = null;
  }
}

/** The Dawn instance, or the reason there is none. */
export async function createInstance(): Promise<GpuInstance | string> {
  const dawn = await loadDawn();
  if (typeof dawn === 'string') return dawn;
  try {
    return new GpuInstance(dawn.create([]));
  } catch (e) {
    return `webgpu: create() failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

async function requestAdapters(inst: GpuInstance): Promise<GPUAdapter[]> {
  const out: GPUAdapter[] = [];
  const seen = new Set<string>();
  for (const powerPreference of ['high-performance', 'low-power'] as const) {
    const a = await inst.hold(inst.instance.requestAdapter({ powerPreference }));
    if (a === null) continue;
    const key = `${a.info.vendor}|${a.info.architecture}|${a.info.device}|${a.info.description}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a);
  }
  return out;
}

function describe(a: GPUAdapter, index: number, count: number): AdapterEntry {
  const info = a.info as GPUAdapterInfo & { backendType?: string };
  return {
    name: count === 1 ? 'gpu' : `gpu:${index}`,
    index,
    description: info.description || info.device || 'unknown adapter',
    vendor: info.vendor,
    architecture: info.architecture,
    backend: info.backendType ?? 'unknown',
    features: [...a.features],
    maxBufferSize: a.limits.maxBufferSize,
    maxStorageBufferBindingSize: a.limits.maxStorageBufferBindingSize,
  };
}

/** Adapters on this machine, named as devices; [] when there is none (or no `webgpu`). */
export async function listAdapters(): Promise<AdapterEntry[]> {
  const inst = await createInstance();
  if (typeof inst === 'string') return [];
  const adapters = await requestAdapters(inst);
  const out = adapters.map((a, i) => describe(a, i, adapters.length));
  inst.release();
  return out;
}

/**
 * `true` when a WebGPU adapter is available, otherwise why not and how to get one.
 * @example
 * const s = await gpuStatus(); if (s !== true) console.log(`GPU tier skipped: ${s}`);
 */
export async function gpuStatus(): Promise<true | string> {
  const inst = await createInstance();
  if (typeof inst === 'string') return `gpuStatus: ${inst}; ${HOW_TO_INSTALL}`;
  const adapters = await requestAdapters(inst);
  inst.release();
  if (adapters.length > 0) return true;
  const icd = process.env.VK_ICD_FILENAMES ?? process.env.VK_DRIVER_FILES;
  return (
    'gpuStatus: no WebGPU adapter found (dawn.node looked for Vulkan devices' +
    (icd
      ? ` with VK_ICD_FILENAMES=${icd}`
      : ' through the system Vulkan ICDs in /usr/share/vulkan/icd.d') +
    `); ${HOW_TO_INSTALL}`
  );
}

/** An open device with the instance and adapter it came from. */
export class GpuDevice {
  constructor(
    readonly inst: GpuInstance,
    readonly adapter: AdapterEntry,
    readonly device: GPUDevice,
    readonly hasF16: boolean,
  ) {}

  get queue(): GPUQueue {
    void this.inst.instance;
    return this.device.queue;
  }

  get limits(): GPUSupportedLimits {
    return this.device.limits;
  }

  /** Wait for submitted work, destroy the device and drop the instance. */
  async close(): Promise<void> {
    await this.inst.hold(this.device.queue.onSubmittedWorkDone());
    this.device.destroy();
    this.inst.release();
  }
}

/**
 * Open the adapter named `name` ('gpu', 'gpu:1') with the largest buffers it allows and
 * 'shader-f16' when it has it.
 * @example
 * const dev = await openDevice('gpu'); console.log(dev.adapter.description); await dev.close();
 */
export async function openDevice(name = 'gpu'): Promise<GpuDevice> {
  const inst = await createInstance();
  if (typeof inst === 'string') throw new Error(`openDevice: ${inst}; ${HOW_TO_INSTALL}`);
  const adapters = await requestAdapters(inst);
  const entries = adapters.map((a, i) => describe(a, i, adapters.length));
  const index = entries.findIndex((e) => e.name === name || (name === 'gpu' && e.index === 0));
  if (index < 0) {
    inst.release();
    const have = entries.map((e) => e.name).join(', ') || 'none';
    throw new Error(`openDevice: no adapter '${name}' (adapters: ${have}); ${HOW_TO_INSTALL}`);
  }
  const adapter = adapters[index]!;
  const hasF16 = adapter.features.has('shader-f16');
  const device = await inst.hold(
    adapter.requestDevice({
      requiredFeatures: hasF16 ? ['shader-f16'] : [],
      requiredLimits: {
        maxBufferSize: adapter.limits.maxBufferSize,
        maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
        maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize,
        maxComputeInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
        maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage,
      },
    }),
  );
  return new GpuDevice(inst, entries[index]!, device, hasF16);
}
