import { describe, expect, test } from 'vitest';
import { NDArray, ndarray } from '../../src/array/ndarray.ts';
import { KernelError, ShapeError, TaskError, WorkerCrashedError } from '../../src/errors.ts';
import { decodeChunk, decodeError, encodeError, transferables } from '../../src/workers/wire.ts';

const roundTrip = (e: unknown): Error => decodeError(structuredClone(encodeError(e)));

describe('chunks', () => {
  test('a cloned NDArray becomes an NDArray sharing the same memory', () => {
    const x = ndarray([1, 2, 3, 4], [2, 2], 'int16');
    const y = decodeChunk(structuredClone(x));
    expect(y).toBeInstanceOf(NDArray);
    expect((y as NDArray).dtype).toBe('int16');
    x.data[0] = 9;
    expect((y as NDArray).get(0, 0)).toBe(9);
  });

  test('tuples are restored recursively; instances pass through', () => {
    const a = ndarray([1]);
    const got = decodeChunk(structuredClone([a, [a, ndarray([2, 3])]])) as NDArray[][];
    expect((got[1] as unknown as NDArray[])[1]).toBeInstanceOf(NDArray);
    expect(decodeChunk(a)).toBe(a);
  });

  test('only ordinary buffers are transferable, each once', () => {
    const plain = new NDArray(new Float64Array(4), [4], 'float64');
    const view = new NDArray(plain.data.subarray(2), [2], 'float64');
    const shared = ndarray([1, 2]);
    expect(transferables([plain, [view, shared], shared])).toEqual([plain.data.buffer]);
  });
});

describe('errors', () => {
  test('TaskError keeps key, kernel, message and the cause with its stack', () => {
    const cause = new RangeError('bad block');
    const e = roundTrip(new TaskError('add-0,1', 'add', cause)) as TaskError;
    expect(e).toBeInstanceOf(TaskError);
    expect(e.key).toBe('add-0,1');
    expect(e.kernel).toBe('add');
    expect(e.message).toBe('compute: task add-0,1 (kernel add) failed: bad block');
    expect(e.cause).toBeInstanceOf(RangeError);
    expect((e.cause as Error).stack).toBe(cause.stack);
  });

  test.each([
    [new KernelError('resolve: nope'), KernelError],
    [new ShapeError('lazyApply: shape'), ShapeError],
    [new TypeError('t'), TypeError],
    [new WorkerCrashedError('k-0', 'exit code 1'), WorkerCrashedError],
  ])('%s keeps its class and message', (err, Class) => {
    const e = roundTrip(err);
    expect(e).toBeInstanceOf(Class);
    expect(e.message).toBe(err.message);
    expect(e.stack).toBe(err.stack);
  });

  test('custom errors keep their name; non-errors become messages', () => {
    class MyError extends Error {
      override name = 'MyError';
    }
    expect(roundTrip(new MyError('m')).name).toBe('MyError');
    expect(roundTrip('plain string').message).toBe('plain string');
  });
});
