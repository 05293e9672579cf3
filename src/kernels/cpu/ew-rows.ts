// Compiled row loops of fused sums: an elementwise expression evaluated along one row of its
// inputs and added straight into the reduction (no block, no scratch), one loop per
// expression, input dtypes and input modes.
//
// A fold row adds into four lanes exactly as sumRuns.foldRows does over the same run
// (element j of a run in lane j % 4, the n % 4 tail in lane 0), so a run may be cut into
// rows anywhere; an accumulate row adds element i into acc[o + i].

import type { DType, TypedArray } from '../../array/dtype.ts';
import { ewHelpers } from './elementwise.ts';
import { elementSource } from './ew-codegen.ts';
import type { Expr } from './expr.ts';

/** How a row reads input k: 'c' stride 1, 'g' stride st[k], 's' one value (stride 0). */
export type RowMode = 'c' | 'g' | 's';

/**
 * Fold `len` elements (run positions j … j + len of a run of `n`) into `lane` (4 sums).
 * Input k's element i is ins[k][p[k] + i·st[k]].
 */
export type FoldRow = (
  ins: readonly TypedArray[],
  p: readonly number[],
  st: readonly number[],
  len: number,
  lane: Float64Array,
  j: number,
  n: number,
) => void;

/** acc[o + i] += value i, for i < len. */
export type AccumulateRow = (
  ins: readonly TypedArray[],
  p: readonly number[],
  st: readonly number[],
  len: number,
  acc: TypedArray,
  o: number,
) => void;

const cache = new Map<string, FoldRow | AccumulateRow>();
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
        ? `const v${k} = a${k}[p${k} + ${at}];`
        : `const v${k} = a${k}[p${k} + (${at}) * s${k}];`,
    );
  return `{ ${loads.join(' ')}\n${body.lines}\n${into}; }`;
}

function prologue(used: readonly number[], modes: readonly RowMode[]): string {
  return used
    .map((k) => {
      const head = `const a${k} = ins[${k}]; const p${k} = p[${k}];`;
      if (modes[k] === 's') return `${head} const v${k} = a${k}[p${k}];`;
      return modes[k] === 'g' ? `${head} const s${k} = st[${k}];` : head;
    })
    .join('\n');
}

function compile<T>(key: string, source: () => string, params: string): T {
  let fn = cache.get(key);
  if (fn === undefined) {
    const factory = new Function('H', `return function row(${params}) {\n${source()}\n};`);
    fn = factory(ewHelpers) as FoldRow;
    if (cache.size >= MAX_LOOPS) cache.clear();
    cache.set(key, fn);
  }
  return fn as T;
}

/**
 * The fold-row loop of `expr` (see FoldRow).
 * @example
 * const row = foldRowLoop({ in: 0 }, ['float64'], ['c']);
 * row([x.data], [0], [1], x.size, lane, 0, x.size); // lane holds sumRuns' four partial sums
 */
export function foldRowLoop(
  expr: Expr,
  dtypes: readonly DType[],
  modes: readonly RowMode[],
): FoldRow {
  const key = `fold|${exprKey(expr)}|${dtypes.join(',')}|${modes.join('')}`;
  return compile<FoldRow>(
    key,
    () => {
      const body = elementSource(expr, dtypes);
      const el = (at: string, into: string) => elementCode(body, body.used, modes, at, into);
      return [
        prologue(body.used, modes),
        'const end = j + len; const main = Math.min(end, n - (n % 4)); let i = 0;',
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
      ].join('\n');
    },
    'ins, p, st, len, lane, j, n',
  );
}

/**
 * The accumulate-row loop of `expr` (see AccumulateRow).
 * @example
 * accumulateRowLoop({ in: 0 }, ['float64'], ['c'])([row], [0], [1], n, acc, 0); // acc += row
 */
export function accumulateRowLoop(
  expr: Expr,
  dtypes: readonly DType[],
  modes: readonly RowMode[],
): AccumulateRow {
  const key = `acc|${exprKey(expr)}|${dtypes.join(',')}|${modes.join('')}`;
  return compile<AccumulateRow>(
    key,
    () => {
      const body = elementSource(expr, dtypes);
      return [
        prologue(body.used, modes),
        `for (let i = 0; i < len; i++) ${elementCode(body, body.used, modes, 'i', `acc[o + i] = acc[o + i] + ${body.value}`)}`,
      ].join('\n');
    },
    'ins, p, st, len, acc, o',
  );
}
