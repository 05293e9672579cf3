// fromNpy of int64 and uint64 files (NumPy's default integer) against numpy: written by
// np.save (test/fixtures/npy-int64.py), read without a dtype as int64/uint64 exactly (values
// beyond 2^53 as BigInts), or cast on read to the dtype asked for, in random chunkings, on
// the sync and thread schedulers; a value that does not fit an integer dtype raises
// ValueError instead of wrapping. toNpy of int64/uint64 arrays writes np.save's very bytes.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { DType } from '../../src/array/dtype.ts';
import { isTesseraError } from '../../src/errors.ts';
import { compute, fromArray, fromNpy, toNpy } from '../../src/index.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import fixtures from '../fixtures/npy-int64.json' with { type: 'json' };
import { randomAxisChunks, rng } from '../helpers/reference.ts';

interface Case {
  name: string;
  npy: string;
  shape: number[];
  fileDtype: 'int64' | 'uint64';
  values: string[];
  casts: Record<string, (number | boolean)[] | 'overflow'>;
}

const dir = mkdtempSync(join(tmpdir(), 'tessera-npy64-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await shutdownDefaultPool();
});

const cases = fixtures.cases as Case[];
const files = new Map<string, string>();
function fileOf(c: Case): string {
  let path = files.get(c.name);
  if (path === undefined) {
    path = join(dir, `f${files.size}.npy`);
    writeFileSync(path, Buffer.from(c.npy, 'base64'));
    files.set(c.name, path);
  }
  return path;
}

const TARGETS: DType[] = [
  'float64',
  'float32',
  'int32',
  'int16',
  'int8',
  'uint32',
  'uint16',
  'uint8',
  'bool',
];

describe('fromNpy of int64 and uint64 files', () => {
  test.each(cases.map((c) => [c.name, c] as const))('%s: every cast as numpy', async (_, c) => {
    const r = rng(c.values.length + 7);
    for (const dtype of TARGETS) {
      const want = c.casts[dtype]!;
      const chunks = c.shape.map((n) => randomAxisChunks(n, r));
      const x = fromNpy(fileOf(c), { dtype, chunks });
      expect(x.dtype).toBe(dtype);
      expect(x.shape).toEqual(c.shape);
      for (const scheduler of ['sync', 'threads'] as const) {
        if (want === 'overflow') {
          const err = await compute(x, { scheduler }).then(
            () => expect.unreachable(`${c.name} as ${dtype} should overflow`),
            (e: unknown) => e,
          );
          expect(isTesseraError(err)).toBe(true);
          expect(String(err) + String((err as Error).cause)).toMatch(
            new RegExp(`fromNpy: .* \\(${c.fileDtype}\\), which does not fit dtype '${dtype}'`),
          );
          continue;
        }
        const got = await compute(x, { scheduler });
        if (dtype === 'bool') expect(got.toArray().map((v) => v !== 0)).toEqual(want);
        else expect(got.toArray()).toEqual(want);
      }
    }
  });

  test('reductions read the cast blocks tile by tile: sum of arange(200) as numpy', async () => {
    const c = cases[0]!;
    const x = fromNpy(fileOf(c), { dtype: 'int32', chunks: 37 });
    expect((await compute(x.max())).item()).toBe(199);
    expect((await compute(x.astype('float64').sum())).item()).toBe(19900);
  });

  test.each(cases.map((c) => [c.name, c] as const))(
    '%s: without a dtype, the file dtype with every value exact',
    async (_, c) => {
      const r = rng(c.values.length + 11);
      const want = c.values.map(BigInt);
      const x = fromNpy(fileOf(c), { chunks: c.shape.map((n) => randomAxisChunks(n, r)) });
      expect(x.dtype).toBe(c.fileDtype);
      expect(x.shape).toEqual(c.shape);
      for (const scheduler of ['sync', 'threads'] as const) {
        const got = await compute(x, { scheduler });
        expect(got.dtype).toBe(c.fileDtype);
        expect(got.data).toBeInstanceOf(c.fileDtype === 'int64' ? BigInt64Array : BigUint64Array);
        expect([...got.data]).toEqual(want);
      }
    },
  );

  test('int64 files read as uint64 and uint64 files as int64: exact, or ValueError', async () => {
    const RANGE = { int64: [-(2n ** 63n), 2n ** 63n - 1n], uint64: [0n, 2n ** 64n - 1n] };
    for (const c of cases) {
      const dtype = c.fileDtype === 'int64' ? 'uint64' : 'int64';
      const want = c.values.map(BigInt);
      const [lo, hi] = RANGE[dtype];
      const fits = want.every((v) => v >= lo! && v <= hi!);
      const x = fromNpy(fileOf(c), { dtype, chunks: c.shape.map((n) => Math.max(1, n >> 1)) });
      expect(x.dtype).toBe(dtype);
      if (!fits) {
        const err = await compute(x, { scheduler: 'sync' }).then(
          () => expect.unreachable(`${c.name} as ${dtype} should overflow`),
          (e: unknown) => e,
        );
        expect(String(err) + String((err as Error).cause)).toMatch(
          new RegExp(`fromNpy: .* \\(${c.fileDtype}\\), which does not fit dtype '${dtype}'`),
        );
        continue;
      }
      expect([...(await compute(x, { scheduler: 'sync' })).data], c.name).toEqual(want);
    }
  });

  test('toNpy of int64 and uint64 arrays writes the bytes np.save wrote; fromNpy reads them back', async () => {
    const plain = cases.filter((c) => !c.name.includes('endian') && !c.name.includes('Fortran'));
    expect(plain.length).toBeGreaterThanOrEqual(6);
    for (const c of plain) {
      const r = rng(c.values.length + 3);
      const data =
        c.fileDtype === 'int64'
          ? BigInt64Array.from(c.values, BigInt)
          : BigUint64Array.from(c.values, BigInt);
      const chunks = c.shape.map((n) => randomAxisChunks(n, r));
      const x = fromArray(data, { shape: c.shape, chunks });
      expect(x.dtype).toBe(c.fileDtype);
      for (const scheduler of ['sync', 'threads'] as const) {
        const path = join(dir, `written-${files.size}-${scheduler}.npy`);
        await toNpy(x, path, { scheduler });
        expect(readFileSync(path).equals(Buffer.from(c.npy, 'base64')), c.name).toBe(true);
        const back = await compute(fromNpy(path, { chunks: 'auto' }), { scheduler: 'sync' });
        expect(back.dtype).toBe(c.fileDtype);
        expect([...back.data]).toEqual(c.values.map(BigInt));
      }
    }
  });

  test('the asked dtype is part of the graph name', () => {
    const path = fileOf(cases[0]!);
    expect(fromNpy(path, { dtype: 'int32' }).name).toBe(fromNpy(path, { dtype: 'int32' }).name);
    expect(fromNpy(path, { dtype: 'int32' }).name).not.toBe(
      fromNpy(path, { dtype: 'float64' }).name,
    );
  });
});
