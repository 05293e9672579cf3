// toNpy, toNpyStack and fromNpyStack: round trips on random shapes, chunkings and dtypes
// (sync, and once on threads), NumPy's header bytes, and failed writes leaving no file.

import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { DType } from '../../src/array/dtype.ts';
import {
  arange,
  compute,
  fromArray,
  fromNpy,
  fromNpyStack,
  mapBlocks,
  type NDArray,
  shutdown,
  toNpy,
  toNpyStack,
} from '../../src/index.ts';
import { npyHeaderBytes } from '../../src/io/npy-write.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray, randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';

const dir = mkdtempSync(join(tmpdir(), 'tessera-npy-write-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await shutdown();
});
const SYNC = { scheduler: 'sync' } as const;
const DTYPES: DType[] = ['float64', 'float32', 'int32', 'uint16', 'int8', 'bool'];

describe('toNpy', () => {
  test('the header is NumPy format 1.0, the data starting at a multiple of 64', () => {
    const h = new TextDecoder('latin1').decode(npyHeaderBytes('float64', [3, 4]));
    expect(h.length).toBe(128);
    expect(h.slice(0, 8)).toBe('\x93NUMPY\x01\x00');
    expect(h.slice(10)).toMatch(
      /^\{'descr': '<f8', 'fortran_order': False, 'shape': \(3, 4\), \} +\n$/,
    );
    expect(new TextDecoder().decode(npyHeaderBytes('bool', [5]))).toContain("'descr': '|b1'");
    expect(new TextDecoder().decode(npyHeaderBytes('int8', [5]))).toContain("'shape': (5,)");
    expect(new TextDecoder().decode(npyHeaderBytes('int64', [2]))).toContain("'descr': '<i8'");
    expect(new TextDecoder().decode(npyHeaderBytes('uint64', [2]))).toContain("'descr': '<u8'");
  });

  test.each(Array.from({ length: 8 }, (_, i) => i))('round trip %i', async (i) => {
    const r = rng(40 + i);
    const ndim = Math.floor(r() * 4);
    const shape = Array.from({ length: ndim }, () => Math.floor(r() * 7));
    const dtype = DTYPES[i % DTYPES.length]!;
    const dense = randomDense(shape, dtype, i + 1);
    const x = fromArray(dense).rechunk(shape.map((n) => randomAxisChunks(n, r)));
    const path = join(dir, `round-${i}.npy`);
    await toNpy(x, path, SYNC);
    const back = fromNpy(path);
    expect(back.shape).toEqual(shape);
    expectArray(await compute(back, SYNC), { dtype, shape, data: dense.data });
  });

  test('on threads: blocks written by the workers', async () => {
    const dense = randomDense([40, 30], 'float32', 9);
    const x = fromArray(dense, { chunks: [7, 11] });
    const path = join(dir, 'threads.npy');
    await toNpy(x, path, { scheduler: 'threads', workers: 2 });
    expectArray(await compute(fromNpy(path), SYNC), {
      dtype: 'float32',
      shape: [40, 30],
      data: dense.data,
    });
  });

  test('a failed compute leaves no file at the path, and no partial file', async () => {
    const path = join(dir, 'failed.npy');
    writeFileSync(path, 'an older file');
    const x = mapBlocks(
      (b: NDArray, info: { chunkLocation: number[] }) => {
        if (info.chunkLocation[0] === 2) throw new Error('disk on fire');
        return b;
      },
      arange(20, { chunks: 4, dtype: 'float64' }),
      { dtype: 'float64' },
    );
    await expect(toNpy(x, path, SYNC)).rejects.toThrow(/disk on fire/);
    expect(readFileSync(path, 'utf8')).toBe('an older file');
    unlinkSync(path);
    await expect(toNpy(x, path, SYNC)).rejects.toThrow(/disk on fire/);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });

  test('an aborted compute leaves no file', async () => {
    const path = join(dir, 'aborted.npy');
    const ac = new AbortController();
    ac.abort();
    await expect(
      toNpy(arange(10, { chunks: 2 }), path, { ...SYNC, signal: ac.signal }),
    ).rejects.toThrow();
    expect(existsSync(path)).toBe(false);
  });
});

describe('toNpyStack and fromNpyStack', () => {
  test.each([0, 1, -1])('round trip along axis %i (other axes made whole)', async (axis) => {
    const dense = randomDense([9, 8, 5], 'int32', 3 + axis);
    const x = fromArray(dense, { chunks: [4, 3, 2] });
    const where = join(dir, `stack${axis}`);
    await toNpyStack(where, x, { ...SYNC, axis });
    const ax = (axis + 3) % 3;
    expect(readdirSync(where).filter((f) => f.endsWith('.npy')).length).toBe(x.chunks[ax]!.length);
    const back = fromNpyStack(where);
    expect(back.chunks[ax]).toEqual(x.chunks[ax]);
    back.chunks.forEach((c, k) => {
      if (k !== ax) expect(c).toEqual([x.shape[k]]);
    });
    expectArray(await compute(back, SYNC), { dtype: 'int32', shape: [9, 8, 5], data: dense.data });
  });

  test('on threads', async () => {
    const dense = randomDense([12, 6], 'float64', 11);
    const where = join(dir, 'stack-threads');
    await toNpyStack(where, fromArray(dense, { chunks: [5, 6] }), {
      scheduler: 'threads',
      workers: 2,
    });
    expectArray(await compute(fromNpyStack(where), SYNC), { shape: [12, 6], data: dense.data });
  });

  test('a failed write leaves no info.json: fromNpyStack refuses the directory', async () => {
    const where = join(dir, 'stack-failed');
    const x = mapBlocks(
      (b: NDArray, info: { chunkLocation: number[] }) => {
        if (info.chunkLocation[0] === 1) throw new Error('boom');
        return b;
      },
      arange(9, { chunks: 3, dtype: 'float64' }),
      { dtype: 'float64' },
    );
    await expect(toNpyStack(where, x, SYNC)).rejects.toThrow(/boom/);
    expect(existsSync(join(where, 'info.json'))).toBe(false);
    expectThrow(() => fromNpyStack(where), 'ValueError', ['fromNpyStack:', 'no info.json']);
  });

  test('errors', async () => {
    const full = join(dir, 'stack0');
    await expect(toNpyStack(full, arange(3), SYNC)).rejects.toThrow(/toNpyStack: .* is not empty/);
    const unknown = arange(6).mask(arange(6).greater(2));
    await expect(toNpy(unknown, join(dir, 'u.npy'), SYNC)).rejects.toThrow(
      /toNpy: .*computeChunkSizes/,
    );
    await expect(toNpy(arange(3), '', SYNC)).rejects.toThrow(/toNpy: path/);
  });
});
