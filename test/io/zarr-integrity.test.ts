// Zarr integrity: a chunk that is truncated, over-long or undecodable fails the compute naming
// its key; a toZarr that failed or was interrupted is never read back as complete; fill_value
// is valid Zarr v3 for every dtype (zarrita reads it back); toZarr does not overwrite silently.

import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import FileSystemStore from '@zarrita/storage/fs';
import { afterAll, describe, expect, test } from 'vitest';
import * as zarr from 'zarrita';
import type { DType } from '../../src/array/dtype.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import { isTesseraError, type TaskError } from '../../src/errors.ts';
import { compute, fromArray, fromZarr, mapBlocks, toZarr } from '../../src/index.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import { randomDense } from '../helpers/reference.ts';
import { rejection } from '../helpers/rejection.ts';

const T = 30_000;
const dir = mkdtempSync(join(tmpdir(), 'tessera-zarr-integrity-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await shutdownDefaultPool();
});
let storeNo = 0;
const newStore = (): string => join(dir, `s${storeNo++}.zarr`);
const SYNC = { scheduler: 'sync' } as const;
const THREADS = { scheduler: 'threads', workers: 2 } as const;

const zarrJson = (path: string, inner = ''): Record<string, unknown> =>
  JSON.parse(readFileSync(join(path, inner, 'zarr.json'), 'utf8'));

/** A float64 [8, 6] array in [4, 3] chunks written by tessera, and its data. */
async function written(codecs?: zarr.CodecMetadata[]): Promise<{ path: string; ref: NDArray }> {
  const ref = randomDense([8, 6], 'float64', 5);
  const path = newStore();
  await toZarr(fromArray(ref, { chunks: [4, 3] }), path, {
    ...SYNC,
    ...(codecs ? { codecs } : {}),
  });
  return { path, ref };
}

describe('fromZarr: damaged chunks', () => {
  test.each([
    ['truncated to half', (f: string) => truncateSync(f, 48), /truncated/],
    ['truncated mid-element', (f: string) => truncateSync(f, 45), /holds 5 elements.*truncated/],
    ['over-long', (f: string) => appendFileSync(f, new Uint8Array(16)), /over-long/],
  ] as const)(
    'a chunk %s is a TaskError naming its key, on sync and threads',
    async (_, damage, why) => {
      const { path } = await written();
      damage(join(path, 'c', '1', '0'));
      const x = await fromZarr(path);
      for (const opts of [SYNC, THREADS]) {
        const err = (await rejection(compute(x.sum(), opts))) as TaskError;
        expect(isTesseraError(err, 'TaskError'), opts.scheduler).toBe(true);
        expect(err.kernel).toBe('zarr-read');
        expect(err.message).toContain(`chunk 'c/1/0' of array '/' in ${path}`);
        expect(err.message).toMatch(why);
        expect(isTesseraError(err.cause, 'ValueError')).toBe(true);
      }
    },
    T,
  );

  test('a compressed chunk that fails to decode names its key', async () => {
    const bytes = { name: 'bytes', configuration: { endian: 'little' } };
    const zstd = { name: 'zstd', configuration: { level: 1, checksum: false } };
    const { path, ref } = await written([bytes, zstd]);
    const x = await fromZarr(path);
    expect([...(await compute(x, SYNC)).data]).toEqual([...ref.data]);
    writeFileSync(join(path, 'c', '0', '1'), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    const err = (await rejection(compute(x, SYNC))) as TaskError;
    expect(isTesseraError(err, 'TaskError')).toBe(true);
    expect(err.message).toMatch(/fromZarr: chunk 'c\/0\/1' of array '\/' in .* cannot be decoded/);
  });

  test('a truncated chunk of a v2 array (key "1.0") is named the v2 way', async () => {
    const path = newStore();
    const arr = await zarr.create(zarr.root(new FileSystemStore(path)), {
      shape: [4, 4],
      chunkShape: [2, 4],
      dtype: 'int32',
    });
    expect(arr.shape).toEqual([4, 4]);
    // by hand: a v2 array beside the v3 one would be ambiguous, so replace the metadata
    rmSync(join(path, 'zarr.json'));
    writeFileSync(
      join(path, '.zarray'),
      JSON.stringify({
        zarr_format: 2,
        shape: [4, 4],
        chunks: [2, 4],
        dtype: '<i4',
        compressor: null,
        fill_value: 0,
        order: 'C',
        filters: null,
      }),
    );
    writeFileSync(join(path, '0.0'), new Uint8Array(32));
    writeFileSync(join(path, '1.0'), new Uint8Array(16));
    const err = (await rejection(compute(await fromZarr(path), SYNC))) as TaskError;
    expect(isTesseraError(err, 'TaskError')).toBe(true);
    expect(err.message).toContain("chunk '1.0'");
    expect(err.message).toContain('holds 4 elements, not the 8 of its chunk shape [2, 4]');
  });

  test('a store tessera did not write reads missing chunks as its fill value', async () => {
    const path = newStore();
    const arr = await zarr.create(zarr.root(new FileSystemStore(path)), {
      shape: [4],
      chunkShape: [2],
      dtype: 'int16',
      fillValue: 7,
      codecs: [{ name: 'bytes', configuration: { endian: 'little' } }],
    });
    await zarr.set(arr, [zarr.slice(0, 2)], {
      data: new Int16Array([1, 2]),
      shape: [2],
      stride: [1],
    });
    const got = await compute(await fromZarr(path), SYNC);
    expect([...got.data]).toEqual([1, 2, 7, 7]);
  });
});

describe('toZarr: complete or not at all', () => {
  const failing = (): ReturnType<typeof mapBlocks> =>
    mapBlocks(
      (b: NDArray, info: { chunkLocation: number[] }) => {
        if (info.chunkLocation[0] === 2) throw new Error('block 2 is bad');
        return b;
      },
      fromArray(new Float64Array(12), { chunks: 3 }),
      { dtype: 'float64' },
    );

  test('a write whose compute fails leaves a store fromZarr refuses as incomplete', async () => {
    const path = newStore();
    const err = await rejection(toZarr(failing(), path, SYNC));
    expect(isTesseraError(err, 'TaskError')).toBe(true);
    expect(zarrJson(path).attributes).toEqual({ tessera: { complete: false } });
    // some chunks were written: without the mark the array would read as whole
    expect(existsSync(join(path, 'c', '0'))).toBe(true);
    const refused = await rejection(fromZarr(path));
    expect(isTesseraError(refused, 'ValueError')).toBe(true);
    expect(String(refused)).toContain(`fromZarr: the array at ${JSON.stringify(path)} path "/"`);
    expect(String(refused)).toContain('is incomplete');
  });

  test('an interrupted write (aborted) is incomplete too; rewritten, it reads back', async () => {
    const path = newStore();
    const ac = new AbortController();
    const x = fromArray(new Float64Array(12).fill(4), { chunks: 3 });
    const slow = mapBlocks(
      async (b: NDArray) => {
        await new Promise((r) => setTimeout(r, 50));
        return b;
      },
      x,
      { dtype: 'float64' },
    );
    setTimeout(() => ac.abort(), 20);
    const err = await rejection(toZarr(slow, path, { ...SYNC, signal: ac.signal }));
    expect(isTesseraError(err, 'CancelledError')).toBe(true);
    expect(String(await rejection(fromZarr(path)))).toContain('is incomplete');
    await toZarr(x, path, { ...SYNC, overwrite: true });
    expect(zarrJson(path).attributes).toEqual({ tessera: { complete: true } });
    expect([...(await compute(await fromZarr(path), SYNC)).data]).toEqual(new Array(12).fill(4));
  });

  test('an existing array is refused without overwrite, replaced whole with it', async () => {
    const path = newStore();
    await toZarr(fromArray(new Int32Array(10).fill(1), { chunks: 2 }), path, {
      ...SYNC,
      path: 'a',
    });
    expect(existsSync(join(path, 'a', 'c', '4'))).toBe(true);
    const second = fromArray(new Int32Array(4).fill(2), { chunks: 4 });
    const refused = await rejection(toZarr(second, path, { ...SYNC, path: 'a' }));
    expect(isTesseraError(refused, 'ValueError')).toBe(true);
    expect(String(refused)).toContain(
      `toZarr: ${JSON.stringify(path)} path "/a" holds a Zarr array already; pass { overwrite: true }`,
    );
    // the refused write changed nothing
    expect([...(await compute(await fromZarr(path, { path: 'a' }), SYNC)).data]).toEqual(
      new Array(10).fill(1),
    );
    await toZarr(second, path, { ...SYNC, path: 'a', overwrite: true });
    expect(existsSync(join(path, 'a', 'c', '4'))).toBe(false);
    expect([...(await compute(await fromZarr(path, { path: 'a' }), SYNC)).data]).toEqual([
      2, 2, 2, 2,
    ]);
    await zarr.create(zarr.root(new FileSystemStore(path)).resolve('g'));
    const group = await rejection(toZarr(second, path, { ...SYNC, path: 'g', overwrite: true }));
    expect(String(group)).toContain('is a Zarr group');
  });
});

describe('toZarr: fill_value', () => {
  test.each([
    ['float64', undefined, 0, 0],
    ['float64', Number.NaN, 'NaN', Number.NaN],
    ['float32', Number.POSITIVE_INFINITY, 'Infinity', Number.POSITIVE_INFINITY],
    ['float64', Number.NEGATIVE_INFINITY, '-Infinity', Number.NEGATIVE_INFINITY],
    ['float32', -2.5, -2.5, -2.5],
    ['int32', undefined, 0, 0],
    ['int16', -3, -3, -3],
    ['uint8', 255, 255, 255],
    ['uint32', 4_000_000_000, 4_000_000_000, 4_000_000_000],
    ['bool', undefined, false, 0],
    ['bool', true, true, 1],
  ] as const)(
    '%s with fillValue %s: fill_value %j in zarr.json; missing chunks read so by zarrita',
    async (dtype, fillValue, json, value) => {
      const path = newStore();
      const x = fromArray(randomDense([6], dtype as DType, 3), { chunks: 2 });
      await toZarr(x, path, { ...SYNC, ...(fillValue === undefined ? {} : { fillValue }) });
      const doc = zarrJson(path);
      // Zarr v3: a JSON number, boolean, or one of the float strings; never null
      expect(doc.fill_value).toStrictEqual(json);
      expect(doc.codecs).toEqual([{ name: 'bytes', configuration: { endian: 'little' } }]);
      rmSync(join(path, 'c', '1'));
      const arr = await zarr.open(zarr.root(new FileSystemStore(path)), { kind: 'array' });
      const got = await zarr.get(arr, [zarr.slice(2, 4)]);
      const cells = Array.from(got.data as ArrayLike<number | boolean>, Number);
      expect(cells).toEqual([value, value]);
      const ours = await compute(await fromZarr(path), SYNC);
      expect([...ours.data.subarray(2, 4)]).toEqual([value, value]);
    },
  );

  test.each([
    ['int16', 1.5, 'an integer in -32768…32767'],
    ['uint8', 256, 'an integer in 0…255'],
    ['bool', 2, 'a boolean'],
    ['float32', true, 'a number'],
  ] as const)('%s with fillValue %s fails before writing', async (dtype, fillValue, why) => {
    const path = newStore();
    const x = fromArray(randomDense([4], dtype as DType, 1));
    const err = await rejection(toZarr(x, path, { ...SYNC, fillValue }));
    expect(isTesseraError(err, 'ValueError')).toBe(true);
    expect(String(err)).toContain(`toZarr: fillValue ${fillValue} is not ${why}`);
    expect(existsSync(path)).toBe(false);
  });
});
