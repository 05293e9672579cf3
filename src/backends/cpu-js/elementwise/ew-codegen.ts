// Compiles an elementwise expression tree into the source of one JS loop over the output block.
// Every op node becomes one local per element (no temporary arrays); its value is cast to its dtype.
// float16 blocks hold bits: loads decode them, each float16 node rounds, stores encode (H.f16*).

import { type DType, resultType } from '../../../array/dtype.ts';
import { roundToFloat16 } from '../../../array/float16.ts';
import { bigLiteral, bigOpCode, convertBig, isBig, type ValType, wrapBig } from './ew-big.ts';
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
      return { code: this.input(e.in), type: this.inputDtypes[e.in]! };
    }
    if ('const' in e) return { code: literal(e.const), type: 'weak', value: e.const };
    const key = exprKey(e);
    const hit = this.memo.get(key);
    if (hit) return hit;
    const args = e.args.map((a) => this.emit(a, false));
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
  return stridedSource(spec, used, head, hoisted, body, result);
}

function stridedSource(
  spec: LoopSpec,
  used: readonly number[],
  head: readonly string[],
  hoisted: readonly string[],
  body: string,
  result: string,
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
    'const total = out.length;',
    'let o = 0;',
    'while (o < total) {',
    each((k) => `let q${k} = p${k};`),
    'for (let j = 0; j < inner; j++, o++) {',
    ...g.map((k) => `const v${k} = a${k}[q${k}]; q${k} += is${k};`),
    ...c.map((k) => `const v${k} = a${k}[o];`),
    body,
    `out[o] = ${result};`,
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
