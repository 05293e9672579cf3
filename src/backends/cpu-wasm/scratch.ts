// This thread's WebAssembly memory: the scratch every cpu-wasm module imports as `env.mem`.
// Chunks live in SharedArrayBuffers WASM cannot address, so kernels copy tiles through it.

import { type WasmMemory, wasmApi } from './wasm-api.ts';
import { MAX_PAGES } from './wasm-emit.ts';

const PAGE = 65536;
let memory: WasmMemory | undefined;

/** The scratch memory, grown to at least `bytes`. Views of its buffer go stale on growth. */
export function scratchMemory(bytes: number): WasmMemory {
  if (memory === undefined) {
    const api = wasmApi();
    if (api === undefined) throw new Error('cpu-wasm: WebAssembly is not available');
    memory = new api.Memory({ initial: 16, maximum: MAX_PAGES, shared: true });
  }
  const have = memory.buffer.byteLength;
  if (have < bytes) memory.grow(Math.ceil((bytes - have) / PAGE));
  return memory;
}
