// Where graph builders ask dispatch which backend runs a layer: the operation's metadata
// (kernel, params, output, inputs) goes to the cascade, the answer onto the layer.

import { type DType, itemsize } from '../array/dtype.ts';
import type { Chunks } from '../chunking/types.ts';
import { guardTransfer } from '../devices/guards.ts';
import { selectBackend } from '../dispatch/cascade.ts';
import { defaultBackends } from '../dispatch/default.ts';
import type { Backend, InputMeta, OpMeta } from '../dispatch/types.ts';
import { type LayerSpec, setDeviceGlue } from '../graph/define-layer.ts';
import type { BackendRef, Layer } from '../graph/layer.ts';
import './dtype-gate.ts';

/** What a builder knows of the operation it is about to define. */
export interface DispatchRequest {
  /** The kernel its tasks run ('ew', 'reduce-partial', 'matmul', …). */
  readonly kernel: string;
  /** Params every task of the layer shares, if any. */
  readonly params?: unknown;
  readonly deps: readonly Layer[];
  readonly chunks: Chunks;
  readonly dtype: DType;
  /** The function the user called ('add', 'sum', …). */
  readonly fn?: string;
}

/**
 * Kernels that only fusion makes (a backend's layers fuse into those it implements), and
 * source kernels a device backend runs itself (fused into its group, made on the device).
 */
const FUSION_KERNELS = new Set(['ew-view', 'ew-reduce', 'ew-reduce-views', 'random-uniform']);

/** Elements of the largest block of a chunk grid (0 with unknown sizes). */
function largestBlock(chunks: Chunks): number {
  let n = 1;
  for (const c of chunks) {
    let m = 0;
    for (const v of c) {
      if (v === null) return 0;
      if (v > m) m = v;
    }
    n *= m;
  }
  return n;
}

/** Bytes of a layer's array, or null with unknown sizes. */
function layerBytes(l: Layer): number | null {
  let n = itemsize(l.dtype);
  for (const c of l.chunks) {
    let s = 0;
    for (const v of c) {
      if (v === null) return null;
      s += v;
    }
    n *= s;
  }
  return n;
}

const inputMeta = (l: Layer): InputMeta => ({
  dtype: l.dtype,
  chunks: l.chunks,
  device: l.device ?? 'cpu',
  backend: l.backend?.name ?? 'cpu-js',
});

/**
 * The backend of an operation, as a layer records it.
 * @example
 * const backend = dispatchLayer({ kernel: 'ew', params, deps, chunks, dtype, fn: 'add' });
 * defineLayer({ ...spec, backend });
 */
export function dispatchLayer(req: DispatchRequest): BackendRef {
  const meta: OpMeta = {
    op: req.kernel,
    params: req.params,
    dtype: req.dtype,
    chunks: req.chunks,
    inputs: req.deps.map(inputMeta),
    blockElements: largestBlock(req.chunks),
  };
  const fn = req.fn ?? req.kernel;
  let gpu: string | undefined;
  for (let i = 0; i < req.deps.length && gpu === undefined; i++) gpu = req.deps[i]!.device;
  // mixing devices moves the host inputs to the GPU: an implicit transfer
  if (gpu !== undefined) {
    for (const d of req.deps) {
      if (d.device !== gpu) guardTransfer(fn, d.name, d.device ?? 'cpu', gpu, layerBytes(d));
    }
  }
  const { backend } = selectBackend(defaultBackends, meta, req.fn, undefined, false);
  // a CPU backend running GPU data (a fallback) copies it to the host
  if (gpu !== undefined && backend.device === 'cpu') {
    for (const d of req.deps) {
      if (d.device !== undefined) guardTransfer(fn, d.name, d.device, 'cpu', layerBytes(d));
    }
  }
  return refOf(backend);
}

const refs = new WeakMap<Backend, BackendRef>();

/** The BackendRef layers of `backend` carry (one object per backend). */
function refOf(backend: Backend): BackendRef {
  let ref = refs.get(backend);
  if (ref === undefined) {
    const fuses = backend.kernels.filter((k) => FUSION_KERNELS.has(k));
    ref = Object.freeze({
      name: backend.name,
      device: backend.device,
      ...(backend.module !== undefined ? { module: backend.module } : {}),
      ...(fuses.length > 0 ? { fuses } : {}),
    });
    refs.set(backend, ref);
  }
  return ref;
}

/** The task of a layer's first block (undefined with no blocks): its kernel and params. */
function probeTask(spec: LayerSpec): { kernel: string; params?: unknown } | undefined {
  if (spec.chunks.some((c) => c.length === 0)) return undefined;
  return spec.task(spec.chunks.map(() => 0));
}

/**
 * Where a glue layer over device data runs: on the device's backend when it has the kernel
 * (and can run it), else on the host, which moves the data there: a guarded transfer.
 */
function placeGlue(spec: LayerSpec): LayerSpec {
  const probe = probeTask(spec);
  if (probe === undefined) return spec;
  const backend = dispatchLayer({
    kernel: probe.kernel,
    params: probe.params,
    deps: spec.deps,
    chunks: spec.chunks,
    dtype: spec.dtype,
    fn: spec.op,
  });
  return { ...spec, backend };
}

setDeviceGlue(placeGlue);
