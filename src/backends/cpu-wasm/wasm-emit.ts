// A minimal WebAssembly binary emitter: LEB128, sections, and the opcodes the cpu-wasm
// kernels use (core + fixed-width SIMD). Encodings follow the WebAssembly 2.0 spec, §5.

/** Value types. */
export const I32 = 0x7f;
export const F32 = 0x7d;
export const F64 = 0x7c;
export const V128 = 0x7b;

/** Unsigned LEB128. */
export function uleb(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

/** Signed LEB128 of a 32-bit integer. */
export function sleb(n: number): number[] {
  const out: number[] = [];
  let v = n | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

function vec(items: readonly number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function name(s: string): number[] {
  const bytes = [...new TextEncoder().encode(s)];
  return [...uleb(bytes.length), ...bytes];
}

/** A function signature. */
export interface FuncType {
  readonly params: readonly number[];
  readonly results: readonly number[];
}

/** One defined function: its type, extra locals (types in order) and body code. */
export interface FuncDef {
  readonly type: FuncType;
  readonly locals: readonly number[];
  readonly code: readonly number[];
  readonly export?: string;
}

/** The largest memory a module accepts (4 GiB of 64 KiB pages). */
export const MAX_PAGES = 65536;

/** A module: imported shared memory `env.mem` (at least `memoryPages`), functions, definitions. */
export interface ModuleDef {
  readonly memoryPages: number;
  readonly imports: readonly { readonly name: string; readonly type: FuncType }[];
  readonly funcs: readonly FuncDef[];
}

function typeBytes(t: FuncType): number[] {
  return [0x60, ...uleb(t.params.length), ...t.params, ...uleb(t.results.length), ...t.results];
}

/**
 * The bytes of a module. Function indices: imports first (in order), then `funcs`.
 * @example
 * new WebAssembly.Module(emitModule({ memoryPages: 1, imports: [], funcs: [] }));
 */
export function emitModule(def: ModuleDef): Uint8Array<ArrayBuffer> {
  const types: string[] = [];
  const typeIndex = (t: FuncType): number => {
    const key = typeBytes(t).join(',');
    let i = types.indexOf(key);
    if (i < 0) i = types.push(key) - 1;
    return i;
  };
  const importEntries = def.imports.map((im) => [
    ...name('env'),
    ...name(im.name),
    0x00,
    ...uleb(typeIndex(im.type)),
  ]);
  // limits flag 0x03: shared, with a maximum (shared memories must declare one)
  importEntries.push([
    ...name('env'),
    ...name('mem'),
    0x02,
    0x03,
    ...uleb(def.memoryPages),
    ...uleb(MAX_PAGES),
  ]);
  const funcTypes = def.funcs.map((f) => uleb(typeIndex(f.type)));
  const exports = def.funcs.flatMap((f, i) =>
    f.export === undefined ? [] : [[...name(f.export), 0x00, ...uleb(def.imports.length + i)]],
  );
  const bodies = def.funcs.map((f) => {
    const locals = vec(f.locals.map((t) => [1, t]));
    const body = [...locals, ...f.code, 0x0b];
    return [...uleb(body.length), ...body];
  });
  const typeSec = vec(types.map((k) => k.split(',').map(Number)));
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, typeSec),
    ...section(2, vec(importEntries)),
    ...section(3, vec(funcTypes)),
    ...section(7, vec(exports)),
    ...section(10, vec(bodies)),
  ];
  return new Uint8Array(bytes);
}

/** Core opcodes. */
export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  else: [0x05],
  end: [0x0b],
  br: (d: number) => [0x0c, ...uleb(d)],
  brIf: (d: number) => [0x0d, ...uleb(d)],
  call: (f: number) => [0x10, ...uleb(f)],
  drop: [0x1a],
  get: (l: number) => [0x20, ...uleb(l)],
  set: (l: number) => [0x21, ...uleb(l)],
  tee: (l: number) => [0x22, ...uleb(l)],
  f64Load: (offset: number) => [0x2b, 3, ...uleb(offset)],
  f64Store: (offset: number) => [0x39, 3, ...uleb(offset)],
  i32: (v: number) => [0x41, ...sleb(v)],
  f64: (v: number) => {
    const b = new Uint8Array(new Float64Array([v]).buffer);
    return [0x44, ...b];
  },
  i32Eqz: [0x45],
  i32LtS: [0x48],
  i32GeS: [0x4e],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32Mul: [0x6c],
  i32Shl: [0x74],
  f64Add: [0xa0],
  f64Mul: [0xa2],
  f64Min: [0xa4],
  f64Max: [0xa5],
} as const;

const simd = (code: number, ...imm: number[]): number[] => [0xfd, ...uleb(code), ...imm];

/** SIMD opcodes (memarg: alignment exponent 4 or less, then the static byte offset). */
export const v = {
  load: (offset: number) => simd(0x00, 4, ...uleb(offset)),
  load32Splat: (offset: number) => simd(0x09, 2, ...uleb(offset)),
  load64Splat: (offset: number) => simd(0x0a, 3, ...uleb(offset)),
  store: (offset: number) => simd(0x0b, 4, ...uleb(offset)),
  const: (bytes: readonly number[]) => simd(0x0c, ...bytes),
  shuffle: (lanes: readonly number[]) => simd(0x0d, ...lanes),
  f32Splat: simd(0x13),
  f64Splat: simd(0x14),
  f32Extract: (l: number) => simd(0x1f, l),
  f32Replace: (l: number) => simd(0x20, l),
  f64Extract: (l: number) => simd(0x21, l),
  f64Replace: (l: number) => simd(0x22, l),
  not: simd(0x4d),
  and: simd(0x4e),
  andnot: simd(0x4f),
  or: simd(0x50),
  xor: simd(0x51),
  bitselect: simd(0x52),
  demote: simd(0x5e),
  promote: simd(0x5f),
  extendLow: simd(0xc7),
  extendHigh: simd(0xc8),
} as const;

/** Lane-typed SIMD float ops by name, for f32x4 and f64x2. */
export const fx: Record<'f32' | 'f64', Record<string, number[]>> = {
  f32: {
    eq: simd(0x41),
    ne: simd(0x42),
    lt: simd(0x43),
    gt: simd(0x44),
    le: simd(0x45),
    ge: simd(0x46),
    ceil: simd(0x67),
    floor: simd(0x68),
    trunc: simd(0x69),
    nearest: simd(0x6a),
    abs: simd(0xe0),
    neg: simd(0xe1),
    sqrt: simd(0xe3),
    add: simd(0xe4),
    sub: simd(0xe5),
    mul: simd(0xe6),
    div: simd(0xe7),
    min: simd(0xe8),
    max: simd(0xe9),
  },
  f64: {
    eq: simd(0x47),
    ne: simd(0x48),
    lt: simd(0x49),
    gt: simd(0x4a),
    le: simd(0x4b),
    ge: simd(0x4c),
    ceil: simd(0x74),
    floor: simd(0x75),
    trunc: simd(0x7a),
    nearest: simd(0x94),
    abs: simd(0xec),
    neg: simd(0xed),
    sqrt: simd(0xef),
    add: simd(0xf0),
    sub: simd(0xf1),
    mul: simd(0xf2),
    div: simd(0xf3),
    min: simd(0xf4),
    max: simd(0xf5),
  },
};

/** A v128 constant of four float32 lanes or two float64 lanes all equal to `x`. */
export function splatConst(lane: 'f32' | 'f64', x: number): number[] {
  const buf =
    lane === 'f32' ? new Float32Array([x, x, x, x]).buffer : new Float64Array([x, x]).buffer;
  return v.const([...new Uint8Array(buf)]);
}
