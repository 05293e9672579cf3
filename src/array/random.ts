// Seeded random arrays: random.uniform and random.normal, chunk-wise deterministic.
// Element values depend only on (seed, global index), never on the chunking (backends/cpu-js/source/random.ts).

import { formatValue } from '../chunking/format.ts';
import type { ChunkSpec, Chunks } from '../chunking/types.ts';
import { DTypeError, ValueError } from '../errors.ts';
import { checkOptions, optionalDType } from './check-options.ts';
import { checkShapeArg, type ShapeArg, sourceArray } from './creation.ts';
import type { DType } from './dtype.ts';
import type { LazyArray } from './lazy-array.ts';

/** Options common to the random functions. */
export interface RandomOptions {
  /** A non-negative safe integer; omitted: a fresh random seed (and a fresh name). */
  seed?: number;
  chunks?: ChunkSpec | Chunks;
  /** float64 (default) or float32. */
  dtype?: DType;
}

export interface UniformOptions extends RandomOptions {
  /** Lower bound, included (default 0). */
  low?: number;
  /** Upper bound, excluded (default 1). */
  high?: number;
}

export interface NormalOptions extends RandomOptions {
  /** Default 0. */
  mean?: number;
  /** Standard deviation, non-negative (default 1). */
  std?: number;
}

function checkSeed(fn: string, seed: number | undefined): [number, number] {
  const s = seed ?? Math.floor(Math.random() * 2 ** 53);
  if (typeof s !== 'number' || !Number.isSafeInteger(s) || s < 0) {
    throw new ValueError(`${fn}: seed ${formatValue(seed)} must be a non-negative safe integer`);
  }
  return [Math.floor(s / 2 ** 32) >>> 0, s >>> 0];
}

function checkFinite(fn: string, label: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new ValueError(`${fn}: ${label} ${formatValue(v)} is not a finite number`);
  }
  return v;
}

function floatDType(fn: string, dtype: DType | undefined): DType {
  const d = optionalDType(fn, dtype, 'float64');
  if (d !== 'float64' && d !== 'float32') {
    const hint = d === 'float16' ? "; draw float32 and astype(x, 'float16')" : '';
    throw new DTypeError(`${fn}: dtype '${d}' is not float64 or float32${hint}`);
  }
  return d;
}

function randomArray(
  fn: string,
  kernel: string,
  shape: ShapeArg,
  opts: RandomOptions,
  extra: Record<string, number>,
): LazyArray<true> {
  const s = checkShapeArg(fn, shape);
  const dtype = floatDType(fn, opts.dtype);
  const seed = checkSeed(fn, opts.seed);
  const token = [seed, extra];
  return sourceArray(fn, kernel, s, dtype, opts.chunks, token, (offset, blockShape) => ({
    seed,
    arrayShape: s,
    offset,
    shape: blockShape,
    dtype,
    ...extra,
  }));
}

/**
 * Uniform samples in [low, high). The same seed gives the same values whatever the chunking.
 * @example
 * const x = uniform([1000, 1000], { seed: 42, chunks: 250 });
 */
export function uniform(shape: ShapeArg, uniformOpts?: UniformOptions): LazyArray<true> {
  const opts = checkOptions('random.uniform', uniformOpts);
  const low = checkFinite('random.uniform', 'low', opts.low ?? 0);
  const high = checkFinite('random.uniform', 'high', opts.high ?? 1);
  if (high < low) {
    throw new ValueError(`random.uniform: high ${high} is below low ${low}`);
  }
  return randomArray('random.uniform', 'random-uniform', shape, opts, { low, high });
}

/**
 * Normal samples (Box–Muller on counter pairs). The same seed gives the same values
 * whatever the chunking.
 * @example
 * const noise = normal([1e6], { seed: 7, mean: 0, std: 0.1 });
 */
export function normal(shape: ShapeArg, normalOpts?: NormalOptions): LazyArray<true> {
  const opts = checkOptions('random.normal', normalOpts);
  const mean = checkFinite('random.normal', 'mean', opts.mean ?? 0);
  const std = checkFinite('random.normal', 'std', opts.std ?? 1);
  if (std < 0) throw new ValueError(`random.normal: std ${std} is negative`);
  return randomArray('random.normal', 'random-normal', shape, opts, { mean, std });
}

/** The `random` namespace of the public API: `random.uniform`, `random.normal`. */
export const random = {
  /** Uniform samples in [low, high). */
  uniform,
  /** Normal samples with mean and std. */
  normal,
} as const;
