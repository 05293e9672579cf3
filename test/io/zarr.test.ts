// fromZarr and toZarr: arrays written by zarrita itself (v3) and by hand (v2, raw and zlib),
// read back in random chunkings equal to the dense data; toZarr output read by zarrita
// directly; reads on worker threads and processes; bad stores fail when opened.

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import FileSystemStore from '@zarrita/storage/fs';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import * as zarr from 'zarrita';
import { DTYPES } from '../../src/array/dtype.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import { compute, fromArray, fromZarr, random, toZarr } from '../../src/index.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import { expectArray, randomDense, rng } from '../helpers/reference.ts';
import { rejection } from '../helpers/rejection.ts';
import { randomRef } from './big-reference.ts';

const dir = mkdtempSync(join(tmpdir(), 'tessera-zarr-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await shutdownDefaultPool();
});
let storeNo = 0;
const newStore = (): string => join(dir, `s${storeNo++}.zarr`);
const SYNC = { scheduler: 'sync' } as const;

/** Write `ref` as a Zarr v3 array with zarrita (the independent writer). */
async function writeV3(ref: NDArray, chunkShape: number[]): Promise<string> {
  const path = newStore();
  const arr = await zarr.create(zarr.root(new FileSystemStore(path)), {
    shape: [...ref.shape],
    chunkShape,
    dtype: ref.dtype as zarr.DataType,
    // int64/uint64: zarrita's default null fill_value cannot fill the BigInt chunks its
    // partial writes read first (and a bigint 0n does not go through JSON.stringify)
    ...(ref.dtype === 'int64' || ref.dtype === 'uint64' ? { fillValue: 0 as never } : {}),
  });
  const data =
    ref.dtype === 'bool'
      ? new zarr.BoolArray(ref.data.buffer, ref.data.byteOffset, ref.size)
      : ref.data;
  const stride = ref.shape.map((_, i) => ref.shape.slice(i + 1).reduce((a, b) => a * b, 1));
  await zarr.set(arr, null, { data, shape: [...ref.shape], stride } as zarr.Chunk<zarr.DataType>);
  return path;
}

/** A Zarr v2 array by hand: .zarray and one file per chunk, raw or zlib-compressed. */
function writeV2(ref: NDArray, chunks: number[], zlib: boolean): string {
  const path = newStore();
  mkdirSync(path, { recursive: true });
  const codes: Record<string, string> = { float64: '<f8', int16: '<i2', uint8: '|u1' };
  writeFileSync(
    join(path, '.zarray'),
    JSON.stringify({
      zarr_format: 2,
      shape: ref.shape,
      chunks,
      dtype: codes[ref.dtype],
      compressor: zlib ? { id: 'zlib', level: 1 } : null,
      fill_value: 0,
      order: 'C',
      filters: null,
    }),
  );
  const grid = ref.shape.map((n, i) => Math.ceil(n / chunks[i]!));
  const strides = ref.shape.map((_, i) => ref.shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const total = grid.reduce((a, b) => a * b, 1);
  for (let c = 0; c < total; c++) {
    const coord: number[] = [];
    let rest = c;
    for (let i = grid.length - 1; i >= 0; i--) {
      coord[i] = rest % grid[i]!;
      rest = Math.floor(rest / grid[i]!);
    }
    // v2 chunks are full-size, edge chunks padded
    const size = chunks.reduce((a, b) => a * b, 1);
    const block = new (ref.data.constructor as new (n: number) => typeof ref.data)(size);
    const at = new Array<number>(chunks.length).fill(0);
    for (let k = 0; k < size; k++) {
      let rem = k;
      for (let i = chunks.length - 1; i >= 0; i--) {
        at[i] = rem % chunks[i]!;
        rem = Math.floor(rem / chunks[i]!);
      }
      const g = at.map((v, i) => coord[i]! * chunks[i]! + v);
      if (g.every((v, i) => v < ref.shape[i]!)) {
        block[k] = ref.data[g.reduce((o, v, i) => o + v * strides[i]!, 0)]!;
      }
    }
    const bytes = new Uint8Array(block.buffer);
    writeFileSync(join(path, coord.join('.') || '0'), zlib ? deflateSync(bytes) : bytes);
  }
  return path;
}

// zarrita (the independent writer) has no float16 data type; tessera reads no complex Zarr yet
const ZARRITA_DTYPES = DTYPES.filter((d) => d !== 'float16' && !d.startsWith('complex'));

describe('fromZarr', () => {
  test.each(ZARRITA_DTYPES)('%s v3 arrays, default and random chunkings', async (dtype) => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        async (shape, seed) => {
          const r = rng(seed);
          const ref = randomRef(shape, dtype, seed);
          const zchunks = shape.map((n) => 1 + Math.floor(r() * n));
          const path = await writeV3(ref, zchunks);
          const x = await fromZarr(path);
          expect(x.shape).toEqual(shape);
          expect(x.dtype).toBe(dtype);
          expect(x.chunks.map((c) => c[0])).toEqual(zchunks);
          expectArray(await compute(x, SYNC), ref, 0);
          const other = shape.map((n) => 1 + Math.floor(r() * n));
          expectArray(await compute(await fromZarr(path, { chunks: other }), SYNC), ref, 0);
        },
      ),
      { numRuns: 6 },
    );
  });

  test.each([false, true])('v2 arrays written by hand (zlib: %s)', async (zlib) => {
    for (const [dtype, shape, chunks] of [
      ['float64', [7, 5], [3, 2]],
      ['int16', [10], [4]],
      ['uint8', [3, 4, 5], [2, 4, 2]],
    ] as const) {
      const ref = randomDense(shape, dtype, 11);
      const x = await fromZarr(writeV2(ref, [...chunks], zlib));
      expect(x.chunks.map((c) => c[0])).toEqual(chunks);
      expectArray(await compute(x.add(0), SYNC), ref, 0);
    }
  });

  test('arrays inside a group, read on worker threads and processes equal to sync', async () => {
    const root = newStore();
    const store = new FileSystemStore(root);
    await zarr.create(zarr.root(store));
    const ref = randomDense([40, 30], 'float32', 4);
    const arr = await zarr.create(zarr.root(store).resolve('group/raw'), {
      shape: [40, 30],
      chunkShape: [16, 8],
      dtype: 'float32',
    });
    await zarr.set(arr, null, {
      data: ref.data,
      shape: [40, 30],
      stride: [30, 1],
    } as zarr.Chunk<'float32'>);
    const x = await fromZarr(root, { path: 'group/raw' });
    const y = x.mul(2).sum({ axis: 0 });
    const want = await compute(y, SYNC);
    for (const scheduler of ['threads', 'processes'] as const) {
      const got = await compute(y, { scheduler, workers: 2 });
      expect([...got.data], scheduler).toEqual([...want.data]);
    }
  }, 30_000);

  test('a store served over http is read by URL, on the sync scheduler and on threads', async () => {
    const ref = randomDense([20, 12], 'int16', 7);
    const root = await writeV3(ref, [8, 5]);
    const server = createServer((req, res) => {
      const file = join(root, decodeURIComponent(new URL(req.url!, 'http://x').pathname));
      if (!existsSync(file) || statSync(file).isDirectory()) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200).end(readFileSync(file));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const x = await fromZarr(`http://127.0.0.1:${port}`);
      expect(x.chunks.map((c) => c[0])).toEqual([8, 5]);
      expectArray(await compute(x, SYNC), ref, 0);
      expectArray(await compute(x.add(0), { scheduler: 'threads', workers: 2 }), ref, 0);
    } finally {
      server.close();
    }
  }, 30_000);

  test('a missing store or array fails when opened; unwritten int64 chunks read as 0n', async () => {
    const missing = await rejection(fromZarr(join(dir, 'nothing.zarr')));
    expect(String(missing)).toMatch(/ValueError: fromZarr: no Zarr array at .*nothing\.zarr/);
    const path = newStore();
    await zarr.create(zarr.root(new FileSystemStore(path)), {
      shape: [2],
      chunkShape: [2],
      dtype: 'int64',
    });
    const x = await fromZarr(path);
    expect(x.dtype).toBe('int64');
    const got = await compute(x, SYNC);
    expect(got.data).toBeInstanceOf(BigInt64Array);
    expect([...got.data]).toEqual([0n, 0n]);
  });
});

describe('toZarr', () => {
  test('writes every block; zarrita reads back the same values, dtype and chunks', async () => {
    for (const [dtype, shape, chunks] of [
      ['float64', [13, 7], [5, 3]],
      ['int32', [20], [6]],
      ['bool', [4, 6], [4, 4]],
      ['uint16', [3, 4, 5], [2, 3, 5]],
      ['int64', [9, 4], [4, 3]],
      ['uint64', [7], [3]],
    ] as const) {
      const ref = randomRef(shape, dtype, 21);
      const path = newStore();
      await toZarr(fromArray(ref, { chunks: [...chunks] }), path, SYNC);
      const arr = await zarr.open(zarr.root(new FileSystemStore(path)), { kind: 'array' });
      expect(arr.shape).toEqual(shape);
      expect(arr.chunks).toEqual(chunks);
      expect(arr.dtype).toBe(dtype);
      const back = await compute(await fromZarr(path), SYNC);
      expectArray(back, ref, 0);
    }
  });

  test('irregular chunks are rechunked to the Zarr grid; a path inside the store; threads', async () => {
    const x = random.uniform([50, 30], { seed: 3, chunks: [[10, 25, 15], [30]] });
    const path = newStore();
    await toZarr(x, path, {
      path: 'inner/noise',
      chunks: [16, 16],
      scheduler: 'threads',
      workers: 2,
    });
    const back = await fromZarr(path, { path: 'inner/noise' });
    expect(back.chunks.map((c) => c[0])).toEqual([16, 16]);
    expectArray(await compute(back, SYNC), await compute(x, SYNC), 0);
  });

  test('compressed with blosc or zstd; a codec zarrita cannot encode fails naming it', async () => {
    const ref = randomDense([30, 20], 'float64', 31);
    const bytes = { name: 'bytes', configuration: { endian: 'little' } };
    for (const codec of [
      {
        name: 'blosc',
        configuration: { cname: 'lz4', clevel: 5, shuffle: 'shuffle', typesize: 8, blocksize: 0 },
      },
      { name: 'zstd', configuration: { level: 1, checksum: false } },
    ]) {
      const path = newStore();
      await toZarr(fromArray(ref, { chunks: [16, 8] }), path, { codecs: [bytes, codec], ...SYNC });
      const arr = await zarr.open(zarr.root(new FileSystemStore(path)), { kind: 'array' });
      const got = await zarr.get(arr, null);
      expect(Array.from(got.data as Float64Array), codec.name).toEqual([...ref.data]);
    }
    const gzip = { name: 'gzip', configuration: { level: 1 } };
    const err = await rejection(
      toZarr(fromArray(ref), newStore(), { codecs: [bytes, gzip], ...SYNC }),
    );
    expect(String(err)).toMatch(/TaskError: .*zarr-write.*encode chunk via codec "gzip"/);
  });

  test('bad chunk shapes fail before anything is written', async () => {
    const x = fromArray(new Float64Array(12), { shape: [3, 4] });
    expect(String(await rejection(toZarr(x, newStore(), { chunks: [2] })))).toContain(
      'ValueError: toZarr: chunks [2] is not one positive integer per axis',
    );
  });
});
