// The one constructor of layers: names them deterministically from op, inputs and parameters.
// Graph generators in apply/ describe a layer and get a frozen Layer back.

import type { DType } from '../array/dtype.ts';
import type { Chunks } from '../chunking/types.ts';
import type { Chunk } from '../kernels/types.ts';
import type { BackendRef, Layer, TaskSpec } from './layer.ts';
import { layerName } from './tokenize.ts';

export interface LayerSpec {
  /** Operation label, the prefix of the layer's name. */
  op: string;
  /** Everything besides deps, chunks and dtype that changes the result (hashed into the name). */
  token?: readonly unknown[];
  /** Explicit name (for sources that hash their own data). */
  name?: string;
  deps: readonly Layer[];
  chunks: Chunks;
  dtype: DType;
  fusable?: boolean;
  /** See Layer.absorbable. */
  absorbable?: boolean;
  task: (block: readonly number[]) => TaskSpec;
  constant?: (block: readonly number[]) => Chunk;
  meta?: Record<string, string | number | boolean>;
  /** The backend dispatch chose (part of the name unless it is the reference, cpu-js). */
  backend?: BackendRef;
  /** Where the blocks live, when not on the host. */
  device?: string;
}

/**
 * Decides where a glue layer (no backend of its own) over device data runs: the device's
 * backend if it has the kernel, else the host behind a guarded transfer. Installed by
 * apply/dispatch-layer.ts (graph/ knows no backends).
 */
export type DeviceGlue = (spec: LayerSpec) => LayerSpec;

let deviceGlue: DeviceGlue = (spec) => spec;

/** Checks a layer's dtypes against what its kernel takes (installed by apply/dtype-gate.ts). */
export type LayerCheck = (spec: LayerSpec) => void;

let layerCheck: LayerCheck = () => {};

/** Install the check every layer spec passes before it becomes a layer. */
export function setLayerCheck(hook: LayerCheck): void {
  layerCheck = hook;
}

/** Install the hook that places glue layers over device data. */
export function setDeviceGlue(hook: DeviceGlue): void {
  deviceGlue = hook;
}

/**
 * Build a layer; its name is `op-<hash of deps' names, token, chunks, dtype>`.
 * @example
 * defineLayer({ op: 'negative', deps: [x.layer], chunks: x.chunks, dtype: x.dtype, fusable: true,
 *   task: (b) => ({ kernel: 'ew', inputs: [[0, b]], params }) });
 */
export function defineLayer(given: LayerSpec): Layer {
  layerCheck(given);
  // the device of the first input not on the host (loops: this runs once per operation)
  let inherited: string | undefined;
  for (let i = 0; i < given.deps.length && inherited === undefined; i++)
    inherited = given.deps[i]!.device;
  const spec =
    inherited !== undefined && given.backend === undefined && given.device === undefined
      ? deviceGlue(given)
      : given;
  const backend = spec.backend;
  const name =
    spec.name ??
    layerName(
      spec.op,
      spec.deps,
      spec.token ?? NO_TOKEN,
      backend === undefined || backend.name === 'cpu-js' ? undefined : backend.name,
      spec.chunks,
      spec.dtype,
    );
  // a layer's blocks live where its inputs' do unless it says otherwise (toDevice does)
  // (a CPU backend's layer is on the host: its GPU inputs were moved there, guarded)
  let device = spec.device;
  if (device === undefined) {
    if (backend?.device === 'cpu') device = 'cpu';
    else if (spec !== given) {
      for (let i = 0; i < spec.deps.length && device === undefined; i++)
        device = spec.deps[i]!.device;
    } else device = inherited;
  }
  const layer: { -readonly [K in keyof Layer]: Layer[K] } = {
    name,
    op: spec.op,
    deps: spec.deps,
    chunks: spec.chunks,
    dtype: spec.dtype,
    fusable: spec.fusable ?? false,
    ...(spec.absorbable ? { absorbable: true } : {}),
    task: spec.task,
  };
  if (spec.constant) layer.constant = spec.constant;
  if (spec.meta) layer.meta = spec.meta;
  if (backend) layer.backend = backend;
  if (device !== undefined && device !== 'cpu') layer.device = device;
  return Object.freeze(layer);
}

const NO_TOKEN: readonly unknown[] = Object.freeze([]);
