// The part of the WebAssembly JS API cpu-wasm uses, typed here because the project's type
// libraries (ES2023 + node) lack it; `wasmApi()` is undefined where there is no WebAssembly.

import { adviseHugePages } from '../../array/huge-pages.ts';

/** A shared linear memory (its buffer is a SharedArrayBuffer). */
export interface WasmMemory {
  readonly buffer: SharedArrayBuffer;
  grow(pages: number): number;
}

/** The constructors cpu-wasm calls. */
export interface WasmApi {
  Module: new (bytes: Uint8Array<ArrayBuffer>) => object;
  Instance: new (
    module: object,
    imports?: Record<string, Record<string, unknown>>,
  ) => { readonly exports: Record<string, unknown> };
  Memory: new (d: { initial: number; maximum: number; shared: true }) => WasmMemory;
  validate(bytes: Uint8Array<ArrayBuffer>): boolean;
}

/** This engine's WebAssembly, if any. */
export function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

function api(): WasmApi {
  const a = wasmApi();
  if (a === undefined) throw new Error('cpu-wasm: WebAssembly is not available');
  return a;
}

/** Compile `bytes` (throws where WebAssembly is absent). */
export function compile(bytes: Uint8Array<ArrayBuffer>): object {
  return new (api().Module)(bytes);
}

/** Instantiate a compiled module with `env` as its imports. */
export function instantiateModule(
  module: object,
  env: Record<string, unknown>,
): Record<string, unknown> {
  return new (api().Instance)(module, { env }).exports;
}

/** Compile and instantiate `bytes` (throws where WebAssembly is absent). */
export function instantiate(
  bytes: Uint8Array<ArrayBuffer>,
  env: Record<string, unknown>,
): Record<string, unknown> {
  return instantiateModule(compile(bytes), env);
}

/**
 * A fresh shared memory of exactly `pages` pages (64 KiB each), zero-filled; a large one is
 * asked for huge pages before anything touches it (see array/huge-pages.ts).
 */
export function sharedMemory(pages: number): WasmMemory {
  const mem = new (api().Memory)({ initial: pages, maximum: pages, shared: true });
  adviseHugePages(mem.buffer);
  return mem;
}
