// The edge modes and per-axis arguments scipy.ndimage's filters share, mapped onto overlap's
// edge rules ('reflect' is NumPy's symmetric, 'mirror' NumPy's reflect, 'wrap' periodic).

import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { formatValue } from '../chunking/format.ts';
import type { EdgeRule } from '../chunking/overlap-plan.ts';
import { DTypeError, ValueError } from '../errors.ts';

/** scipy.ndimage's edge modes. */
export type FilterMode = 'reflect' | 'nearest' | 'wrap' | 'constant' | 'mirror';

/** Options of the ndimage filters. */
export interface FilterOptions {
  /** How the input is extended past its edges (default 'reflect', as scipy's). */
  readonly mode?: FilterMode;
  /** The value past the edges for mode 'constant' (default 0). */
  readonly cval?: number;
}

const MODES: Record<FilterMode, (cval: number) => EdgeRule> = {
  reflect: () => 'reflect',
  nearest: () => 'nearest',
  wrap: () => 'periodic',
  constant: (cval) => cval,
  mirror: () => 'mirror',
};

/**
 * The overlap edge rule of `opts.mode` (default 'reflect').
 * @example
 * edgeRuleOf('convolve', { mode: 'wrap' }); // 'periodic'
 */
export function edgeRuleOf(fn: string, opts: FilterOptions): EdgeRule {
  const mode = opts.mode ?? 'reflect';
  const rule = Object.hasOwn(MODES, mode) ? MODES[mode] : undefined;
  if (rule === undefined) {
    throw new ValueError(
      `${fn}: mode ${formatValue(mode)} must be 'reflect', 'nearest', 'wrap', 'constant' or 'mirror'`,
    );
  }
  const cval = opts.cval ?? 0;
  if (typeof cval !== 'number' || !Number.isFinite(cval)) {
    throw new ValueError(`${fn}: cval ${formatValue(cval)} is not a finite number`);
  }
  return rule(cval);
}

/**
 * One value per axis from a number or a list.
 * @example
 * perAxis('medianFilter', 'size', 3, 2); // [3, 3]
 */
export function perAxis(fn: string, what: string, v: unknown, ndim: number): number[] {
  const list = typeof v === 'number' ? new Array<number>(ndim).fill(v) : v;
  if (!Array.isArray(list) || list.length !== ndim) {
    throw new ValueError(
      `${fn}: ${what} ${formatValue(v)} must be a number or one per axis (${ndim})`,
    );
  }
  return list as number[];
}

/** The input as a LazyArray of a numeric dtype the filters take (no bool, no float16). */
export function filterInput(fn: string, x: ArrayLike): LazyArray {
  const a = asLazy(x);
  if (a.dtype === 'bool' || a.dtype === 'float16') {
    throw new DTypeError(`${fn}: dtype '${a.dtype}' is not supported`);
  }
  return a;
}
