// SplitMix64 uniforms in WebAssembly: its native 64-bit multiplies fill blocks several times
// faster than JavaScript's 32-bit halves, with bit-identical values (backends/cpu-js/source/random.ts).
//
// The module (wat2wasm of the text below) fills f64[n] at byte 0 of its memory:
//   s = hi·2^32 + lo; for each j: z = s; z = (z ^ z >>> 30) · 0xbf58476d1ce4e5b9;
//   z = (z ^ z >>> 27) · 0x94d049bb133111eb; z ^= z >>> 31; u = (z >>> 11) · 2^-53;
//   v = low + width · u (rounded to float32 when f32); v >= high && high > low ? cap : v;
//   s += 0x9e3779b97f4a7c15

const BYTES =
  'AGFzbQEAAAABDAFgCH9/f3x8fHx/AAMCAQAFAwEACAcUAgZtZW1vcnkCAAd1bmlmb3JtAAAKugEBtwEDAn4CfwF8IAGtQiCGIAKthCEIIABBA3QhCwJAA0AgCiALTw0BIAghCSAJIAlCHoiFQrnLk+fR7ZGsv39+IQkgCSAJQhuIhULro8SZsbeS6JR/fiEJIAkgCUIfiIUhCSADIAQgCUILiLpEAAAAAAAAoDyioqAhDCAHBEAgDLa7IQwLIAwgBWYgBSADZHEEQCAGIQwLIAogDDkDACAIQpX4qfqXt96bnn98IQggCkEIaiEKDAALCws=';

/** Elements one call fills (the module's memory holds 8 × 64 KiB = 65,536 float64). */
export const WASM_CHUNK = 65536;

export interface UniformFill {
  /** Fill view[0 … n) for the state hi:lo (n <= WASM_CHUNK). */
  fill(
    n: number,
    hi: number,
    lo: number,
    low: number,
    width: number,
    high: number,
    cap: number,
    f32: number,
  ): void;
  readonly view: Float64Array;
}

/** The part of the WebAssembly API used here (the project's type libraries lack it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

let instance: UniformFill | null | undefined;

/**
 * This thread's WebAssembly uniform filler, or null where WebAssembly is unavailable.
 * @example
 * wasmUniform()?.fill(4, 0, 1, 0, 1, 1, 0.9999999999999999, 0); // view[0 … 4) holds uniforms
 */
export function wasmUniform(): UniformFill | null {
  if (instance !== undefined) return instance;
  instance = null;
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (api === undefined) return instance;
  try {
    const { exports } = new api.Instance(new api.Module(Buffer.from(BYTES, 'base64')));
    const memory = exports.memory as { buffer: ArrayBuffer };
    instance = {
      fill: exports.uniform as UniformFill['fill'],
      view: new Float64Array(memory.buffer),
    };
  } catch {
    instance = null;
  }
  return instance;
}
