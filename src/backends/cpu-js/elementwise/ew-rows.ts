// Compiled row loops of fused sums: an elementwise expression evaluated along one row of its
// inputs and added straight into the reduction (no block, no scratch), one loop per
// expression, input dtypes and input modes.
//
// A fold row adds into four lanes as sumRuns.foldRows does over the same run (element j of
// a run in lane j % 4, the n % 4 tail in lane 0). Rows that continue one run go four at a
// time: each column's four values are added first, then into lane (column % 4) — four
// memory streams instead of one, at the price of an order of its own (fixed by the block's
// shape, so still deterministic; within rounding of the unfused sum). An accumulate row adds
// element i into acc[o + i], rows in order (bit-identical to the unfused kernel).

import type { DType, TypedArray } from '../../../array/dtype.ts';
import { ewHelpers } from './elementwise.ts';
import { elementSource } from './ew-codegen.ts';
import type { Expr } from './expr.ts';

/** How a row reads input k: 'c' stride 1, 'g' stride st[k], 's' one value (stride 0). */
export type RowMode = 'c' | 'g' | 's';

/**
 * Fold `rows` rows of `len` elements into `lane` (four sums) and on into `acc`. Row r of
 * input k starts at p[k] + r·rs[k]; its element i is at that + i·st[k]. The first row starts
 * at position j of a run of `n`; whenever a run completes, its lanes are added to acc[o]
 * (as sumRuns.foldRows does), the lanes restart and o advances by `os`.
 */
export type FoldRows = (
  ins: readonly TypedArray[],
  p: readonly number[],
  st: readonly number[],
  rs: readonly number[],
  rows: number,
  len: number,
  lane: Float64Array,
  j: number,
  n: number,
  acc: TypedArray,
  o: number,
  os: number,
) => void;

/** Add row r's element i into acc[o + r·os + i], for `rows` rows of `len` (inputs as FoldRows). */
export type AccumulateRows = (
  ins: readonly TypedArray[],
  p: readonly number[],
  st: readonly number[],
  rs: readonly number[],
  rows: number,
  len: number,
  acc: TypedArray,
  o: number,
  os: number,
) => void;

const cache = new Map<string, FoldRows | AccumulateRows>();
const MAX_LOOPS = 1000;

function exprKey(e: Expr): string {
  if ('in' in e) return `$${e.in}`;
  if ('const' in e) return `#${Object.is(e.const, -0) ? '-0' : String(e.const)}`;
  return `${e.op}:${e.dtype}(${e.args.map(exprKey).join(',')})`;
}

/** Per-element code: a block that loads the inputs at index `at` and adds the value to `into`. */
function elementCode(
  body: { lines: string; value: string },
  used: readonly number[],
  modes: readonly RowMode[],
  at: string,
  into: string,
): string {
  const loads = used
    .filter((k) => modes[k] !== 's')
    .map((k) =>
      modes[k] === 'c'
        ? `const v${k} = a${k}[q${k} + ${at}];`
        : `const v${k} = a${k}[q${k} + (${at}) * s${k}];`,
    );
  return `{ ${loads.join(' ')}\n${body.lines}\n${into}; }`;
}

function prologue(used: readonly number[], modes: readonly RowMode[]): string {
  return used
    .map((k) => {
      const head = `const a${k} = ins[${k}]; const p${k} = p[${k}]; const r${k} = rs[${k}];`;
      return modes[k] === 'g' ? `${head} const s${k} = st[${k}];` : head;
    })
    .join('\n');
}

/** Start of row r in each input (and the value of broadcast inputs). */
function rowStart(used: readonly number[], modes: readonly RowMode[]): string {
  return used
    .map((k) => {
      const q = `const q${k} = p${k} + r * r${k};`;
      return modes[k] === 's' ? `${q} const v${k} = a${k}[q${k}];` : q;
    })
    .join(' ');
}

function compile<T>(key: string, source: () => string, params: string): T {
  let fn = cache.get(key);
  if (fn === undefined) {
    const factory = new Function('H', `return function row(${params}) {\n${source()}\n};`);
    fn = factory(ewHelpers) as FoldRows;
    if (cache.size >= MAX_LOOPS) cache.clear();
    cache.set(key, fn);
  }
  return fn as T;
}

/**
 * The fold loop of `expr` over rows (see FoldRows).
 * @example
 * const fold = foldRowsLoop({ in: 0 }, ['float64'], ['c']);
 * fold([x.data], [0], [1], [0], 1, x.size, lane, 0, x.size, acc, 0, 1); // acc[0] += sum(x)
 */
export function foldRowsLoop(
  expr: Expr,
  dtypes: readonly DType[],
  modes: readonly RowMode[],
): FoldRows {
  const last = lastFold;
  if (
    last !== undefined &&
    last.expr === expr &&
    same(last.dtypes, dtypes) &&
    same(last.modes, modes)
  )
    return last.fn;
  const key = `fold|${exprKey(expr)}|${dtypes.join(',')}|${modes.join('')}`;
  const fn = compileFold(key, expr, dtypes, modes);
  lastFold = { expr, dtypes: [...dtypes], modes: [...modes], fn };
  return fn;
}

/** The last fold loop asked for: blocks of one task ask for the same loop many times. */
let lastFold:
  | { expr: Expr; dtypes: readonly DType[]; modes: readonly RowMode[]; fn: FoldRows }
  | undefined;

function same<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function compileFold(
  key: string,
  expr: Expr,
  dtypes: readonly DType[],
  modes: readonly RowMode[],
): FoldRows {
  return compile<FoldRows>(
    key,
    () => {
      const body = elementSource(expr, dtypes);
      const el = (at: string, into: string) => elementCode(body, body.used, modes, at, into);
      // element `at` of the four rows of a group, summed in row order, added to lane c
      const column = (at: string, c: number | string): string =>
        `{ let t = 0;\n${[0, 1, 2, 3].map((u) => rowElement(body, body.used, modes, u, at)).join('\n')}\nl${c} += t; }`;
      return [
        prologue(body.used, modes),
        'const tail = n - (n % 4);',
        'let r = 0;',
        // rows that continue one run: four at a time, a column's four values added first
        'if (len < n) {',
        'for (; r + 3 < rows; r += 4) {',
        rowStarts(body.used, modes, 4),
        'let l0 = lane[0], l1 = lane[1], l2 = lane[2], l3 = lane[3]; let i = 0;',
        'for (; i + 3 < len; i += 4) {',
        column('i', 0),
        column('i + 1', 1),
        column('i + 2', 2),
        column('i + 3', 3),
        '}',
        `for (; i < len; i++) ${column('i', 0)}`,
        'lane[0] = l0; lane[1] = l1; lane[2] = l2; lane[3] = l3;',
        'j += 4 * len;',
        'if (j === n) {',
        'acc[o] = acc[o] + (lane[0] + lane[1] + (lane[2] + lane[3]));',
        'lane[0] = 0; lane[1] = 0; lane[2] = 0; lane[3] = 0; j = 0; o += os;',
        '}',
        '}',
        '}',
        'for (; r < rows; r++) {',
        rowStart(body.used, modes),
        'const end = j + len; const main = end < tail ? end : tail; let i = 0;',
        `for (; j < main && (j & 3) !== 0; j++, i++) ${el('i', `lane[j & 3] += ${body.value}`)}`,
        'let l0 = lane[0], l1 = lane[1], l2 = lane[2], l3 = lane[3];',
        'for (; j + 3 < main; j += 4, i += 4) {',
        el('i', `l0 += ${body.value}`),
        el('i + 1', `l1 += ${body.value}`),
        el('i + 2', `l2 += ${body.value}`),
        el('i + 3', `l3 += ${body.value}`),
        '}',
        'lane[0] = l0; lane[1] = l1; lane[2] = l2; lane[3] = l3;',
        `for (; j < main; j++, i++) ${el('i', `lane[j & 3] += ${body.value}`)}`,
        `for (; j < end; j++, i++) ${el('i', `lane[0] += ${body.value}`)}`,
        'if (j === n) {',
        'acc[o] = acc[o] + (lane[0] + lane[1] + (lane[2] + lane[3]));',
        'lane[0] = 0; lane[1] = 0; lane[2] = 0; lane[3] = 0; j = 0; o += os;',
        '}',
        '}',
      ].join('\n');
    },
    'ins, p, st, rs, rows, len, lane, j, n, acc, o, os',
  );
}

/** Rows an accumulate loop sums per pass over its output row (loads of acc shared). */
const ROWS_AT_ONCE = 16;

/** Starts of rows r + u, u < count (suffix _u), and their broadcast values. */
function rowStarts(used: readonly number[], modes: readonly RowMode[], count: number): string {
  const out: string[] = [];
  for (let u = 0; u < count; u++) {
    for (const k of used) {
      out.push(`const q${k}_${u} = p${k} + (r + ${u}) * r${k};`);
      if (modes[k] === 's') out.push(`const w${k}_${u} = a${k}[q${k}_${u}];`);
    }
  }
  return out.join(' ');
}

/** Element `at` of row r + u, added to the local `t`. */
function rowElement(
  body: { lines: string; value: string },
  used: readonly number[],
  modes: readonly RowMode[],
  u: number,
  at = 'i',
): string {
  const loads = used.map((k) => {
    if (modes[k] === 's') return `const v${k} = w${k}_${u};`;
    return modes[k] === 'c'
      ? `const v${k} = a${k}[q${k}_${u} + ${at}];`
      : `const v${k} = a${k}[q${k}_${u} + (${at}) * s${k}];`;
  });
  return `{ ${loads.join(' ')}\n${body.lines}\nt = t + ${body.value}; }`;
}

/**
 * The accumulate loop of `expr` over rows (see AccumulateRows). When rows land on the same
 * output (os = 0) it adds ROWS_AT_ONCE rows per pass, in row order: each output element is
 * loaded and stored once per pass, many input streams are in flight, and a transposed input
 * uses whole cache lines (16 adjacent elements of each of its rows) in one pass.
 * @example
 * accumulateRowsLoop({ in: 0 }, ['float64'], ['c'])([x.data], [0], [1], [n], m, n, acc, 0, 0);
 * // acc[i] += x[r, i] for every row r
 */
export function accumulateRowsLoop(
  expr: Expr,
  dtypes: readonly DType[],
  modes: readonly RowMode[],
): AccumulateRows {
  const key = `acc|${exprKey(expr)}|${dtypes.join(',')}|${modes.join('')}`;
  return compile<AccumulateRows>(
    key,
    () => {
      const body = elementSource(expr, dtypes);
      const add = `acc[o + i] = acc[o + i] + ${body.value}`;
      const group = Array.from({ length: ROWS_AT_ONCE }, (_, u) =>
        rowElement(body, body.used, modes, u),
      );
      return [
        prologue(body.used, modes),
        'let r = 0;',
        'if (os === 0) {',
        `for (; r + ${ROWS_AT_ONCE - 1} < rows; r += ${ROWS_AT_ONCE}) {`,
        rowStarts(body.used, modes, ROWS_AT_ONCE),
        'for (let i = 0; i < len; i++) {',
        'let t = acc[o + i];',
        ...group,
        'acc[o + i] = t;',
        '}',
        '}',
        '}',
        'for (o += r * os; r < rows; r++, o += os) {',
        rowStart(body.used, modes),
        `for (let i = 0; i < len; i++) ${elementCode(body, body.used, modes, 'i', add)}`,
        '}',
      ].join('\n');
    },
    'ins, p, st, rs, rows, len, acc, o, os',
  );
}
