// Compiles an elementwise expression tree into the source of one JS loop over the output block.
// Every op node becomes one local per element (no temporary arrays); its value is cast to its dtype.
// float16 blocks hold bits: loads decode them, each float16 node rounds, stores encode (H.f16*).
// A complex value is two locals (re, im: `t3`, `t3i`); loads and stores read and write both
// parts (data[2i], data[2i + 1]). Loops without complex values are generated as before.

import { type DType, isComplex, realDType, resultType } from '../../../array/dtype.ts';
import { roundToFloat16 } from '../../../array/float16.ts';
import { bigLiteral, bigOpCode, convertBig, isBig, type ValType, wrapBig } from './ew-big.ts';
import { complexOpCode, complexToReal, isPair, type Pair } from './ew-complex.ts';
import { COMPARISONS, EXACT, opCode, scalarCasts, UNCAST } from './ew-ops.ts';
import type { Expr } from './expr.ts';

export { EXACT } from './ew-ops.ts';

/**
 * How an input block is read: `c` contiguous with the output (flat index), `s` one value
 * for the whole block (every stride 0, hoisted out of the loop), `g` general strides.
 */
export type InputMode = 'c' | 's' | 'g';

/** What a compiled loop is specialised for. */
export interface LoopSpec {
  readonly expr: Expr;
  readonly inputDtypes: readonly DType[];
  readonly modes: readonly InputMode[];
  readonly outDtype: DType;
}

interface Emitted {
  readonly code: string;
  readonly type: ValType;
  /** The value of a weak scalar. */
  readonly value?: number;
  /** The imaginary part's code of a complex value (`code` is the real part). */
  readonly im?: string;
}

/** A JS literal for a number that survives NaN, ±Infinity and -0. */
export function literal(v: number): string {
  if (Object.is(v, -0)) return '(-0)';
  if (v < 0) return `(${String(v)})`;
  return String(v);
}

/** `v` as dtype `d` stores it (wrap, truncate, round to float32, nonzero → 1 for bool). */
export function castScalar(v: number, d: DType): number {
  switch (d) {
    case 'float64':
      return v;
    case 'float32':
      return Math.fround(v);
    case 'float16':
      return roundToFloat16(v);
    case 'bool':
      return v !== 0 ? 1 : 0;
    case 'int32':
      return v | 0;
    case 'int16':
      return (v << 16) >> 16;
    case 'int8':
      return (v << 24) >> 24;
    case 'uint32':
      return v >>> 0;
    case 'uint16':
      return v & 0xffff;
    case 'uint8':
      return v & 0xff;
    case 'int64':
    case 'uint64':
      return Math.trunc(v); // as a number; BigInt literals come from bigLiteral
    case 'complex64':
    case 'complex128':
      return castScalar(v, realDType(d)); // the real part
  }
}

/**
 * Source that converts `code` to dtype `d`. Integers wrap at their width (truncating toward
 * zero first, as C casts do for in-range floats); float32 rounds with Math.fround and float16
 * to nearest-even from float64, so a fused chain gives bit-for-bit the result of the unfused
 * one. (NumPy computes float16 ufuncs in float32 and rounds: for + - * / and sqrt both give
 * the correctly rounded float16, since 24 and 53 are both ≥ 2·11 + 2; others agree within
 * an ulp.)
 */
export function castCode(code: string, d: DType): string {
  switch (d) {
    case 'float64':
      return code;
    case 'float32':
      return `Math.fround(${code})`;
    case 'float16':
      return `H.f16Round(${code})`;
    case 'bool':
      return `(${code} !== 0 ? 1 : 0)`;
    case 'int32':
      return `(${code} | 0)`;
    case 'int16':
      return `((${code} << 16) >> 16)`;
    case 'int8':
      return `((${code} << 24) >> 24)`;
    case 'uint32':
      return `(${code} >>> 0)`;
    case 'uint16':
      return `(${code} & 65535)`;
    case 'uint8':
      return `(${code} & 255)`;
    case 'int64':
    case 'uint64':
      return wrapBig(code, d);
    case 'complex64':
    case 'complex128':
      return castCode(code, realDType(d)); // one part
  }
}

/**
 * The type each argument of op `op` (node dtype `d`) is read as: the promoted type for
 * comparisons, its own type where only truthiness or class counts, `d` otherwise.
 */
function readTypes(op: string, d: DType, args: readonly Emitted[]): ValType[] {
  if (op in COMPARISONS) {
    const p = resultType(...args.map((a) => (a.type === 'weak' ? a.value! : a.type)));
    return args.map((a) => (a.type === 'weak' ? 'weak' : p));
  }
  if (op === 'where') return [args[0]!.type, d, d];
  if (op === 'astype') return [d];
  if (UNCAST.has(op)) return args.map((a) => a.type);
  return args.map(() => d);
}

/** Builds the statements of one loop body, one local per distinct node. */
class BodyBuilder {
  readonly lines: string[] = [];
  readonly usedInputs = new Set<number>();
  private readonly memo = new Map<string, Emitted>();
  private readonly decoded = new Set<number>();
  private next = 0;

  constructor(private readonly inputDtypes: readonly DType[]) {}

  /** The code of input `k`'s value: its local, or for float16 bits the decoded local. */
  private input(k: number): string {
    if (this.inputDtypes[k] !== 'float16') return `v${k}`;
    if (!this.decoded.has(k)) {
      this.decoded.add(k);
      this.lines.push(`const h${k} = H.f16Value(v${k});`);
    }
    return `h${k}`;
  }

  emit(e: Expr, isRoot: boolean): Emitted {
    if ('in' in e) {
      if (e.in >= this.inputDtypes.length) {
        throw new Error(`ew: expression reads input ${e.in} of ${this.inputDtypes.length}`);
      }
      this.usedInputs.add(e.in);
      const type = this.inputDtypes[e.in]!;
      return isComplex(type)
        ? { code: `v${e.in}`, im: `w${e.in}`, type }
        : { code: this.input(e.in), type };
    }
    if ('const' in e) return { code: literal(e.const), type: 'weak', value: e.const };
    const key = exprKey(e);
    const hit = this.memo.get(key);
    if (hit) return hit;
    const args = e.args.map((a) => this.emit(a, false));
    if (isComplex(e.dtype) || args.some((a) => isPair(a.type))) {
      const out = this.emitComplex(e, args, isRoot);
      this.memo.set(key, out);
      return out;
    }
    const reads = readTypes(e.op, e.dtype, args);
    const big = isBig(e.dtype) || reads.some(isBig);
    const casts = scalarCasts(
      e.op,
      e.dtype,
      args.map((a) => a.type),
    );
    const codes = args.map((a, i) => {
      const to = casts[i];
      if (a.value !== undefined) {
        if (to && isBig(to)) return bigLiteral(a.value, to);
        return to ? literal(castScalar(a.value, to)) : a.code;
      }
      const r = reads[i]!;
      return r !== 'weak' ? (convertBig(a.code, a.type as DType, r) ?? a.code) : a.code;
    });
    let code = big ? bigOpCode(e.op, codes, e.dtype, reads) : opCode(e.op, codes, e.dtype);
    if (!EXACT.has(e.op)) {
      // At the root the typed-array store wraps integers (BigInts too) and rounds float32
      // itself, and the float16 store rounds as it encodes.
      if (!isRoot || e.dtype === 'bool') code = castCode(code, e.dtype);
    }
    const name = `t${this.next++}`;
    this.lines.push(`const ${name} = ${code};`);
    const out = { code: name, type: e.dtype };
    this.memo.set(key, out);
    return out;
  }

  /** An op node over complex values (or giving one): its parts as two locals. */
  private emitComplex(
    e: Extract<Expr, { op: string }>,
    args: readonly Emitted[],
    isRoot: boolean,
  ): Emitted {
    const work = complexWorkType(e.op, e.dtype, args);
    const pairs = args.map((a, i) => {
      // where's condition keeps its own type; a real condition has im 0
      if (e.op === 'where' && i === 0)
        return asPair(a, isPair(a.type) ? (a.type as DType) : 'float64');
      return asPair(a, work);
    });
    const name = `t${this.next++}`;
    const r = complexOpCode(e.op, pairs, name);
    this.lines.push(...r.lines);
    if (r.pair !== undefined && isComplex(e.dtype)) {
      // complex64 parts round to float32 (at the root the Float32Array store rounds them)
      const part = (c: string): string => (isRoot ? c : castCode(c, realDType(e.dtype)));
      this.lines.push(
        `const ${name} = ${part(r.pair.re)};`,
        `const ${name}i = ${part(r.pair.im)};`,
      );
      return { code: name, im: `${name}i`, type: e.dtype };
    }
    // a complex value stored as a real dtype keeps its real part (NumPy's cast)
    let code = r.value ?? r.pair!.re;
    if (!isRoot || e.dtype === 'bool') code = castCode(code, e.dtype);
    this.lines.push(`const ${name} = ${code};`);
    return { code: name, type: e.dtype };
  }
}

/** The complex dtype an op over complex values computes in. */
function complexWorkType(op: string, d: DType, args: readonly Emitted[]): DType {
  if (!complexToReal(op) && isComplex(d)) return d;
  const types = args.map((a) => (a.type === 'weak' ? a.value! : a.type));
  const p = resultType(...types);
  return isComplex(p) ? p : 'complex128';
}

/** `a` as the parts of a value of complex dtype `to` (real values: im 0). */
function asPair(a: Emitted, to: DType): Pair {
  const part = realDType(to);
  if (a.value !== undefined) return { re: literal(castScalar(a.value, part)), im: '0' };
  if (isPair(a.type)) {
    const narrow = a.type === 'complex128' && part === 'float32';
    return narrow
      ? { re: castCode(a.code, part), im: castCode(a.im!, part) }
      : { re: a.code, im: a.im! };
  }
  const t = a.type as DType;
  const re = convertBig(a.code, t, 'float64') ?? a.code;
  return {
    re: t === 'float32' || t === 'float16' || part === 'float64' ? re : castCode(re, part),
    im: '0',
  };
}

/**
 * The statements computing `expr` for one element from locals `v0`, `v1`, … (the input
 * values), and the code of its value as a block of its dtype would store it: for loops that
 * use each value at once instead of storing it (fused reductions).
 * @example
 * elementSource({ op: 'add', args: [{ in: 0 }, { const: 1 }], dtype: 'float64' }, ['float64']);
 * // { lines: 'const t0 = (v0 + 1);', value: 't0', used: [0] }
 */
export function elementSource(
  expr: Expr,
  inputDtypes: readonly DType[],
): { lines: string; value: string; used: number[] } {
  const b = new BodyBuilder(inputDtypes);
  const root = b.emit(expr, false);
  return {
    lines: b.lines.join('\n'),
    value: root.code,
    used: [...b.usedInputs].sort((p, q) => p - q),
  };
}

/** A stable string of an expression (NaN, ±Infinity and -0 kept apart). */
export function exprKey(e: Expr): string {
  if ('in' in e) return `$${e.in}`;
  if ('const' in e) return `#${literal(e.const)}`;
  return `${e.op}:${e.dtype}(${e.args.map(exprKey).join(',')})`;
}

/** The cache key of a loop specialisation. */
export function loopKey(spec: LoopSpec): string {
  return `${exprKey(spec.expr)}|${spec.inputDtypes.join(',')}|${spec.modes.join('')}|${spec.outDtype}`;
}

/**
 * The source of `function (out, ins, shape, strides)`: `ins` are the input TypedArrays,
 * `shape` the (simplified) output shape, `strides[k]` input k's element strides per axis.
 * Uses no temporaries: `out[i] = (v0 * 2) + 1` for `x * 2 + 1`.
 */
export function loopSource(spec: LoopSpec): string {
  if (isComplex(spec.outDtype) || spec.inputDtypes.some(isComplex)) return complexLoopSource(spec);
  const b = new BodyBuilder(spec.inputDtypes);
  const root = b.emit(spec.expr, true);
  let result = root.code;
  if (root.type !== spec.outDtype && spec.outDtype === 'bool') result = castCode(result, 'bool');
  if (spec.outDtype === 'float16') {
    // A float16 input copied as is (a strided view) keeps its bits, NaN payloads included.
    const e = spec.expr;
    const raw = 'in' in e && spec.inputDtypes[e.in] === 'float16';
    result = raw ? `v${e.in}` : `H.f16Bits(${result})`;
  }
  const used = [...b.usedInputs].sort((p, q) => p - q);
  const general = used.filter((k) => spec.modes[k] === 'g');
  const head = used.map((k) => `const a${k} = ins[${k}];`);
  const hoisted = used.filter((k) => spec.modes[k] === 's').map((k) => `const v${k} = a${k}[0];`);
  const body = b.lines.join('\n');
  if (general.length === 0) {
    const loads = used.filter((k) => spec.modes[k] === 'c').map((k) => `const v${k} = a${k}[i];`);
    return [
      ...head,
      ...hoisted,
      'const n = out.length;',
      'for (let i = 0; i < n; i++) {',
      ...loads,
      body,
      `out[i] = ${result};`,
      '}',
    ].join('\n');
  }
  return stridedSource(spec, used, head, hoisted, body, {
    load: (k, at) => `const v${k} = a${k}[${at}];`,
    store: (at) => `out[${at}] = ${result};`,
    total: 'out.length',
  });
}

/** How a loop reads input k at an index, stores its result, and how many outputs it has. */
interface LoopText {
  load(k: number, at: string): string;
  store(at: string): string;
  readonly total: string;
}

/** The loop over general (strided) inputs: an index per axis, rows along the last one. */
function stridedSource(
  spec: LoopSpec,
  used: readonly number[],
  head: readonly string[],
  hoisted: readonly string[],
  body: string,
  text: LoopText,
): string {
  const g = used.filter((k) => spec.modes[k] === 'g');
  const c = used.filter((k) => spec.modes[k] === 'c');
  const each = (f: (k: number) => string): string => g.map(f).join(' ');
  return [
    ...head,
    ...hoisted,
    ...g.map((k) => `const st${k} = strides[${k}]; let p${k} = 0;`),
    'const nd = shape.length;',
    'const inner = shape[nd - 1];',
    ...g.map((k) => `const is${k} = st${k}[nd - 1];`),
    'const idx = new Array(nd).fill(0);',
    `const total = ${text.total};`,
    'let o = 0;',
    'while (o < total) {',
    each((k) => `let q${k} = p${k};`),
    'for (let j = 0; j < inner; j++, o++) {',
    ...g.map((k) => `${text.load(k, `q${k}`)} q${k} += is${k};`),
    ...c.map((k) => text.load(k, 'o')),
    body,
    text.store('o'),
    '}',
    'for (let ax = nd - 2; ax >= 0; ax--) {',
    each((k) => `p${k} += st${k}[ax];`),
    'if (++idx[ax] < shape[ax]) break;',
    each((k) => `p${k} -= st${k}[ax] * shape[ax];`),
    'idx[ax] = 0;',
    '}',
    '}',
  ].join('\n');
}

/**
 * {@link loopSource} for loops that read or write complex values: complex inputs load two
 * parts (element i at 2i, 2i + 1), a complex output stores two.
 */
function complexLoopSource(spec: LoopSpec): string {
  const b = new BodyBuilder(spec.inputDtypes);
  const root = b.emit(spec.expr, true);
  const outPair = isComplex(spec.outDtype);
  let result = root.code;
  if (!outPair && root.type !== spec.outDtype && spec.outDtype === 'bool') {
    result = castCode(result, 'bool');
  }
  if (spec.outDtype === 'float16') result = `H.f16Bits(${result})`;
  const pairIn = (k: number): boolean => isComplex(spec.inputDtypes[k]!);
  const load = (k: number, at: string): string =>
    pairIn(k)
      ? `const v${k} = a${k}[2 * ${at}]; const w${k} = a${k}[2 * ${at} + 1];`
      : `const v${k} = a${k}[${at}];`;
  const store = (at: string): string =>
    outPair
      ? `out[2 * ${at}] = ${result}; out[2 * ${at} + 1] = ${root.im ?? '0'};`
      : `out[${at}] = ${result};`;
  const used = [...b.usedInputs].sort((p, q) => p - q);
  const head = used.map((k) => `const a${k} = ins[${k}];`);
  const hoisted = used.filter((k) => spec.modes[k] === 's').map((k) => load(k, '0'));
  const c = used.filter((k) => spec.modes[k] === 'c');
  const g = used.filter((k) => spec.modes[k] === 'g');
  const body = b.lines.join('\n');
  const total = outPair ? 'out.length >> 1' : 'out.length';
  if (g.length === 0) {
    return [
      ...head,
      ...hoisted,
      `const n = ${total};`,
      'for (let i = 0; i < n; i++) {',
      ...c.map((k) => load(k, 'i')),
      body,
      store('i'),
      '}',
    ].join('\n');
  }
  return stridedSource(spec, used, head, hoisted, body, { load, store, total });
}
