// The JS source of elementwise ops on complex values: each complex value is two locals (re,
// im). Formulas follow C99 Annex G / NumPy's npymath where they matter (division, sqrt, log).

import { type DType, isComplex } from '../../../array/dtype.ts';

/** A complex value's code as its two parts (a real value has im '0'). */
export interface Pair {
  readonly re: string;
  readonly im: string;
}

/** Elementwise ops that take complex operands (every other one is refused at build time). */
export const COMPLEX_OPS: ReadonlySet<string> = new Set([
  'add',
  'subtract',
  'multiply',
  'divide',
  'negative',
  'positive',
  'square',
  'reciprocal',
  'conj',
  'real',
  'imag',
  'abs',
  'sign',
  'exp',
  'log',
  'sqrt',
  'sin',
  'cos',
  'tanh',
  'equal',
  'notEqual',
  'isnan',
  'isfinite',
  'isinf',
  'astype',
  'where',
]);

/** Ops whose complex form gives a real (or bool) value. */
const REAL_VALUED: ReadonlySet<string> = new Set([
  'real',
  'imag',
  'abs',
  'equal',
  'notEqual',
  'isnan',
  'isfinite',
  'isinf',
]);

/** Helpers computing a complex result write its parts here (the loop reads them at once). */
const C = new Float64Array(2);

/**
 * The value of op `op` on complex pairs `a` (already converted to the op's working type), as
 * statements plus the result: a pair for complex results, `value` for real ones. `t` names
 * the node's locals.
 */
export function complexOpCode(
  op: string,
  a: readonly Pair[],
  t: string,
): { lines: string[]; pair?: Pair; value?: string } {
  const [x, y] = a as [Pair, Pair];
  const viaHelper = (call: string): { lines: string[]; pair: Pair } => ({
    lines: [`${call};`],
    pair: { re: 'H.C[0]', im: 'H.C[1]' },
  });
  switch (op) {
    case 'add':
      return { lines: [], pair: { re: `(${x.re} + ${y.re})`, im: `(${x.im} + ${y.im})` } };
    case 'subtract':
      return { lines: [], pair: { re: `(${x.re} - ${y.re})`, im: `(${x.im} - ${y.im})` } };
    case 'multiply':
      return {
        lines: [],
        pair: {
          re: `(${x.re} * ${y.re} - ${x.im} * ${y.im})`,
          im: `(${x.re} * ${y.im} + ${x.im} * ${y.re})`,
        },
      };
    case 'square':
      return {
        lines: [],
        pair: { re: `(${x.re} * ${x.re} - ${x.im} * ${x.im})`, im: `(2 * ${x.re} * ${x.im})` },
      };
    case 'negative':
      return { lines: [], pair: { re: `(-${x.re})`, im: `(-${x.im})` } };
    case 'positive':
    case 'astype':
      return { lines: [], pair: x };
    case 'conj':
      return { lines: [], pair: { re: x.re, im: `(-${x.im})` } };
    case 'divide':
      return viaHelper(`H.cdiv(${x.re}, ${x.im}, ${y.re}, ${y.im})`);
    case 'reciprocal':
      return viaHelper(`H.cdiv(1, 0, ${x.re}, ${x.im})`);
    case 'exp':
    case 'log':
    case 'sqrt':
    case 'sin':
    case 'cos':
    case 'tanh':
    case 'sign':
      return viaHelper(`H.c${op}(${x.re}, ${x.im})`);
    case 'where': {
      const [c, p, q] = a as [Pair, Pair, Pair];
      const cond = `${t}c`;
      return {
        lines: [`const ${cond} = ${c.re} !== 0 || ${c.im} !== 0;`],
        pair: { re: `(${cond} ? ${p.re} : ${q.re})`, im: `(${cond} ? ${p.im} : ${q.im})` },
      };
    }
    default:
      return { lines: [], value: realValuedCode(op, x, y) };
  }
}

function realValuedCode(op: string, x: Pair, y: Pair): string {
  switch (op) {
    case 'real':
      return x.re;
    case 'imag':
      return x.im;
    case 'abs':
      return `Math.hypot(${x.re}, ${x.im})`;
    case 'equal':
      return `(${x.re} === ${y.re} && ${x.im} === ${y.im} ? 1 : 0)`;
    case 'notEqual':
      return `(${x.re} !== ${y.re} || ${x.im} !== ${y.im} ? 1 : 0)`;
    case 'isnan':
      return `(${x.re} !== ${x.re} || ${x.im} !== ${x.im} ? 1 : 0)`;
    case 'isinf':
      return `(Math.abs(${x.re}) === Infinity || Math.abs(${x.im}) === Infinity ? 1 : 0)`;
    case 'isfinite':
      return `(${x.re} - ${x.re} === 0 && ${x.im} - ${x.im} === 0 ? 1 : 0)`;
    default:
      throw new Error(`ew: op '${op}' has no complex form`);
  }
}

/** True where op `op` gives a real value from complex operands. */
export const complexToReal = (op: string): boolean => REAL_VALUED.has(op);

/** True when a value of this dtype is two locals in the generated code. */
export const isPair = (t: DType | 'weak'): boolean => t !== 'weak' && isComplex(t);

function setC(re: number, im: number): void {
  C[0] = re;
  C[1] = im;
}

/** Complex scalar functions the generated loops call; results land in `C` (re, im). */
export const complexHelpers = {
  C,
  /** (a + bi) / (c + di) by Smith's method (as npymath), scaled to avoid overflow. */
  cdiv(a: number, b: number, c: number, d: number): void {
    const ac = Math.abs(c);
    const ad = Math.abs(d);
    if (ac >= ad) {
      if (ac === 0 && ad === 0) {
        // division by zero: componentwise, as npymath gives (inf or nan parts)
        setC(a / ac, b / ac);
        return;
      }
      const rat = d / c;
      const scl = 1 / (c + d * rat);
      setC((a + b * rat) * scl, (b - a * rat) * scl);
    } else {
      const rat = c / d;
      const scl = 1 / (d + c * rat);
      setC((a * rat + b) * scl, (b * rat - a) * scl);
    }
  },
  cexp(a: number, b: number): void {
    if (b === 0) {
      setC(Math.exp(a), b);
      return;
    }
    const r = Math.exp(a);
    setC(r * Math.cos(b), r * Math.sin(b));
  },
  clog(a: number, b: number): void {
    setC(Math.log(Math.hypot(a, b)), Math.atan2(b, a));
  },
  /** The principal square root (branch cut on the negative real axis; sign of im kept). */
  csqrt(a: number, b: number): void {
    if (a === 0 && b === 0) {
      setC(0, b);
      return;
    }
    if (b === Infinity || b === -Infinity) {
      setC(Infinity, b);
      return;
    }
    if (Number.isNaN(a)) {
      setC(a, Number.NaN);
      return;
    }
    if (a === Infinity) {
      setC(a, Number.isNaN(b) ? b : b < 0 || Object.is(b, -0) ? -0 : 0);
      return;
    }
    if (a === -Infinity) {
      setC(Number.isNaN(b) ? b : 0, b < 0 || Object.is(b, -0) ? -Infinity : Infinity);
      return;
    }
    const t = Math.sqrt((Math.abs(a) + Math.hypot(a, b)) / 2);
    if (a >= 0) setC(t, b / (2 * t));
    else setC(Math.abs(b) / (2 * t), b < 0 || Object.is(b, -0) ? -t : t);
  },
  csin(a: number, b: number): void {
    setC(Math.sin(a) * Math.cosh(b), Math.cos(a) * Math.sinh(b));
  },
  ccos(a: number, b: number): void {
    setC(Math.cos(a) * Math.cosh(b), -Math.sin(a) * Math.sinh(b));
  },
  /** tanh(a + bi) = (tanh a + i tan b (1 - tanh² a)) / (1 + tanh² a tan² b) (Kahan's form). */
  ctanh(a: number, b: number): void {
    if (Math.abs(a) > 22) {
      // e^-2|a| is below float64's epsilon: the value is ±1 and a signed zero
      setC(Math.sign(a), 0 * Math.sin(2 * b));
      return;
    }
    const t = Math.tan(b);
    const beta = 1 + t * t;
    const s = Math.sinh(a);
    const rho = Math.sqrt(1 + s * s);
    const den = 1 + beta * s * s;
    setC((beta * rho * s) / den, t / den);
  },
  /** z / |z| (0 for z = 0; NaN parts for NaN), as NumPy 2's sign. */
  csign(a: number, b: number): void {
    const r = Math.hypot(a, b);
    if (r === 0) setC(0, 0);
    else if (r === Infinity) {
      // an infinite part: its direction, NaN where both are infinite (NumPy's result)
      const ia = Math.abs(a) === Infinity;
      const ib = Math.abs(b) === Infinity;
      if (ia && ib) setC(Number.NaN, Number.NaN);
      else setC(ia ? Math.sign(a) : 0, ib ? Math.sign(b) : 0);
    } else setC(a / r, b / r);
  },
};
