// The NumPy fixtures of test/fixtures/make-quantiles.py, typed, and their inputs as arrays
// with random chunkings (null in the JSON is NaN).

import { readFileSync } from 'node:fs';
import type { QuantileMethod } from '../../src/apply/percentile.ts';
import type { DType } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { randomAxisChunks } from '../helpers/reference.ts';

export type Values = (number | null)[];

export interface QuantileCase {
  shape: number[];
  dtype: DType;
  x: Values;
  axis: number | number[] | null;
  q: number[];
  keepdims: boolean;
  outShape: number[];
  out: Record<QuantileMethod, Values>;
}

export interface NanCase {
  shape: number[];
  dtype: DType;
  x: Values;
  axis: number | null;
  q: number[];
  nan: Partial<Record<QuantileMethod, Values>>;
  plain: Values;
}

export interface CovCase {
  kind: 'cov' | 'corrcoef';
  shape: number[];
  dtype: DType;
  x: Values;
  rowvar: boolean;
  bias?: boolean;
  ddof?: number | null;
  outShape: number[];
  out: Values;
}

/** np.cov with y, fweights and aweights (float64 inputs). */
export interface CovWeightedCase {
  shape: number[];
  x: Values;
  yShape: number[] | null;
  y: Values | null;
  fweights: number[] | null;
  aweights: number[] | null;
  rowvar: boolean;
  bias: boolean;
  ddof: number | null;
  outShape: number[];
  out: Values;
}

export const fixtures = JSON.parse(
  readFileSync(new URL('../fixtures/quantiles-numpy.json', import.meta.url), 'utf8'),
) as {
  quantile: QuantileCase[];
  nan: NanCase[];
  cov: CovCase[];
  covWeighted: CovWeightedCase[];
};

/** null → NaN. */
export const nums = (v: Values): number[] => v.map((e) => (e === null ? Number.NaN : e));

/** A fixture input as a lazy array of its dtype with random chunks. */
export function input(
  shape: readonly number[],
  dtype: DType,
  x: Values,
  r: () => number,
): LazyArray {
  const chunks = shape.map((n) => randomAxisChunks(n, r));
  const data =
    dtype === 'float32'
      ? Float32Array.from(nums(x))
      : dtype === 'int32'
        ? Int32Array.from(nums(x))
        : Float64Array.from(nums(x));
  return fromArray(data, { shape: [...shape], chunks });
}
