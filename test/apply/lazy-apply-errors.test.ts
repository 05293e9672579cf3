// lazyApply failure paths: invalid calls raise before anything runs (issue point 14), and
// kernels whose results cannot be coerced fail at compute with errors naming the task.

import { describe, expect, test } from 'vitest';
import { type ApplyKernel, lazyApply } from '../../src/apply/lazy-apply.ts';
import { compute } from '../../src/array/compute.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import { isTesseraError, type ShapeError, TaskError } from '../../src/errors.ts';

const x = fromArray(new Float64Array([1, 2, 3, 4, 5, 6]), { shape: [2, 3], chunks: [1, 3] });
// self-contained, so that only the call's other arguments can be at fault
const spy = (b: NDArray) => b.data;
/** The same kernel untyped, for calls whose arguments are wrong on purpose. */
const loose: ApplyKernel = spy;

type Call = [string, () => unknown, string, RegExp];

const invalid: Call[] = [
  ['no arguments', () => lazyApply(spy, []), 'ValueError', /^lazyApply: no array argument in \(\)/],
  [
    'only scalars',
    () => lazyApply(loose, [1, null, true]),
    'ValueError',
    /no array argument in \(1, null, true\)/,
  ],
  [
    'several shapes, one dtype',
    () => lazyApply(spy, x, { shape: [[2], [3]], dtype: 'int8' as never }),
    'ValueError',
    /^lazyApply: 2 shapes and 1 dtypes: .*got 'int8'/,
  ],
  [
    "'2 shapes and 1 dtypes'",
    () => lazyApply(spy, x, { shape: [[2], [3]], dtype: ['int8'] }),
    'ValueError',
    /^lazyApply: 2 shapes and 1 dtypes: dtype \('int8',\)/,
  ],
  [
    'one shape, several dtypes',
    () => lazyApply(spy, x, { shape: [2], dtype: ['int8', 'int16'] }),
    'ValueError',
    /^lazyApply: 1 shapes and 2 dtypes/,
  ],
  [
    'shape omitted, several dtypes',
    () => lazyApply(spy, x, { dtype: ['int8', 'int16'] }),
    'ValueError',
    /1 shapes and 2 dtypes/,
  ],
  [
    'sizes mixed with shapes',
    () => lazyApply(spy, x, { shape: [2, [3]] as never }),
    'ValueError',
    /mixes sizes and shapes/,
  ],
  [
    'a negative size',
    () => lazyApply(spy, x, { shape: [-1] }),
    'ValueError',
    /shape \(-1,\) must hold non-negative integers/,
  ],
  [
    'an unknown option',
    () => lazyApply(spy, x, { dtypes: 'int8' } as never),
    'ValueError',
    /unknown option 'dtypes'/,
  ],
  [
    'a string argument',
    () => lazyApply(spy, [x, 'abc'] as never),
    'ValueError',
    /argument 1 is string 'abc'/,
  ],
  [
    'an undefined argument',
    () => lazyApply(spy, [x, undefined] as never),
    'ValueError',
    /argument 1 is undefined/,
  ],
  [
    'an axis out of range',
    () => lazyApply(spy, x, { axis: 2 }),
    'ValueError',
    /^lazyApply: axis 2 is out of bounds/,
  ],
  ['a repeated axis', () => lazyApply(spy, x, { axis: [1, -1] }), 'ValueError', /repeated axis/],
  [
    'an output of the wrong rank for axis',
    () => lazyApply(spy, x, { axis: 1, shape: [2, 3, 1] }),
    'ValueError',
    /with axis 1, output shape \(2, 3, 1\) must have 2 axes/,
  ],
  [
    'a non-core size that contradicts the inputs',
    () => lazyApply(spy, x, { axis: 1, shape: [5, 3] }),
    'ValueError',
    /declares 5 on axis 0, which is not a core axis; the inputs have 2/,
  ],
  [
    'a function in kwargs',
    () => lazyApply(loose, x, { kwargs: { cb: () => 1 } }),
    'ValueError',
    /kwargs\.cb is a function/,
  ],
  [
    'asHost not boolean',
    () => lazyApply(spy, x, { asHost: 'yes' as never }),
    'ValueError',
    /asHost must be a boolean, got 'yes'/,
  ],
  [
    'an empty name',
    () => lazyApply(spy, x, { name: '' }),
    'ValueError',
    /name must be a non-empty string/,
  ],
  [
    'an unknown dtype',
    () => lazyApply(spy, x, { dtype: 'int128' as never }),
    'DTypeError',
    /^lazyApply: unknown dtype "int128"/,
  ],
  [
    'shapes that do not broadcast',
    () => lazyApply(loose, [x, new Float64Array(4)]),
    'ShapeError',
    /^lazyApply: shapes/,
  ],
  [
    'a non-function kernel',
    () => lazyApply(3 as unknown as ApplyKernel, x),
    'KernelError',
    /^lazyApply: kernel must be a function/,
  ],
];

describe('14: invalid calls fail when the expression is built', () => {
  test.each(invalid)('14: %s', (_, call, tag, message) => {
    let err: unknown;
    try {
      call();
    } catch (e) {
      err = e;
    }
    expect(isTesseraError(err, tag), String(err)).toBe(true);
    expect((err as Error).message).toMatch(message);
  });

  test('14: a kernel closing over a local is a KernelError at build time', () => {
    const factor = 3;
    const scale = (b: NDArray) => (b.data as NumberArray).map((v) => v * factor);
    expect(() => lazyApply(scale, x)).toThrow(
      /^lazyApply: kernel 'scale' uses 'factor'.*kwargs.*defineKernels/,
    );
    expect(lazyApply(scale, x, { inline: true }).shape).toEqual([2, 3]);
  });
});

describe('results that cannot be coerced fail at compute, naming the task', () => {
  const cases: [string, (b: NDArray) => unknown, object, string, RegExp][] = [
    ['a string', () => 'nope', {}, 'ValueError', /returned string nope; return an NDArray/],
    ['a Promise of a string', async () => 'nope', {}, 'ValueError', /returned string nope/],
    [
      'a wrong element count',
      (b: NDArray) => b.data.slice(1),
      {},
      'ShapeError',
      /5 elements, which do not fit.*\[2, 3\]/,
    ],
    [
      'a wrong NDArray shape',
      (b: NDArray) => ({ ...b, shape: [3, 2] }),
      {},
      'ShapeError',
      /shape \[3, 2\], which contradicts.*\[2, 3\]/,
    ],
    ['ragged nested arrays', () => [[1, 2], [3]], { shape: [2, 2] }, 'ShapeError', /ragged/],
    [
      'a flat result with two unknown sizes',
      (b: NDArray) => b.data,
      { shape: [null, null] },
      'ShapeError',
      /several unknown sizes/,
    ],
    [
      'one result for two outputs',
      (b: NDArray) => b.data,
      { shape: [[6], [6]] },
      'ValueError',
      /must return an array of 2 results/,
    ],
  ];
  test.each(cases)('%s', async (_, fn, opts, tag, message) => {
    const y = lazyApply(fn, x, opts as never);
    const out = Array.isArray(y) ? y[0]! : y;
    const err = (await compute(out).catch((e: unknown) => e)) as Error;
    // a result contradicting its declared shape is itself the error (a ShapeError naming the
    // task); any other bad result is the kernel's failure, a TaskError with it as cause
    const reason = tag === 'ShapeError' ? err : (err as TaskError).cause;
    if (tag !== 'ShapeError') expect(err).toBeInstanceOf(TaskError);
    const key = tag === 'ShapeError' ? (err as ShapeError).key! : (err as TaskError).key;
    expect(isTesseraError(reason, tag), String(reason)).toBe(true);
    expect((reason as Error).message).toMatch(/^lazyApply: task lazy-apply-/);
    expect((reason as Error).message).toMatch(message);
    expect((reason as Error).message).toContain(key);
  });
});
