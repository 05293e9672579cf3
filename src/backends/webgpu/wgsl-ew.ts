// Generates one WGSL compute shader per fused elementwise chain from the CPU's `Expr` IR,
// with the semantics of ew-codegen.ts (weak scalars, casts per node, NumPy comparisons).
// float16 computes in f32, rounding at every float16 node; it is loaded and stored as bits.

import { type DType, kindOf, resultType } from '../../array/dtype.ts';
import type { InputMode } from '../cpu-js/elementwise/ew-codegen.ts';
import { exprKey } from '../cpu-js/elementwise/ew-codegen.ts';
import type { Expr } from '../cpu-js/elementwise/expr.ts';
import { elementsPerWord, isByteDtype, wgslType } from './gpu-dtype.ts';
import { WGSL_SCALAR_PRELUDE, wgslConvert, wgslLiteral, wgslWrap } from './wgsl-scalar.ts';

/** What one elementwise shader is specialised for (its pipeline cache key). */
export interface EwShaderSpec {
  readonly expr: Expr;
  readonly inputDtypes: readonly DType[];
  readonly modes: readonly InputMode[];
  readonly outDtype: DType;
  /** Axes of the simplified layout (only read by 'g' inputs). */
  readonly ndim: number;
}

type ValType = DType | 'weak';
interface Val {
  readonly code: string;
  readonly type: ValType;
  readonly value?: number;
}

const COMPARISONS: Record<string, string> = {
  equal: '==',
  notEqual: '!=',
  less: '<',
  lessEqual: '<=',
  greater: '>',
  greaterEqual: '>=',
};
const EXACT = new Set(['where', 'maximum', 'minimum', 'sign', 'floor', 'ceil', 'round', 'trunc']);
/**
 * Float functions that are WGSL builtins of the same name (float dtypes only: toFloat ops).
 * Left out, so dispatch declines them: WGSL's acos, asin, atan, atan2 (4096 ulp allowed,
 * ~1e-4 off on lavapipe), sinh and cosh (overflow from e^x near 89), acosh, asinh and atanh
 * (log formulas: 0 for tiny x, overflow for huge x) — the CPU gives float32-rounded results.
 */
const BUILTIN_MATH = new Set(['sqrt', 'exp', 'log', 'log2', 'sin', 'cos', 'tan']);
const HELPER_MATH: Record<string, string> = { expm1: 'f_expm1', log1p: 'f_log1p', tanh: 'f_tanh' };
const TYPED_OP: Record<string, Record<'f32' | 'i32' | 'u32', string>> = {
  floorDivide: { f32: 'f_floordiv', i32: 'i_floordiv', u32: 'u_floordiv' },
  remainder: { f32: 'f_rem', i32: 'i_rem', u32: 'u_rem' },
  pow: { f32: 'f_pow', i32: 'i_pow', u32: 'u_pow' },
  maximum: { f32: 'f_max', i32: 'max', u32: 'max' },
  minimum: { f32: 'f_min', i32: 'min', u32: 'min' },
};

/** `x != 0` in the type of `v` (a WGSL bool). */
function truthy(v: Val): string {
  if (v.type === 'weak') return v.value !== 0 ? 'true' : 'false';
  return `(${v.code} != ${wgslType('ew', v.type)}(0))`;
}

/** The dtype a comparison runs in on the GPU: float32 for any float but float16 (float64 included). */
function comparisonDtype(args: readonly Val[]): DType {
  const rt = resultType(...args.map((a) => (a.type === 'weak' ? 0.5 : a.type)));
  const typed = args.filter((a) => a.type !== 'weak').map((a) => a.type as DType);
  if (kindOf(rt) === 'float') {
    // int vs integer weak scalar: NumPy compares exactly, so stay in the integer type.
    const weakInts = args.every((a) => a.type !== 'weak' || Number.isInteger(a.value));
    const t0 = typed[0];
    if (weakInts && typed.length === 1 && t0 !== undefined && kindOf(t0) !== 'float') return t0;
    // float16 (with weak scalars rounded to float16, as on the CPU) compares exactly in f32.
    return rt === 'float16' ? rt : 'float32';
  }
  return rt;
}

class WgslBody {
  readonly lines: string[] = [];
  readonly used = new Set<number>();
  private readonly memo = new Map<string, Val>();
  private next = 0;

  constructor(private readonly inputDtypes: readonly DType[]) {}

  emit(e: Expr): Val {
    if ('in' in e) {
      const d = this.inputDtypes[e.in];
      if (d === undefined)
        throw new Error(`ew: expression reads input ${e.in} of ${this.inputDtypes.length}`);
      wgslType('ew', d);
      this.used.add(e.in);
      return { code: `v${e.in}`, type: d };
    }
    if ('const' in e) return { code: '', type: 'weak', value: e.const };
    const key = exprKey(e);
    const hit = this.memo.get(key);
    if (hit) return hit;
    wgslType('ew', e.dtype);
    const args = e.args.map((a) => this.emit(a));
    const t = wgslType('ew', e.dtype);
    const name = `t${this.next++}`;
    this.lines.push(`let ${name}: ${t} = ${this.opCode(e.op, args, e.dtype)};`);
    const out = { code: name, type: e.dtype };
    this.memo.set(key, out);
    return out;
  }

  /** An argument as a value of dtype `d`. */
  private as(v: Val, d: DType): string {
    if (v.type === 'weak') return wgslLiteral(v.value!, d);
    return wgslConvert(v.code, v.type, d);
  }

  private opCode(op: string, args: readonly Val[], d: DType): string {
    const t = wgslType('ew', d);
    const flag = (cond: string): string => `select(0u, 1u, ${cond})`;
    if (op in COMPARISONS) {
      const cd = comparisonDtype(args);
      return flag(`${this.as(args[0]!, cd)} ${COMPARISONS[op]} ${this.as(args[1]!, cd)}`);
    }
    switch (op) {
      case 'logicalAnd':
        return flag(`${truthy(args[0]!)} && ${truthy(args[1]!)}`);
      case 'logicalOr':
        return flag(`${truthy(args[0]!)} || ${truthy(args[1]!)}`);
      case 'logicalNot':
        return flag(`!${truthy(args[0]!)}`);
      case 'isnan':
      case 'isfinite':
        return this.floatTest(op, args[0]!);
      case 'astype':
        return this.as(args[0]!, d);
      case 'where':
        return `select(${this.as(args[2]!, d)}, ${this.as(args[1]!, d)}, ${truthy(args[0]!)})`;
    }
    const a = args.map((v) => this.as(v, d));
    const code = arithmetic(op, a, t);
    return EXACT.has(op) ? code : wgslWrap(code, d);
  }

  private floatTest(op: 'isnan' | 'isfinite', v: Val): string {
    if (v.type === 'weak') {
      const r = op === 'isnan' ? Number.isNaN(v.value) : Number.isFinite(v.value);
      return r ? '1u' : '0u';
    }
    if (kindOf(v.type) !== 'float') return op === 'isnan' ? '0u' : '1u';
    return `select(0u, 1u, f_${op}(${v.code}))`;
  }
}

function arithmetic(op: string, a: readonly string[], t: 'f32' | 'i32' | 'u32'): string {
  const [x, y] = a as [string, string];
  if (BUILTIN_MATH.has(op)) return `${op}(${x})`;
  if (op in HELPER_MATH) return `${HELPER_MATH[op]}(${x})`;
  if (op in TYPED_OP) return `${TYPED_OP[op]![t]}(${x}, ${y})`;
  switch (op) {
    case 'add':
      return `(${x} + ${y})`;
    case 'subtract':
      return `(${x} - ${y})`;
    case 'multiply':
      return `(${x} * ${y})`;
    case 'divide':
      return `(${x} / ${y})`;
    case 'negative':
      return t === 'u32' ? `(0u - ${x})` : `(-${x})`;
    case 'abs':
      return t === 'u32' ? x : `abs(${x})`;
    case 'sign':
      return t === 'f32'
        ? `f_sign(${x})`
        : t === 'i32'
          ? `sign(${x})`
          : `select(0u, 1u, ${x} > 0u)`;
    case 'floor':
    case 'ceil':
    case 'round':
    case 'trunc':
      return t === 'f32' ? `${op}(${x})` : x;
    default:
      throw new Error(`ew: unknown elementwise op '${op}'`);
  }
}

/** Ops arithmetic() and opCode() compile; dispatch declines expressions with any other. */
const WGSL_OPS: ReadonlySet<string> = new Set([
  ...Object.keys(COMPARISONS),
  ...BUILTIN_MATH,
  ...Object.keys(HELPER_MATH),
  ...Object.keys(TYPED_OP),
  ...['logicalAnd', 'logicalOr', 'logicalNot', 'isnan', 'isfinite', 'astype', 'where'],
  ...['add', 'subtract', 'multiply', 'divide', 'negative', 'abs', 'sign'],
  ...['floor', 'ceil', 'round', 'trunc'],
]);

/**
 * The first op in `e` with no WGSL translation, if any (webgpu's canRun declines it, so
 * dispatch falls back to a CPU backend, or an explicit `{ backend: 'webgpu' }` fails).
 * @example
 * unsupportedWgslOp({ op: 'nextafter', args: [{ in: 0 }, { in: 1 }], dtype: 'float32' }); // 'nextafter'
 */
export function unsupportedWgslOp(e: Expr): string | undefined {
  if (!('op' in e)) return undefined;
  if (!WGSL_OPS.has(e.op)) return e.op;
  for (const a of e.args) {
    const bad = unsupportedWgslOp(a);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

/** The u32 an element stores: float16 encoded (a float16 input passed through keeps its bits). */
function outputBits(s: EwShaderSpec, value: string): string {
  const d = s.outDtype;
  if (d === 'float16') {
    const e = s.expr;
    return 'in' in e && s.inputDtypes[e.in] === 'float16'
      ? `raw${e.in}(i)`
      : `f16_encode(${value})`;
  }
  return isByteDtype(d) || wgslType('ew', d) === 'u32' ? value : `bitcast<u32>(${value})`;
}

/** The pipeline cache key of a spec. */
export function ewShaderKey(s: EwShaderSpec): string {
  return `ew|${exprKey(s.expr)}|${s.inputDtypes.join(',')}|${s.modes.join('')}|${s.outDtype}|${s.ndim}`;
}

function loadFn(k: number, d: DType, mode: InputMode, gIndex: number): string {
  const t = wgslType('ew', d);
  const idx = mode === 's' ? '0u' : mode === 'c' ? 'i' : `offset_g(i, ${gIndex}u)`;
  if (d === 'float16') {
    return [
      `fn raw${k}(i: u32) -> u32 { let j = ${idx}; return (in${k}[j >> 1u] >> ((j & 1u) * 16u)) & 0xffffu; }`,
      `fn load${k}(i: u32) -> f32 { return f16_decode(raw${k}(i)); }`,
    ].join('\n');
  }
  const read = isByteDtype(d)
    ? `(in${k}[j >> 2u] >> ((j & 3u) * 8u)) & 255u`
    : t === 'u32'
      ? `in${k}[j]`
      : `bitcast<${t}>(in${k}[j])`;
  return `fn load${k}(i: u32) -> ${t} { let j = ${idx}; return ${read}; }`;
}

/**
 * The WGSL of an elementwise shader. Bindings: 0 = meta (u32: n, ndim, shape, then the
 * strides of each 'g' input), 1 = output words, 2… = the inputs the expression reads, in
 * order. Packed outputs are written a whole word per invocation: four elements for uint8
 * and bool, two for float16.
 */
export function ewShaderSource(s: EwShaderSpec): { code: string; inputs: number[] } {
  const b = new WgslBody(s.inputDtypes);
  const root = b.emit(s.expr);
  wgslType('ew', s.outDtype);
  const used = [...b.used].sort((p, q) => p - q);
  const gInputs = used.filter((k) => s.modes[k] === 'g');
  const decls = used.map(
    (k, j) => `@group(0) @binding(${j + 2}) var<storage, read> in${k}: array<u32>;`,
  );
  const loads = used.map((k) => loadFn(k, s.inputDtypes[k]!, s.modes[k]!, gInputs.indexOf(k)));
  const value =
    root.type === 'weak'
      ? wgslLiteral(root.value!, s.outDtype)
      : wgslConvert(root.code, root.type, s.outDtype);
  const bits = outputBits(s, value);
  const per = elementsPerWord(s.outDtype);
  const width = 32 / per;
  const main =
    per > 1
      ? `  if (w * ${per}u >= n) { return; }
  var word = 0u;
  for (var e = 0u; e < ${per}u; e++) {
    let i = w * ${per}u + e;
    if (i >= n) { break; }
    word = word | ((element(i) & ${2 ** width - 1}u) << (${width}u * e));
  }
  out[w] = word;`
      : `  if (w >= n) { return; }
  out[w] = element(w);`;
  const code = `${WGSL_SCALAR_PRELUDE}
@group(0) @binding(0) var<storage, read> info: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
${decls.join('\n')}
fn offset_g(i: u32, g: u32) -> u32 {
  let nd = info[1];
  var rem = i;
  var off = 0u;
  for (var ax = i32(nd) - 1; ax >= 0; ax--) {
    let n = info[2u + u32(ax)];
    off = off + (rem % n) * info[2u + nd + g * nd + u32(ax)];
    rem = rem / n;
  }
  return off;
}
${loads.join('\n')}
fn element(i: u32) -> u32 {
${used.map((k) => `  let v${k} = load${k}(i);`).join('\n')}
${b.lines.map((l) => `  ${l}`).join('\n')}
  return ${bits};
}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let n = info[0];
  let w = gid.x + gid.y * nwg.x * 256u;
${main}
}
`;
  return { code, inputs: used };
}
