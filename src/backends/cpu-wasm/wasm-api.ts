// The part of the WebAssembly JS API cpu-wasm uses, typed here because the project's type
// libraries (ES2023 + node) lack it; `wasmApi()` is undefined where there is no WebAssembly.

/** A linear memory. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The constructors cpu-wasm calls. */
export interface WasmApi {
  Module: new (bytes: Uint8Array<ArrayBuffer>) => object;
  Instance: new (
    module: object,
    imports?: Record<string, Record<string, unknown>>,
  ) => { readonly exports: Record<string, unknown> };
  Memory: new (d: { initial: number; maximum?: number }) => WasmMemory;
  validate(bytes: Uint8Array<ArrayBuffer>): boolean;
}

/** This engine's WebAssembly, if any. */
export function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

/** Compile and instantiate `bytes` (throws where WebAssembly is absent). */
export function instantiate(
  bytes: Uint8Array<ArrayBuffer>,
  env: Record<string, unknown>,
): Record<string, unknown> {
  const api = wasmApi();
  if (api === undefined) throw new Error('cpu-wasm: WebAssembly is not available');
  return new api.Instance(new api.Module(bytes), { env }).exports;
}
