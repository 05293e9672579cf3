// Argument checking of lazyApply: splits args into arrays and literals, reads the declared
// shapes and dtypes, core axes and kwargs. Every ValueError is raised here, before any layer.

import { checkDType, type DType, resultType } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import { isLazyArray, type LazyArray } from '../array/lazy-array.ts';
import { NDArray } from '../array/ndarray.ts';
import { broadcastShapes } from '../chunking/broadcast.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import type { Size } from '../chunking/types.ts';
import { ValueError } from '../errors.ts';
import { toFnRef } from '../kernels/ship.ts';
import type { FnRef } from '../kernels/types.ts';
import { normalizeAxes } from './axis-args.ts';
import { kwargsToken } from './lazy-apply-kwargs.ts';
import { checkIsolate, type PlacementOptions } from './placement.ts';

/** One argument of lazyApply: an array (lazy or eager), a JS scalar, or null. */
export type LazyApplyArg = ArrayLike | number | boolean | null;

/** Options of `lazyApply`: declared output shapes and dtypes, core axes, kwargs for the kernel, and where it runs. */
export interface LazyApplyOptions extends PlacementOptions {
  /** Output shape (`null` = unknown size), or an array of shapes for several outputs. */
  readonly shape?: readonly Size[] | readonly (readonly Size[])[];
  /** Output dtype, or one per output; omitted: the promoted dtype of the arguments. */
  readonly dtype?: DType | readonly DType[];
  /** Core axes the kernel needs whole; fn runs once per block of the other axes. */
  readonly axis?: number | readonly number[];
  /** Structured-cloneable data passed to fn as its last argument, untouched. */
  readonly kwargs?: unknown;
  /**
   * Hand fn host arrays for GPU inputs and move its results back to their device (a guarded
   * transfer: allowTransfer or disableGuards); a no-op for CPU inputs.
   */
  readonly asHost?: boolean;
  /** Label for layer names and task keys (default: fn.name). */
  readonly name?: string;
}

/** Where fn's argument i comes from: array input `array`, or a literal passed in place. */
export type ArgSlot = { readonly array: number } | { readonly value: number | boolean | null };

/** The checked call: what lazy-apply.ts builds layers from. */
export interface LazyApplyPlan {
  readonly fn: FnRef;
  /** fn's name made safe for layer names ('anonymous' when it has none). */
  readonly label: string;
  readonly arrays: readonly LazyArray[];
  readonly slots: readonly ArgSlot[];
  /** Declared (or default) output shapes, one per output. */
  readonly shapes: readonly Size[][];
  readonly dtypes: readonly DType[];
  /** Several outputs were declared (the result is an array of LazyArrays). */
  readonly multi: boolean;
  /** Broadcast ndim of the array inputs (the largest ndim). */
  readonly ndim: number;
  /** Core axes (sorted, in [0, ndim)); null: every axis, fn runs once on whole arrays. */
  readonly core: readonly number[] | null;
  readonly hasKwargs: boolean;
  readonly kwargs: unknown;
  /** Deterministic, cycle-safe text of kwargs, for the layer name. */
  readonly kwargsToken: string;
  readonly mainThread: boolean;
  /** Run in a separate process (the isolate option). */
  readonly isolated: boolean;
}

const OPTION_KEYS = new Set([
  'shape',
  'dtype',
  'axis',
  'kwargs',
  'asHost',
  'inline',
  'isolate',
  'allowTransfer',
  'name',
]);
const FN = 'lazyApply';

/** Validate a lazyApply call and describe it; throws before any graph is built. */
export function planLazyApply(
  fn: unknown,
  args: LazyApplyArg | readonly LazyApplyArg[],
  opts: LazyApplyOptions,
): LazyApplyPlan {
  checkOptions(opts);
  const { arrays, slots } = splitArgs(args);
  const { shapes: declared, multi } = readShapes(opts.shape);
  const scalars = slots.flatMap((s) => ('value' in s && s.value !== null ? [s.value] : []));
  const nd = Math.max(...arrays.map((a) => a.ndim));
  const shapes = declared ?? [broadcastShapes(FN, ...arrays.map((a) => a.shape))];
  const dtypes = readDTypes(opts.dtype, shapes.length, multi, () =>
    resultType(...arrays.map((a) => a.dtype), ...scalars),
  );
  const core = opts.axis === undefined ? null : readAxes(opts.axis, nd, shapes);
  const inline = readFlag(opts, 'inline');
  readFlag(opts, 'asHost');
  const hasKwargs = opts.kwargs !== undefined;
  const token = hasKwargs ? kwargsToken(FN, opts.kwargs, inline) : '';
  const ref = toFnRef(fn, FN, { inline });
  return {
    fn: ref,
    label: readLabel(opts.name, ref.name),
    arrays,
    slots,
    shapes,
    dtypes,
    multi,
    ndim: nd,
    core,
    hasKwargs,
    kwargs: opts.kwargs,
    kwargsToken: token,
    mainThread: ref.kind === 'inline',
    isolated: checkIsolate(FN, opts),
  };
}

function checkOptions(opts: unknown): void {
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts)) {
    throw new ValueError(`${FN}: options must be an object, got ${formatValue(opts)}`);
  }
  for (const k of Object.keys(opts)) {
    if (!OPTION_KEYS.has(k)) {
      throw new ValueError(
        `${FN}: unknown option '${k}'; expected one of ${[...OPTION_KEYS].join(', ')}`,
      );
    }
  }
}

function isArrayArg(x: unknown): x is ArrayLike {
  return isLazyArray(x) || x instanceof NDArray || ArrayBuffer.isView(x) || Array.isArray(x);
}

/** A JS array of args is the argument list; anything else is the one argument. */
function splitArgs(args: unknown): { arrays: LazyArray[]; slots: ArgSlot[] } {
  const list: unknown[] = Array.isArray(args) ? args : [args];
  const arrays: LazyArray[] = [];
  const slots: ArgSlot[] = list.map((a, i) => {
    if (a === null || typeof a === 'number' || typeof a === 'boolean') return { value: a };
    if (!isArrayArg(a) || a instanceof DataView) {
      throw new ValueError(
        `${FN}: argument ${i} is ${describe(a)}; expected an array, a number, a boolean or null`,
      );
    }
    arrays.push(asLazy(a, 'lazyApply'));
    return { array: arrays.length - 1 };
  });
  if (arrays.length === 0) {
    throw new ValueError(
      `${FN}: no array argument in ${formatValue(list)}; pass at least one array`,
    );
  }
  return { arrays, slots };
}

function describe(x: unknown): string {
  if (x === undefined) return 'undefined';
  if (typeof x === 'object') return `an object ${formatValue(x)}`;
  return `${typeof x} ${formatValue(x)}`;
}

function isSize(x: unknown): x is Size {
  return x === null || (typeof x === 'number' && Number.isInteger(x) && x >= 0);
}

function checkShape(shape: readonly unknown[], what: string): Size[] {
  if (!shape.every(isSize)) {
    throw new ValueError(
      `${FN}: ${what} ${formatValue(shape)} must hold non-negative integers or null (unknown)`,
    );
  }
  return [...shape] as Size[];
}

/** One shape (a tuple of sizes), several (an array of tuples), or none. */
function readShapes(shape: unknown): { shapes: Size[][] | undefined; multi: boolean } {
  if (shape === undefined) return { shapes: undefined, multi: false };
  if (!Array.isArray(shape)) {
    throw new ValueError(`${FN}: shape ${formatValue(shape)} is not an array of sizes`);
  }
  if (shape.every((s) => !Array.isArray(s))) {
    return { shapes: [checkShape(shape, 'shape')], multi: false };
  }
  if (!shape.every((s) => Array.isArray(s))) {
    throw new ValueError(
      `${FN}: shape ${formatValue(shape)} mixes sizes and shapes; pass one shape or an array of shapes`,
    );
  }
  if (shape.length === 0) throw new ValueError(`${FN}: shape [] declares no output`);
  return { shapes: shape.map((s, k) => checkShape(s, `shape ${k}`)), multi: true };
}

/** One dtype per output; the counts must agree with the shapes (lazy_apply's rule). */
function readDTypes(
  dtype: unknown,
  nShapes: number,
  multi: boolean,
  promoted: () => DType,
): DType[] {
  if (dtype === undefined) return new Array<DType>(nShapes).fill(promoted());
  const list = Array.isArray(dtype) ? dtype : [dtype];
  const counts = `${nShapes} shapes and ${list.length} dtypes`;
  if (multi && !Array.isArray(dtype)) {
    throw new ValueError(
      `${FN}: ${counts}: several outputs need dtype as an array of ${nShapes} dtypes, got ${formatValue(dtype)}`,
    );
  }
  if (!multi && Array.isArray(dtype)) {
    throw new ValueError(
      `${FN}: ${counts}: dtype ${formatValue(dtype)} is an array but one shape was declared; ` +
        'declare several outputs with shape as an array of shapes',
    );
  }
  if (list.length !== nShapes) {
    throw new ValueError(`${FN}: ${counts}: dtype ${formatValue(dtype)} does not match`);
  }
  return list.map((d) => checkDType(FN, d));
}

/**
 * Core axes against the inputs' broadcast ndim; each output keeps every axis (core axes
 * resized) or drops all core axes.
 */
function readAxes(axis: unknown, nd: number, shapes: readonly Size[][]): number[] {
  const core = normalizeAxes(FN, axis, nd).sort((a, b) => a - b);
  for (const s of shapes) {
    if (s.length !== nd && s.length !== nd - core.length) {
      throw new ValueError(
        `${FN}: with axis ${formatValue(axis)}, output shape ${formatTuple(s)} must have ${nd} axes ` +
          `(core axes resized) or ${nd - core.length} (core axes dropped), like the inputs`,
      );
    }
  }
  return core;
}

function readFlag(opts: LazyApplyOptions, key: 'inline' | 'asHost'): boolean {
  const v = opts[key];
  if (v !== undefined && typeof v !== 'boolean') {
    throw new ValueError(`${FN}: ${key} must be a boolean, got ${formatValue(v)}`);
  }
  return v === true;
}

/** A layer-name-safe label: letters, digits, _ and $ only. */
function readLabel(name: unknown, fnName: string): string {
  if (name !== undefined && (typeof name !== 'string' || name === '')) {
    throw new ValueError(`${FN}: name must be a non-empty string, got ${formatValue(name)}`);
  }
  const raw = (name as string | undefined) ?? fnName;
  const safe = raw.replace(/[^A-Za-z0-9_$]+/g, '_');
  return safe === '' || safe === '_' ? 'anonymous' : safe;
}
