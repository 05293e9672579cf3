// fromNpy of int64 and uint64 files (NumPy's default integer) against numpy: written by
// np.save (test/fixtures/npy-int64.py), cast on read to the dtype asked for, in random
// chunkings, on the sync and thread schedulers; a value that does not fit an integer dtype
// raises ValueError instead of wrapping; without a dtype the file is a DTypeError.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { DType } from '../../src/array/dtype.ts';
import { isTesseraError } from '../../src/errors.ts';
import { compute, fromNpy } from '../../src/index.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import fixtures from '../fixtures/npy-int64.json' with { type: 'json' };
import { expectThrow } from '../helpers/expect-throw.ts';
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

  test('without a dtype an int64 file is a DTypeError naming the way out', () => {
    for (const c of cases.slice(0, 1).concat(cases.filter((k) => k.fileDtype === 'uint64'))) {
      expectThrow(() => fromNpy(fileOf(c)), 'DTypeError', [
        'fromNpy',
        `holds ${c.fileDtype}`,
        '{ dtype }',
      ]);
    }
    expectThrow(() => fromNpy(fileOf(cases[0]!), { dtype: 'int64' as DType }), 'DTypeError', [
      'fromNpy',
      'unknown dtype',
    ]);
  });

  test('the asked dtype is part of the graph name', () => {
    const path = fileOf(cases[0]!);
    expect(fromNpy(path, { dtype: 'int32' }).name).toBe(fromNpy(path, { dtype: 'int32' }).name);
    expect(fromNpy(path, { dtype: 'int32' }).name).not.toBe(
      fromNpy(path, { dtype: 'float64' }).name,
    );
  });
});
