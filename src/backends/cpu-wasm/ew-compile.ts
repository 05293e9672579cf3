// Compiles an elementwise expression (cpu-js's Expr IR) into a WebAssembly SIMD loop over
// scratch tiles, reproducing ew-codegen.ts's JS semantics bit for bit (NaN payloads aside).
//
// Each loop step handles 4 elements. A value is a float32 vector (one v128), a float64 pair
// (two v128: elements 0-1, 2-3) or a bool mask (i32x4 lanes of all ones / zeros). float32
// nodes whose arguments are all float32 use f32x4 arithmetic: for + - * / sqrt min max and
// rounding that equals JS's double result passed through Math.fround (double rounding is
// innocuous at 53 ≥ 2·24+2 bits). Ops with JS-only semantics (fmod, pow, exp…) call the
// very JS functions cpu-js calls, lane by lane.

import { type DType, kindOf, resultType } from '../../array/dtype.ts';
import { ewHelpers } from '../cpu-js/elementwise/elementwise.ts';
import { castScalar, EXACT, exprKey } from '../cpu-js/elementwise/ew-codegen.ts';
import type { Expr } from '../cpu-js/elementwise/expr.ts';
import { emitModule, F64, type FuncType, fx, I32, op, splatConst, V128, v } from './wasm-emit.ts';

/** Thrown when an expression uses something this compiler does not handle. */
export class Unsupported extends Error {}

type Lane = 'f32' | 'f64';

/** A computed value: its locals (f64 has two) or a weak scalar. */
type Val =
  | {
      readonly kind: 'f32' | 'f64' | 'mask';
      readonly locals: readonly number[];
      readonly dtype: DType;
    }
  | { readonly kind: 'weak'; readonly value: number };

const COMPARE: Record<string, string> = {
  equal: 'eq',
  notEqual: 'ne',
  less: 'lt',
  lessEqual: 'le',
  greater: 'gt',
  greaterEqual: 'ge',
};
const NATIVE_BIN: Record<string, string> = {
  add: 'add',
  subtract: 'sub',
  multiply: 'mul',
  divide: 'div',
  maximum: 'max',
  minimum: 'min',
};
const NATIVE_UN: Record<string, string> = {
  negative: 'neg',
  abs: 'abs',
  sqrt: 'sqrt',
  floor: 'floor',
  ceil: 'ceil',
  trunc: 'trunc',
  round: 'nearest',
};
/** JS functions called per lane, exactly those the cpu-js loops call. */
const IMPORTED: Record<string, (...a: number[]) => number> = {
  floorDivide: ewHelpers.floorDivide,
  remainder: ewHelpers.remainder,
  pow: ewHelpers.pow,
  exp: Math.exp,
  expm1: Math.expm1,
  log: Math.log,
  log1p: Math.log1p,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  tanh: Math.tanh,
  sinh: Math.sinh,
  cosh: Math.cosh,
  acos: Math.acos,
  asin: Math.asin,
  atan: Math.atan,
  acosh: Math.acosh,
  asinh: Math.asinh,
  atanh: Math.atanh,
  log2: Math.log2,
  log10: Math.log10,
  atan2: Math.atan2,
  hypot: Math.hypot,
  copysign: ewHelpers.copysign,
  logaddexp: ewHelpers.logaddexp,
};

/** Every op name the compiler accepts. */
export const EW_OPS: readonly string[] = [
  ...Object.keys(COMPARE),
  ...Object.keys(NATIVE_BIN),
  ...Object.keys(NATIVE_UN),
  ...Object.keys(IMPORTED),
  'sign',
  'where',
  'logicalAnd',
  'logicalOr',
  'logicalNot',
  'isnan',
  'isfinite',
  'astype',
];

const NARROW = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27];
const HIGH_HALF = [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];
const JOIN_LOW = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
const ALL_ONES = new Array<number>(16).fill(255);
const ZEROS = new Array<number>(16).fill(0);

/** Per argument, the dtype a weak scalar there is cast to (ew-codegen's scalarCasts). */
function scalarCasts(opName: string, d: DType, args: readonly Val[]): (DType | null)[] {
  if (opName in COMPARE) {
    const rt = resultType(...args.map((a) => (a.kind === 'weak' ? 0.5 : a.dtype)));
    const cd = kindOf(rt) === 'float' ? rt : null;
    return args.map(() => cd);
  }
  if (opName === 'where') return [null, d, d];
  if (
    opName.startsWith('logical') ||
    opName === 'isnan' ||
    opName === 'isfinite' ||
    opName === 'astype'
  ) {
    return args.map(() => null);
  }
  return args.map(() => d);
}

const isF32Exact = (x: number): boolean => Number.isNaN(x) || Math.fround(x) === x;

/** What a compiled loop is specialised for. */
export interface WasmLoopSpec {
  readonly expr: Expr;
  readonly inputDtypes: readonly DType[];
  /** Per input: one value for the whole block (`true`) or a contiguous tile. */
  readonly scalar: readonly boolean[];
  readonly outDtype: DType;
  /** Bytes between input slots in scratch memory; slot k starts at k·slotBytes. */
  readonly slotBytes: number;
  /** Copies of the 4-element body per loop step (default UNROLL). */
  readonly unroll?: number;
}

/** A compiled loop: module bytes, the JS imports it needs, and the inputs it reads. */
export interface CompiledLoop {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly imports: Record<string, (...a: number[]) => number>;
  readonly used: readonly number[];
  /** Scratch slots it touches (inputs, then the output slot). */
  readonly slots: number;
}

/** Body copies per loop step: 8 elements per step halves the loop's own instructions. */
export const UNROLL = 2;
/** Bytes a loop may write past its n-th output element (4·UNROLL - 1 float64 lanes, rounded). */
export const OVERRUN_BYTES = 4 * UNROLL * 8;

/** `run(n, inBase, outBase)`: input slot k at inBase + k·slotBytes, the output at outBase. */
const FN_RUN: FuncType = { params: [I32, I32, I32], results: [] };
const IN_BASE = 1;
const OUT_BASE = 2;
/** Locals after the params: element index, input addresses for 4- and 8-byte lanes, output address. */
const I = 3;
const IN4 = 4;
const IN8 = 5;
const OUT = 6;
const PARAMS = FN_RUN.params.length;

class LoopBuilder {
  readonly pre: number[] = [];
  readonly body: number[] = [];
  readonly locals: number[] = [I32, I32, I32, I32];
  readonly used = new Set<number>();
  readonly importNames: string[] = [];
  private memo = new Map<string, Val>();
  private readonly scalars = new Map<number, Val>();
  /** Which of the unrolled copies of the body is being emitted (4 elements each). */
  private copy = 0;

  /** Start the body of elements [4u, 4u + 4) of each loop step. */
  startCopy(u: number): void {
    this.copy = u;
    this.memo = new Map();
  }
  private readonly consts = new Map<string, number>();

  constructor(private readonly spec: WasmLoopSpec) {}

  private local(): number {
    return this.locals.push(V128) - 1 + PARAMS;
  }

  /** A hoisted v128 constant. */
  private constLocal(bytes: readonly number[]): number {
    const key = bytes.join(',');
    let l = this.consts.get(key);
    if (l === undefined) {
      l = this.local();
      this.pre.push(...v.const(bytes), ...op.set(l));
      this.consts.set(key, l);
    }
    return l;
  }

  private splat(lane: Lane, x: number): number {
    return this.constLocal(splatConst(lane, x).slice(2));
  }

  private store(code: readonly number[]): number {
    const l = this.local();
    this.body.push(...code, ...op.set(l));
    return l;
  }

  emit(e: Expr, isRoot = false): Val {
    if ('const' in e) return { kind: 'weak', value: e.const };
    const key = exprKey(e);
    const hit = this.memo.get(key);
    if (hit) return hit;
    // cpu-js leaves rounding at the root to the typed-array store: a float32 root stored
    // as float64 keeps its unrounded double value.
    const unrounded =
      isRoot &&
      this.spec.outDtype === 'float64' &&
      !('in' in e) &&
      e.dtype === 'float32' &&
      !EXACT.has(e.op);
    const val = 'in' in e ? this.input(e.in) : this.node(e, unrounded ? 'float64' : e.dtype);
    this.memo.set(key, val);
    return val;
  }

  private input(k: number): Val {
    const d = this.spec.inputDtypes[k];
    if (d === undefined) throw new Unsupported(`ew: expression reads input ${k}`);
    if (d !== 'float32' && d !== 'float64') throw new Unsupported(`input dtype ${d}`);
    this.used.add(k);
    const kind = d === 'float32' ? 'f32' : 'f64';
    const slot = k * this.spec.slotBytes;
    if (this.spec.scalar[k]) {
      const hoisted = this.scalars.get(k);
      if (hoisted) return hoisted;
      const l = this.local();
      const load = kind === 'f32' ? v.load32Splat(slot) : v.load64Splat(slot);
      this.pre.push(...op.get(IN_BASE), ...load, ...op.set(l));
      const val: Val = { kind, locals: kind === 'f32' ? [l] : [l, l], dtype: d };
      this.scalars.set(k, val);
      return val;
    }
    const base = slot + this.copy * (kind === 'f32' ? 16 : 32);
    if (kind === 'f32')
      return { kind, locals: [this.store([...op.get(IN4), ...v.load(base)])], dtype: d };
    const lo = this.store([...op.get(IN8), ...v.load(base)]);
    const hi = this.store([...op.get(IN8), ...v.load(base + 16)]);
    return { kind, locals: [lo, hi], dtype: d };
  }

  /** `x` as float lanes of `lane` (weak scalars splatted as given, masks as 0/1). */
  toLane(x: Val, lane: Lane): number[] {
    if (x.kind === 'weak') {
      const l = this.splat(lane, x.value);
      return lane === 'f32' ? [l] : [l, l];
    }
    if (x.kind === lane) return [...x.locals];
    if (x.kind === 'mask') {
      const one = this.splat(lane, 1);
      const m = x.locals[0]!;
      if (lane === 'f32') return [this.store([...op.get(m), ...op.get(one), ...v.and])];
      return [
        this.store([...op.get(m), ...v.extendLow, ...op.get(one), ...v.and]),
        this.store([...op.get(m), ...v.extendHigh, ...op.get(one), ...v.and]),
      ];
    }
    if (lane === 'f64') {
      const s = x.locals[0]!;
      return [
        this.store([...op.get(s), ...v.promote]),
        this.store([...op.get(s), ...op.get(s), ...v.shuffle(HIGH_HALF), ...v.promote]),
      ];
    }
    const [lo, hi] = x.locals as [number, number];
    return [
      this.store([...op.get(lo), ...v.demote, ...op.get(hi), ...v.demote, ...v.shuffle(JOIN_LOW)]),
    ];
  }

  /** Truthiness (`x !== 0`) as a mask. */
  toMask(x: Val): number {
    if (x.kind === 'mask') return x.locals[0]!;
    if (x.kind === 'weak') return this.constLocal(x.value !== 0 ? ALL_ONES : ZEROS);
    const zero = this.splat(x.kind, 0);
    return this.cmpMask(x.kind, 'ne', [x.locals, x.locals.map(() => zero)]);
  }

  private cmpMask(lane: Lane, cmp: string, [a, b]: readonly (readonly number[])[]): number {
    const f = fx[lane][cmp]!;
    if (lane === 'f32') return this.store([...op.get(a![0]!), ...op.get(b![0]!), ...f]);
    return this.store([
      ...op.get(a![0]!),
      ...op.get(b![0]!),
      ...f,
      ...op.get(a![1]!),
      ...op.get(b![1]!),
      ...f,
      ...v.shuffle(NARROW),
    ]);
  }

  /** Apply `f` (one code sequence per v128) to each half. */
  private lanewise(lane: Lane, f: (h: number) => number[]): number[] {
    const halves = lane === 'f32' ? 1 : 2;
    const out: number[] = [];
    for (let h = 0; h < halves; h++) out.push(this.store(f(h)));
    return out;
  }

  private importIndex(name: string): number {
    let i = this.importNames.indexOf(name);
    if (i < 0) i = this.importNames.push(name) - 1;
    return i;
  }

  /** A JS function called on each of the 4 elements (computed in float64 as JS does). */
  private callEach(lane: Lane, name: string, args: readonly (readonly number[])[]): number[] {
    const fn = this.importIndex(name);
    if (lane === 'f64') {
      return this.lanewise(lane, (h) => {
        const code: number[] = [];
        for (let j = 0; j < 2; j++) {
          for (const a of args) code.push(...op.get(a[h]!), ...v.f64Extract(j));
          code.push(...op.call(fn));
          code.push(...(j === 0 ? v.f64Splat : v.f64Replace(1)));
        }
        return code;
      });
    }
    return this.lanewise(lane, () => {
      const code: number[] = [];
      for (let j = 0; j < 4; j++) {
        for (const a of args) code.push(...op.get(a[0]!), ...v.f32Extract(j), 0xbb);
        code.push(...op.call(fn), 0xb6);
        code.push(...(j === 0 ? v.f32Splat : v.f32Replace(j)));
      }
      return code;
    });
  }

  private numeric(lane: Lane, name: string, args: readonly (readonly number[])[]): number[] {
    const F = fx[lane];
    if (name in NATIVE_BIN) {
      const f = F[NATIVE_BIN[name]!]!;
      return this.lanewise(lane, (h) => [...op.get(args[0]![h]!), ...op.get(args[1]![h]!), ...f]);
    }
    if (name in NATIVE_UN) {
      const f = F[NATIVE_UN[name]!]!;
      return this.lanewise(lane, (h) => [...op.get(args[0]![h]!), ...f]);
    }
    if (name in IMPORTED) return this.callEach(lane, name, args);
    if (name === 'sign') {
      const [one, mone, zero] = [this.splat(lane, 1), this.splat(lane, -1), this.splat(lane, 0)];
      return this.lanewise(lane, (h) => {
        const x = op.get(args[0]![h]!);
        const cmp = (c: string) => [...x, ...op.get(zero), ...F[c]!];
        // x > 0 ? 1 : x < 0 ? -1 : x === 0 ? 0 : x   (so -0 gives +0 and NaN stays)
        return [
          ...op.get(one),
          ...op.get(mone),
          ...op.get(zero),
          ...x,
          ...cmp('eq'),
          ...v.bitselect,
          ...cmp('lt'),
          ...v.bitselect,
          ...cmp('gt'),
          ...v.bitselect,
        ];
      });
    }
    throw new Unsupported(`op ${name}`);
  }

  /** An op node; `d` is its dtype, except float64 for an unrounded float32 root. */
  private node(e: Extract<Expr, { op: string }>, d: DType): Val {
    if (d !== 'float32' && d !== 'float64' && d !== 'bool') throw new Unsupported(`dtype ${d}`);
    const raw = e.args.map((a) => this.emit(a));
    const casts = scalarCasts(e.op, e.dtype, raw);
    const args = raw.map((a, i): Val => {
      const c = casts[i];
      return a.kind === 'weak' && c ? { kind: 'weak', value: castScalar(a.value, c) } : a;
    });
    const mask = (l: number): Val => ({ kind: 'mask', locals: [l], dtype: 'bool' });
    const name = e.op;
    if (name in COMPARE) {
      const lane: Lane = args.every((a) =>
        a.kind === 'weak' ? isF32Exact(a.value) : a.kind !== 'f64',
      )
        ? 'f32'
        : 'f64';
      return mask(
        this.cmpMask(
          lane,
          COMPARE[name]!,
          args.map((a) => this.toLane(a, lane)),
        ),
      );
    }
    const m = (i: number) => this.toMask(args[i]!);
    switch (name) {
      case 'logicalAnd':
        return mask(this.store([...op.get(m(0)), ...op.get(m(1)), ...v.and]));
      case 'logicalOr':
        return mask(this.store([...op.get(m(0)), ...op.get(m(1)), ...v.or]));
      case 'logicalNot':
        return mask(this.store([...op.get(m(0)), ...v.not]));
      case 'isnan':
      case 'isfinite':
        return mask(this.nanTest(name, args[0]!));
      case 'astype':
        return this.convert(args[0]!, d);
      case 'where':
        return this.where(d, m(0), args[1]!, args[2]!);
    }
    if (d === 'bool') {
      if (name === 'floor' || name === 'ceil' || name === 'round' || name === 'trunc')
        return mask(m(0));
      const lane: Lane = args.some((a) => a.kind === 'f64') ? 'f64' : 'f32';
      const r = this.numeric(
        lane,
        name,
        args.map((a) => this.toLane(a, lane)),
      );
      return mask(
        this.toMask({ kind: lane, locals: r, dtype: lane === 'f32' ? 'float32' : 'float64' }),
      );
    }
    const lane: Lane = d === 'float32' && !args.some((a) => a.kind === 'f64') ? 'f32' : 'f64';
    const r = this.numeric(
      lane,
      name,
      args.map((a) => this.toLane(a, lane)),
    );
    return this.convert(
      { kind: lane, locals: r, dtype: lane === 'f32' ? 'float32' : 'float64' },
      d,
    );
  }

  private nanTest(name: string, x: Val): number {
    if (x.kind === 'weak') {
      const t = name === 'isnan' ? Number.isNaN(x.value) : Number.isFinite(x.value);
      return this.constLocal(t ? ALL_ONES : ZEROS);
    }
    if (x.kind === 'mask') return this.constLocal(name === 'isnan' ? ZEROS : ALL_ONES);
    const F = fx[x.kind];
    const zero = this.splat(x.kind, 0);
    const diff = x.locals.map((l) => this.store([...op.get(l), ...op.get(l), ...F.sub!]));
    if (name === 'isnan') return this.cmpMask(x.kind, 'ne', [x.locals, x.locals]);
    return this.cmpMask(x.kind, 'eq', [diff, diff.map(() => zero)]);
  }

  /** `x` stored as dtype `d` (float32 rounds as Math.fround, bool tests nonzero). */
  convert(x: Val, d: DType): Val {
    if (d === 'bool') return { kind: 'mask', locals: [this.toMask(x)], dtype: 'bool' };
    if (x.kind === 'weak') x = { kind: 'weak', value: castScalar(x.value, d) };
    const lane: Lane = d === 'float32' ? 'f32' : 'f64';
    return { kind: lane, locals: this.toLane(x, lane), dtype: d };
  }

  private where(d: DType, cond: number, y: Val, z: Val): Val {
    if (d === 'bool') {
      const r = this.store([
        ...op.get(this.toMask(y)),
        ...op.get(this.toMask(z)),
        ...op.get(cond),
        ...v.bitselect,
      ]);
      return { kind: 'mask', locals: [r], dtype: 'bool' };
    }
    const lane: Lane = d === 'float32' && y.kind !== 'f64' && z.kind !== 'f64' ? 'f32' : 'f64';
    const [ys, zs] = [this.toLane(y, lane), this.toLane(z, lane)];
    const conds =
      lane === 'f32'
        ? [cond]
        : [
            this.store([...op.get(cond), ...v.extendLow]),
            this.store([...op.get(cond), ...v.extendHigh]),
          ];
    const r = this.lanewise(lane, (h) => [
      ...op.get(ys[h]!),
      ...op.get(zs[h]!),
      ...op.get(conds[h]!),
      ...v.bitselect,
    ]);
    return this.convert(
      { kind: lane, locals: r, dtype: lane === 'f32' ? 'float32' : 'float64' },
      d,
    );
  }
}

/** `local = base + (i << shift)`. */
function address(local: number, base: number, shift: number): number[] {
  return [
    ...op.get(base),
    ...op.get(I),
    ...op.i32(shift),
    ...op.i32Shl,
    ...op.i32Add,
    ...op.set(local),
  ];
}

/**
 * Compile a loop `run(n, inBase, outBase)`: for element i < n read input slot k's element i
 * at byte inBase + k·slotBytes, compute, and write element i of the output at outBase. It steps
 * by 4·unroll, so up to 4·unroll - 1 lanes past n are computed and written after the output
 * (callers leave room: OVERRUN_BYTES).
 * @example
 * compileEwLoop({ expr: { in: 0 }, inputDtypes: ['float64'], scalar: [false], outDtype: 'float64', slotBytes: 32768 });
 */
export function compileEwLoop(spec: WasmLoopSpec): CompiledLoop {
  if (spec.outDtype !== 'float32' && spec.outDtype !== 'float64') {
    throw new Unsupported(`output dtype ${spec.outDtype}`);
  }
  const b = new LoopBuilder(spec);
  const unroll = spec.unroll ?? UNROLL;
  const store: number[] = [];
  for (let u = 0; u < unroll; u++) {
    b.startCopy(u);
    const root = b.convert(b.emit(spec.expr, true), spec.outDtype);
    const loc = (root as { locals: readonly number[] }).locals;
    const at = u * (spec.outDtype === 'float32' ? 16 : 32);
    store.push(...op.get(OUT), ...op.get(loc[0]!), ...v.store(at));
    if (spec.outDtype === 'float64')
      store.push(...op.get(OUT), ...op.get(loc[1]!), ...v.store(at + 16));
  }
  const code = [
    ...b.pre,
    ...op.block,
    ...op.loop,
    ...op.get(I),
    ...op.get(0),
    ...op.i32GeS,
    ...op.brIf(1),
    ...address(IN4, IN_BASE, 2),
    ...address(IN8, IN_BASE, 3),
    ...address(OUT, OUT_BASE, spec.outDtype === 'float32' ? 2 : 3),
    ...b.body,
    ...store,
    ...op.get(I),
    ...op.i32(4 * unroll),
    ...op.i32Add,
    ...op.set(I),
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
  const slots = spec.inputDtypes.length + 1;
  const pages = Math.ceil((slots * spec.slotBytes) / 65536);
  const imports = b.importNames.map((n) => ({
    name: n,
    type: {
      // the JS function's arity: Math.atan2, Math.hypot and the binary helpers take two
      params: IMPORTED[n]!.length === 2 ? [F64, F64] : [F64],
      results: [F64],
    },
  }));
  const bytes = emitModule({
    memoryPages: pages,
    imports,
    funcs: [{ type: FN_RUN, locals: b.locals.slice(0), code, export: 'run' }],
  });
  const importFns: Record<string, (...a: number[]) => number> = {};
  for (const n of b.importNames) importFns[n] = IMPORTED[n]!;
  return { bytes, imports: importFns, used: [...b.used].sort((p, q) => p - q), slots };
}
