// fromNpy against files written by npyjs (an independent writer) and by hand (Fortran order,
// big-endian, format version 2): every dtype, random shapes and chunkings, on the sync and
// thread schedulers; bad files fail when the array is made, naming the file.

import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { dump } from 'npyjs';
import { afterAll, describe, expect, test } from 'vitest';
import { DTYPES } from '../../src/array/dtype.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import { isTesseraError } from '../../src/errors.ts';
import { compute, fromNpy, type LazyArray } from '../../src/index.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { arbShapeAndChunks, expectArray, randomDense } from '../helpers/reference.ts';
import { randomRef } from './big-reference.ts';

const dir = mkdtempSync(join(tmpdir(), 'tessera-npy-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await shutdownDefaultPool();
});

let fileNo = 0;
function save(bytes: Uint8Array | ArrayBuffer): string {
  const path = join(dir, `a${fileNo++}.npy`);
  writeFileSync(path, bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  return path;
}

/** A .npy file by hand: any header dict, format version, and data bytes. */
function handMade(dict: string, data: Uint8Array, version = 1): string {
  const pre = version === 1 ? 10 : 12;
  let header = `${dict} `;
  while ((pre + header.length + 1) % 64 !== 0) header += ' ';
  header += '\n';
  const out = new Uint8Array(pre + header.length + data.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, header.length, true);
  else view.setUint32(8, header.length, true);
  out.set(new TextEncoder().encode(header), pre);
  out.set(data, pre + header.length);
  return save(out);
}

/** A modification time in whole seconds (files made at the start of the tests are older). */
const FIXED_TIME = 1_600_000_000;

const bytesOf = (a: NDArray): Uint8Array =>
  new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength).slice();

// npyjs writes every dtype but bool (tested with a hand-made header below) and complex
// (written by toNpy and read back in test/apply/complex.test.ts)
const NPYJS_DTYPES = DTYPES.filter((d) => d !== 'bool' && !d.startsWith('complex'));

/**
 * Each reduction computed alone (so its read fuses with it and runs tile by tile) equals the
 * unfused graph, which reads whole blocks, bit for bit.
 */
async function expectTiledLikeWhole(reductions: LazyArray[]): Promise<void> {
  for (const r of reductions) {
    const tiled = await compute(r, { scheduler: 'sync' });
    const whole = await compute(r, { scheduler: 'sync', optimize: false });
    expect([...tiled.data], r.name).toEqual([...whole.data]);
  }
}

describe('fromNpy', () => {
  test.each(NPYJS_DTYPES)('%s files from npyjs, random shapes and chunkings', async (dtype) => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 9), async ({ shape, chunks, seed }) => {
        const ref = randomRef(shape, dtype, seed);
        // npyjs writes a Uint16Array as '<u2' unless told it holds float16 bits
        const opts = dtype === 'float16' ? { dtype: 'f2' as const } : undefined;
        const x = fromNpy(save(dump(ref.data, shape, opts)), { chunks });
        expect(x.shape).toEqual(shape);
        expect(x.dtype).toBe(dtype);
        expect(x.chunks).toEqual(chunks);
        expectArray(await compute(x, { scheduler: 'sync' }), ref, 0);
      }),
      { numRuns: 15 },
    );
  });

  test('bool (|b1), 0-d and empty arrays', async () => {
    const flags = randomDense([7, 5], 'bool', 3);
    const b = fromNpy(
      handMade("{'descr': '|b1', 'fortran_order': False, 'shape': (7, 5), }", bytesOf(flags)),
      {
        chunks: [3, 2],
      },
    );
    expect(b.dtype).toBe('bool');
    expectArray(await compute(b, { scheduler: 'sync' }), flags, 0);
    const scalar = fromNpy(save(dump(new Float64Array([2.5]), [])));
    expect(scalar.shape).toEqual([]);
    expect((await compute(scalar, { scheduler: 'sync' })).data[0]).toBe(2.5);
    const empty = fromNpy(save(dump(new Float32Array(0), [0, 4])));
    expect(empty.shape).toEqual([0, 4]);
    expect((await compute(empty, { scheduler: 'sync' })).size).toBe(0);
  });

  test('Fortran-ordered files are read in logical (C) order, in any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 8), async ({ shape, chunks, seed }) => {
        const ref = randomDense(shape, 'int32', seed);
        // Column-major bytes: the C-order bytes of the transpose.
        const t = await compute(fromNpy(save(dump(ref.data, shape))).T, { scheduler: 'sync' });
        const dict = `{'descr': '<i4', 'fortran_order': True, 'shape': (${shape.join(', ')},), }`;
        const x = fromNpy(handMade(dict, bytesOf(t)), { chunks });
        expectArray(await compute(x, { scheduler: 'sync' }), ref, 0);
      }),
      { numRuns: 25 },
    );
  });

  test('big-endian files and format version 2 headers', async () => {
    const ref = randomDense([6, 9], 'float64', 5);
    const swapped = bytesOf(ref);
    for (let i = 0; i < swapped.length; i += 8) swapped.subarray(i, i + 8).reverse();
    const be = fromNpy(
      handMade("{'descr': '>f8', 'fortran_order': False, 'shape': (6, 9), }", swapped, 2),
      {
        chunks: [4, 5],
      },
    );
    expectArray(await compute(be, { scheduler: 'sync' }), ref, 0);
  });

  test('reductions read blocks tile by tile: bit-identical to the materialized graph', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbShapeAndChunks(3, 40),
        fc.constantFrom('float64', 'float32', 'int16', 'uint8'),
        fc.boolean(),
        async ({ shape, chunks, seed }, dtype, bigEndian) => {
          const ref = randomDense(shape, dtype, seed);
          let path: string;
          if (bigEndian && dtype !== 'uint8') {
            const b = bytesOf(ref);
            const size = ref.data.BYTES_PER_ELEMENT;
            for (let i = 0; i < b.length; i += size) b.subarray(i, i + size).reverse();
            const code = { float64: '>f8', float32: '>f4', int16: '>i2' }[dtype];
            const dict = `{'descr': '${code}', 'fortran_order': False, 'shape': (${shape.join(', ')},), }`;
            path = handMade(dict, b);
          } else path = save(dump(ref.data, shape));
          const x = fromNpy(path, { chunks });
          await expectTiledLikeWhole([
            x.sum(),
            x.max({ axis: shape.length - 1 }),
            x.mean({ axis: 0 }),
          ]);
        },
      ),
      { numRuns: 40 },
    );
  });

  test('blocks of several tiles (16,384 elements each) reduce to the same bits', async () => {
    for (const [shape, chunks] of [
      [
        [300, 200],
        [[128, 172], [200]],
      ],
      [
        [50, 40, 30],
        [[33, 17], [40], [30]],
      ],
      [[70001], [[40000, 30001]]],
    ] as const) {
      const ref = randomDense(shape, 'float64', 3);
      const x = fromNpy(save(dump(ref.data, [...shape])), { chunks: chunks.map((c) => [...c]) });
      await expectTiledLikeWhole([x.sum(), x.min({ axis: 0 }), x.mean({ axis: shape.length - 1 })]);
    }
  });

  test('blocks are read on worker threads, and the result equals sync', async () => {
    const ref = randomDense([300, 200], 'float32', 9);
    const x = fromNpy(save(dump(ref.data, [300, 200])), { chunks: [64, 50] });
    const [threads, sync] = await Promise.all([
      compute(x.mul(2).sum({ axis: 0 }), { scheduler: 'threads', workers: 2 }),
      compute(x.mul(2).sum({ axis: 0 }), { scheduler: 'sync' }),
    ]);
    expect([...threads.data]).toEqual([...sync.data]);
    expectArray(await compute(x, { scheduler: 'threads', workers: 2 }), ref, 0);
  });

  test('the same file gives the same graph names; a rewritten file a new one', () => {
    const path = save(dump(new Float64Array([1, 2, 3]), [3]));
    expect(fromNpy(path).name).toBe(fromNpy(path).name);
    const before = fromNpy(path).name;
    writeFileSync(path, new Uint8Array(dump(new Float64Array([1, 2, 4]), [3])));
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    expect(fromNpy(path).name).not.toBe(before);
  });

  test.each([
    ['a missing file', () => join(dir, 'missing.npy'), 'ValueError', ['fromNpy', 'missing.npy']],
    [
      'a file that is not .npy',
      () => save(new TextEncoder().encode('hello, world')),
      'ValueError',
      ['not a .npy file'],
    ],
    [
      'a truncated file',
      () =>
        handMade("{'descr': '<f8', 'fortran_order': False, 'shape': (10,), }", new Uint8Array(16)),
      'ValueError',
      /truncated: (\d+) bytes, its header needs (\d+)/,
    ],
    [
      'complex256 data',
      () =>
        handMade("{'descr': '<c32', 'fortran_order': False, 'shape': (2,), }", new Uint8Array(64)),
      'DTypeError',
      ["'<c32'"],
    ],
    [
      'a structured dtype',
      () =>
        handMade(
          "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2,), }",
          new Uint8Array(16),
        ),
      'DTypeError',
      ['structured'],
    ],
    [
      'format version 4',
      () =>
        handMade("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", new Uint8Array(8), 4),
      'ValueError',
      ['version 4'],
    ],
  ] as const)('%s fails when the array is made', (_, file, tag, fragments) => {
    const path = file();
    expectThrow(() => fromNpy(path), tag, fragments instanceof RegExp ? fragments : [...fragments]);
  });

  test('int64 and uint64 files read as int64 and uint64 without a dtype, exactly', async () => {
    const i8 = BigInt64Array.of(-(2n ** 63n), 2n ** 53n + 1n, -1n, 2n ** 63n - 1n);
    const little = handMade(
      "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 2), }",
      new Uint8Array(i8.buffer),
    );
    const u8 = BigUint64Array.of(2n ** 64n - 1n, 2n ** 63n + 3n, 0n);
    const swapped = new Uint8Array(u8.buffer.slice(0));
    for (let i = 0; i < swapped.length; i += 8) swapped.subarray(i, i + 8).reverse();
    const big = handMade("{'descr': '>u8', 'fortran_order': False, 'shape': (3,), }", swapped);
    for (const [path, dtype, want, chunks] of [
      [little, 'int64', i8, [1, 2]],
      [big, 'uint64', u8, [2]],
    ] as const) {
      const x = fromNpy(path, { chunks: [...chunks] });
      expect(x.dtype).toBe(dtype);
      for (const scheduler of ['sync', 'threads'] as const) {
        const got = await compute(x, { scheduler, workers: 2 });
        expect(got.data).toBeInstanceOf(want.constructor);
        expect([...got.data]).toEqual([...want]);
      }
    }
  });

  test('a file deleted after the array was made fails the compute with TaskError', async () => {
    const path = save(dump(new Float64Array(8), [8]));
    const x = fromNpy(path, { chunks: 4 });
    rmSync(path);
    const err = await compute(x, { scheduler: 'sync' }).then(
      () => expect.unreachable('expected a rejection'),
      (e: unknown) => e,
    );
    expect(isTesseraError(err, 'TaskError')).toBe(true);
    expect(String((err as Error).cause)).toContain('ENOENT');
  });

  test.each([
    [
      'rewritten with another shape (a new header and size)',
      (path: string) => writeFileSync(path, new Uint8Array(dump(new Float64Array(6), [2, 3]))),
      /its size went from \d+ to \d+ bytes/,
    ],
    [
      'rewritten with the same size and header, other data (a new mtime)',
      (path: string) => {
        writeFileSync(path, new Uint8Array(dump(new Float64Array([9, 9, 9, 9, 9, 9, 9, 9]), [8])));
        utimesSync(path, new Date(), new Date(Date.now() + 5000));
      },
      /its modification time changed/,
    ],
    [
      'its header edited in place, size and mtime kept',
      (path: string) => {
        const bytes = readFileSync(path);
        bytes[bytes.indexOf(0x3c)] = 0x3e; // '<f8' becomes '>f8': big-endian data
        writeFileSync(path, bytes);
        utimesSync(path, FIXED_TIME, FIXED_TIME);
      },
      /its header changed/,
    ],
  ] as const)(
    'a file %s after fromNpy fails the compute with TaskError naming the path',
    async (_, change, why) => {
      const path = save(dump(new Float64Array([1, 2, 3, 4, 5, 6, 7, 8]), [8]));
      // whole seconds: an edit can restore the very same mtime
      utimesSync(path, FIXED_TIME, FIXED_TIME);
      expect(statSync(path).mtimeMs).toBe(FIXED_TIME * 1000);
      const x = fromNpy(path, { chunks: 4 });
      expect([...(await compute(x, { scheduler: 'sync' })).data]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      change(path);
      for (const scheduler of ['sync', 'threads'] as const) {
        const err = await compute(x.sum(), { scheduler, workers: 2 }).then(
          () => expect.unreachable('expected a rejection'),
          (e: unknown) => e,
        );
        expect(isTesseraError(err, 'TaskError'), scheduler).toBe(true);
        const message = (err as Error).message;
        expect(message).toContain(`fromNpy: ${JSON.stringify(path)} changed since fromNpy read`);
        expect(message).toMatch(why);
        expect(isTesseraError((err as Error).cause, 'ValueError')).toBe(true);
      }
      // made again, the array reads the file as it is now
      expect(fromNpy(path).shape).not.toBeUndefined();
    },
    30_000,
  );
});
