// Reads test/fixtures/array-api-numpy.json (NumPy's results, made by array-api-numpy.py):
// arrays as { shape, dtype, data } with 'nan', 'inf', '-inf', '-0' strings decoded.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DType } from '../../src/array/dtype.ts';

export interface FixtureArray {
  readonly shape: number[];
  readonly dtype: DType;
  readonly data: number[];
}

type Raw = { shape: number[]; dtype: string; data: (number | string)[] };

const SPECIAL: Record<string, number> = {
  nan: Number.NaN,
  inf: Infinity,
  '-inf': -Infinity,
  '-0': -0,
};

/** A fixture array decoded (NumPy's int64 results come back as int32 where tessera gives int32). */
export function decode(a: Raw): FixtureArray {
  return {
    shape: a.shape,
    dtype: a.dtype as DType,
    data: a.data.map((v) => (typeof v === 'string' ? SPECIAL[v]! : v)),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the JSON's shape is described by its script
export const FIXTURES: any = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/array-api-numpy.json'), 'utf8'),
);
