// Where graph builders ask dispatch which backend runs a layer: the operation's metadata
// (kernel, params, output, inputs) goes to the cascade, the answer onto the layer.

import type { DType } from '../array/dtype.ts';
import type { Chunks } from '../chunking/types.ts';
import { selectBackend } from '../dispatch/cascade.ts';
import { defaultBackends } from '../dispatch/default.ts';
import type { InputMeta, OpMeta } from '../dispatch/types.ts';
import type { BackendRef, Layer } from '../graph/layer.ts';

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
  const { backend } = selectBackend(defaultBackends, meta, req.fn);
  return backend.module === undefined
    ? { name: backend.name, device: backend.device }
    : { name: backend.name, device: backend.device, module: backend.module };
}
