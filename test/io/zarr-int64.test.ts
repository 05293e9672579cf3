// fromZarr of int64 and uint64 arrays (written by zarrita, the independent writer): read as
// int64/uint64 without a dtype (exact BigInts, beyond 2^53 too), or cast on read to the dtype
// asked for, against exact BigInt references, in the array's own and in other chunkings, on
// the sync and thread schedulers; values that do not fit an integer dtype raise ValueError
// naming the array instead of wrapping. Also a cast of a float64 array, and toZarr of int64
// and uint64 arrays read back by zarrita and by fromZarr.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import FileSystemStore from '@zarrita/storage/fs';
import { afterAll, describe, expect, test } from 'vitest';
import * as zarr from 'zarrita';
import { type DType, integerRange } from '../../src/array/dtype.ts';
import { isTesseraError } from '../../src/errors.ts';
import { compute, fromArray, fromZarr, toZarr } from '../../src/index.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import { randomAxisChunks, rng } from '../helpers/reference.ts';

const dir = mkdtempSync(join(tmpdir(), 'tessera-zarr64-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await shutdownDefaultPool();
});
let storeNo = 0;

async function write(
  dtype: 'int64' | 'uint64' | 'float64',
  shape: number[],
  chunkShape: number[],
  data: BigInt64Array | BigUint64Array | Float64Array,
): Promise<string> {
  const path = join(dir, `s${storeNo++}.zarr`);
  const arr = await zarr.create(zarr.root(new FileSystemStore(path)), {
    shape,
    chunkShape,
    dtype,
    // zarrita writes fill_value with JSON.stringify, which refuses a bigint: 0 is the number
    fillValue: 0 as never,
  });
  if (shape.length === 0) {
    await zarr.set(arr, null, data[0]! as never);
    return path;
  }
  const stride = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  await zarr.set(arr, null, { data, shape, stride } as zarr.Chunk<zarr.DataType>);
  return path;
}

/** The value numpy's astype gives for an exact integer `v` cast to `dtype` (when it fits). */
function castRef(v: bigint, dtype: DType): number | undefined {
  const r = integerRange(dtype);
  if (dtype === 'bool') return v !== 0n ? 1 : 0;
  if (dtype === 'float32') return Math.fround(Number(v));
  if (r === undefined) return Number(v);
  return v >= BigInt(r[0]) && v <= BigInt(r[1]) ? Number(v) : undefined;
}

const TARGETS: DType[] = [
  'float64',
  'float32',
  'int32',
  'int16',
  'uint8',
  'uint32',
  'bool',
  'int64',
  'uint64',
];

/** numpy's astype for the 64-bit targets: the value when it fits, else undefined. */
function castBig(v: bigint, dtype: 'int64' | 'uint64'): bigint | undefined {
  const fits = dtype === 'int64' ? v >= -(2n ** 63n) && v < 2n ** 63n : v >= 0n && v < 2n ** 64n;
  return fits ? v : undefined;
}

describe('fromZarr of int64 and uint64 arrays', () => {
  const r = rng(64);
  const cases: [string, 'int64' | 'uint64', number[], bigint[]][] = [
    ['arange', 'int64', [6, 7], Array.from({ length: 42 }, (_, i) => BigInt(i))],
    [
      'int32 range',
      'int64',
      [3, 4, 5],
      Array.from({ length: 60 }, () => BigInt(Math.floor((r() - 0.5) * 2 ** 32))),
    ],
    ['beyond 2^53', 'int64', [4], [2n ** 53n + 1n, -(2n ** 63n), 2n ** 63n - 1n, -5n]],
    ['uint64', 'uint64', [5, 2], Array.from({ length: 10 }, (_, i) => BigInt(i * 6553))],
    ['uint64 beyond int64', 'uint64', [3], [2n ** 64n - 1n, 2n ** 63n, 7n]],
  ];
  test.each(cases)('%s (%s): every cast', async (_, from, shape, values) => {
    const data = from === 'int64' ? BigInt64Array.from(values) : BigUint64Array.from(values);
    const path = await write(
      from,
      shape,
      shape.map((n) => Math.max(1, Math.ceil(n / 2))),
      data,
    );
    for (const dtype of [undefined, ...TARGETS]) {
      const as = dtype ?? from;
      const want = values.map((v) =>
        as === 'int64' || as === 'uint64' ? castBig(v, as) : castRef(v, as),
      );
      const fits = want.every((w) => w !== undefined);
      for (const chunks of [undefined, shape.map((n) => randomAxisChunks(n, r))]) {
        const x = await fromZarr(path, {
          ...(dtype ? { dtype } : {}),
          ...(chunks ? { chunks } : {}),
        });
        expect(x.dtype).toBe(as);
        for (const scheduler of ['sync', 'threads'] as const) {
          if (!fits) {
            const err = await compute(x, { scheduler }).then(
              () => expect.unreachable(`${from} as ${as} should not fit`),
              (e: unknown) => e,
            );
            expect(isTesseraError(err)).toBe(true);
            expect(String(err) + String((err as Error).cause)).toMatch(
              new RegExp(`fromZarr: .* \\(${from}\\), which does not fit dtype '${as}'`),
            );
            continue;
          }
          const got = await compute(x, { scheduler });
          // 64-bit results compare as BigInts (exact); the others as numbers
          expect(as === 'int64' || as === 'uint64' ? [...got.data] : got.toArray()).toEqual(want);
        }
      }
    }
  });

  test('0-d int64 arrays, and a float64 array cast to int16 (truncating as astype)', async () => {
    const zero = await write('int64', [], [], BigInt64Array.of(-7n));
    expect((await compute(await fromZarr(zero, { dtype: 'int8' }))).item()).toBe(-7);
    expect((await compute(await fromZarr(zero))).item()).toBe(-7n);
    const negative = await compute(await fromZarr(zero, { dtype: 'uint64' })).then(
      () => expect.unreachable('-7 as uint64 should not fit'),
      (e: unknown) => e,
    );
    expect(String(negative) + String((negative as Error).cause)).toMatch(
      /fromZarr: .* holds -7 \(int64\), which does not fit dtype 'uint64'/,
    );
    const f = await write('float64', [4], [3], Float64Array.of(1.5, -2.7, 300, 0));
    const y = await fromZarr(f, { dtype: 'int16' });
    expect((await compute(y)).toArray()).toEqual([1, -2, 300, 0]);
    const big = await compute(await fromZarr(f, { dtype: 'int64' }));
    expect([...big.data]).toEqual([1n, -2n, 300n, 0n]);
    expect((await fromZarr(f)).dtype).toBe('float64');
    expect(y.name).not.toBe((await fromZarr(f)).name);
  });

  test.each([
    ['int64', [2n ** 53n + 1n, -(2n ** 63n), 2n ** 63n - 1n, -5n, 0n, 2n ** 62n + 7n]],
    ['uint64', [2n ** 64n - 1n, 2n ** 63n, 2n ** 53n + 1n, 7n, 0n, 1n]],
  ] as const)(
    'toZarr of %s arrays: zarrita and fromZarr read back every value exactly',
    async (dtype, values) => {
      const data = dtype === 'int64' ? BigInt64Array.from(values) : BigUint64Array.from(values);
      const x = fromArray(data, { shape: [2, 3], chunks: [1, 2] });
      expect(x.dtype).toBe(dtype);
      for (const scheduler of ['sync', 'threads'] as const) {
        const path = join(dir, `written${storeNo++}.zarr`);
        await toZarr(x, path, { scheduler, chunks: [2, 2] });
        const arr = await zarr.open(zarr.root(new FileSystemStore(path)), { kind: 'array' });
        expect(arr.dtype).toBe(dtype);
        const got = await zarr.get(arr, null);
        expect(got.data).toBeInstanceOf(data.constructor);
        expect([...(got.data as BigInt64Array | BigUint64Array)]).toEqual([...values]);
        const back = await fromZarr(path);
        expect(back.dtype).toBe(dtype);
        expect(back.chunks).toEqual([[2], [2, 1]]);
        const read = await compute(back, { scheduler });
        expect([...read.data]).toEqual([...values]);
      }
    },
  );
});
