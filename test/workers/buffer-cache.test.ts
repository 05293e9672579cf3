// The process pool's buffer cache: large shared inputs go to a process once and come back
// as views equal to the originals; small or partial views travel with their task; the
// cache stays within its budget and drops buffers the main thread collected.

import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type DType, typedArrayCtor } from '../../src/array/dtype.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import type { Chunk } from '../../src/kernels/types.ts';
import { BufferCache, type CacheMessage, HeldBuffers } from '../../src/workers/buffer-cache.ts';
import type { TaskPayload } from '../../src/workers/types.ts';
import { decodeInputs } from '../../src/workers/wire.ts';
import { task } from '../helpers/payload.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** What the process receives: the message after a real serialize/deserialize (as IPC does). */
const overIpc = <T>(m: T): T => v8.deserialize(v8.serialize(m)) as T;

// Buffers from this size on are cached in these tests (small, so the tests are quick).
const MIN = 4096;

/** A main side and a process side wired together, with every message's kind recorded. */
function pair(budget: number) {
  const sent: { t: CacheMessage['t'] }[] = [];
  const held = new HeldBuffers();
  const cache = new BufferCache(
    budget,
    (m) => {
      sent.push({ t: m.t }); // not m itself: it would keep the buffer alive
      held.apply(overIpc(m));
    },
    MIN,
  );
  const ship = (tasks: TaskPayload[]): NDArray[][] => {
    const arrived = overIpc(cache.encode(tasks));
    held.resolve(arrived);
    decodeInputs(arrived);
    return arrived.map((t) => t.inputs as NDArray[]);
  };
  return { cache, sent, ship };
}

function shared(dtype: DType, bytes: number, seed: number): NDArray {
  const C = typedArrayCtor(dtype);
  const n = Math.floor(bytes / C.BYTES_PER_ELEMENT);
  const data = new C(new SharedArrayBuffer(n * C.BYTES_PER_ELEMENT));
  for (let i = 0; i < n; i++) data[i] = (i * 31 + seed) % 127;
  return new NDArray(data, [n], dtype);
}

/** A 1-d view of `x` from element `start`, `length` long, on the same buffer. */
function view(x: NDArray, start: number, length: number): NDArray {
  return new NDArray(x.data.subarray(start, start + length), [length], x.dtype);
}

const bytes = (a: NDArray): Buffer =>
  Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength);

const expectSame = (got: Chunk, want: NDArray): void => {
  expect(got).toBeInstanceOf(NDArray);
  const g = got as NDArray;
  expect(g.dtype).toBe(want.dtype);
  expect(g.shape).toEqual(want.shape);
  expect(bytes(g).equals(bytes(want))).toBe(true);
};

describe('BufferCache', () => {
  test('a large shared input is sent once and every task gets a view of it', () => {
    const { sent, ship } = pair(2 ** 30);
    const big = shared('float64', 2 * MIN, 1);
    const tasks = [0, 1, 2].map(() => task('slice', null, [big]));
    const got = ship(tasks);
    for (const inputs of got) expectSame(inputs[0]!, big);
    expect(sent.filter((m) => m.t === 'buffer')).toHaveLength(1);
    // Later batches reuse it.
    expectSame(ship([task('slice', null, [view(big, 10, 800)])])[0]![0]!, view(big, 10, 800));
    expect(sent.filter((m) => m.t === 'buffer')).toHaveLength(1);
  });

  test('small buffers, small views of big ones and ordinary buffers travel with the task', () => {
    const { sent, ship } = pair(2 ** 30);
    const small = shared('int32', MIN / 2, 2);
    const big = shared('float32', 8 * MIN, 3);
    const plainData = Float64Array.from({ length: MIN / 4 }, (_, i) => i);
    const plain = new NDArray(plainData, [plainData.length], 'float64');
    const part = view(big, 5, 1000);
    const got = ship([task('t', null, [small, part, plain])]);
    expectSame(got[0]![0]!, small);
    expectSame(got[0]![1]!, part);
    expectSame(got[0]![2]!, plain);
    expect(sent).toHaveLength(0);
  });

  test('odd byte offsets and every dtype resolve to equal values; tuples are walked', () => {
    const { ship } = pair(2 ** 30);
    for (const dtype of ['float64', 'float32', 'int16', 'uint8', 'int32'] as const) {
      const big = shared(dtype, MIN + 24, 7);
      const inner = view(big, 3, big.size - 5);
      const got = ship([task('t', null, [[inner, big] as unknown as Chunk])]);
      const tuple = got[0]![0] as unknown as Chunk[];
      expectSame(tuple[0]!, inner);
      expectSame(tuple[1]!, big);
    }
  });

  test('over budget, least recently used buffers not in the batch are dropped', () => {
    const unit = MIN;
    const { cache, sent, ship } = pair(3 * unit);
    const [a, b, c] = [1, 2, 3].map((s) => shared('uint8', 1.5 * unit, s)) as [
      NDArray,
      NDArray,
      NDArray,
    ];
    ship([task('t', null, [a])]);
    ship([task('t', null, [b])]);
    ship([task('t', null, [a])]); // a is now more recent than b
    ship([task('t', null, [c])]);
    const drops = sent.filter((m) => m.t === 'drop');
    expect(drops).toHaveLength(1);
    expect(cache.heldBytes).toBe(3 * unit);
    // b was dropped: using it again sends it again; a is still held.
    const before = sent.filter((m) => m.t === 'buffer').length;
    expectSame(ship([task('t', null, [a, b])])[0]![1]!, b);
    expect(sent.filter((m) => m.t === 'buffer').length).toBe(before + 1);
  });

  test('clear drops every buffer: the next batch sends them again', () => {
    const { cache, sent, ship } = pair(2 ** 30);
    const [a, b] = [1, 2].map((s) => shared('float32', 2 * MIN, s)) as [NDArray, NDArray];
    ship([task('t', null, [a, b])]);
    cache.clear();
    expect(cache.heldBytes).toBe(0);
    expect(sent.map((m) => m.t)).toEqual(['buffer', 'buffer', 'drop']);
    a.data[0] = 99;
    expectSame(ship([task('t', null, [a])])[0]![0]!, a);
    expect(sent.map((m) => m.t)).toEqual(['buffer', 'buffer', 'drop', 'buffer']);
  });

  test('a buffer the main thread collects is dropped from the process', async () => {
    const { cache, sent, ship } = pair(2 ** 30);
    (() => {
      ship([task('t', null, [shared('float64', MIN, 4)])]);
    })();
    expect(cache.heldBytes).toBe(MIN);
    for (let i = 0; i < 50 && cache.heldBytes > 0; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(cache.heldBytes).toBe(0);
    expect(sent.at(-1)?.t).toBe('drop');
  });

  test('property: random batches over random buffers resolve to the originals within budget', () => {
    const unit = MIN;
    const pool = [1, 1.5, 2, 0.25, 3].map((m, i) => shared('float64', m * unit, i));
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.nat(pool.length - 1), { minLength: 1, maxLength: 3 }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 2, max: 6 }),
        (batches, budgetMib) => {
          const { cache, ship } = pair(budgetMib * unit);
          for (const picks of batches) {
            const got = ship(picks.map((k) => task('t', null, [pool[k]!])));
            for (let i = 0; i < picks.length; i++) expectSame(got[i]![0]!, pool[picks[i]!]!);
            const inBatch = new Set(picks.map((k) => pool[k]!.data.byteLength));
            let batchBytes = 0;
            for (const b of inBatch) batchBytes += b;
            expect(cache.heldBytes).toBeLessThanOrEqual(Math.max(budgetMib * unit, batchBytes));
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
