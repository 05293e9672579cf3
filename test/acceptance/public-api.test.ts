// Acceptance (issue 2): the public surface of src/index.ts — a snapshot of its exported
// names, every name the contract lists, and the method forms on LazyArray.

import { describe, expect, test } from 'vitest';
import * as tessera from '../../src/index.ts';
import {
  add,
  arange,
  compute,
  fromArray,
  LazyArray,
  NDArray,
  ndarray,
  ones,
  subtract,
  sum,
} from '../../src/index.ts';
import { expectArray, randomDense } from '../helpers/reference.ts';

/** The stored elements as plain numbers (what Array.from(data) gave before int64). */
// elements as numbers (int64's BigInts converted; every value here is small)
const raw = (a: NDArray): number[] => Array.from(a.data as ArrayLike<number | bigint>, Number);
const SYNC = { scheduler: 'sync' } as const;

/** Runtime exports of src/index.ts, sorted. Changing the public API means editing this list. */
const EXPORTED = [
  'CancelledError',
  'ChunkError',
  'DTypeError',
  'DistributedExecutor',
  'IndexError',
  'KernelError',
  'LazyArray',
  'LinAlgError',
  'MissingPackageError',
  'NDArray',
  'ProcessPoolExecutor',
  'ShapeError',
  'TaskError',
  'TesseraError',
  'ThreadPoolExecutor',
  'TimeoutError',
  'TransferGuardError',
  'VERSION',
  'ValueError',
  'WorkerCrashedError',
  'abs',
  'absolute',
  'acos',
  'acosh',
  'add',
  'all',
  'any',
  'arange',
  'arccos',
  'arccosh',
  'arcsin',
  'arcsinh',
  'arctan',
  'arctan2',
  'arctanh',
  'argmax',
  'argmin',
  'argsort',
  'argtopk',
  'asLazy',
  'asarray',
  'asin',
  'asinh',
  'astype',
  'atan',
  'atan2',
  'atanh',
  'average',
  'backendFor',
  'bincount',
  'bitwiseAnd',
  'bitwiseInvert',
  'bitwiseLeftShift',
  'bitwiseOr',
  'bitwiseRightShift',
  'bitwiseXor',
  'blockwise',
  'broadcastArrays',
  'broadcastTo',
  'canCast',
  'ceil',
  'clip',
  'coarsen',
  'compute',
  'computeChunkSizes',
  'concat',
  'concatenate',
  'config',
  'configure',
  'conj',
  'convolve',
  'copysign',
  'corrcoef',
  'cos',
  'cosh',
  'countNonzero',
  'cov',
  'createCodePolicy',
  'cumsum',
  'cumulativeProd',
  'cumulativeSum',
  'defineKernels',
  'diff',
  'disableGuards',
  'dispatchStats',
  'dispatchable',
  'dispatchableClass',
  'divide',
  'einsum',
  'elementwise',
  'empty',
  'emptyLike',
  'equal',
  'exp',
  'expandDims',
  'expm1',
  'eye',
  'fft',
  'finfo',
  'flatten',
  'flip',
  'floor',
  'floorDivide',
  'fromArray',
  'fromFunction',
  'fromNpy',
  'fromNpyStack',
  'fromZarr',
  'full',
  'fullLike',
  'gaussianFilter',
  'getIndex',
  'gradient',
  'greater',
  'greaterEqual',
  'histogram',
  'histogram2d',
  'hstack',
  'hypot',
  'iinfo',
  'imag',
  'isLazyArray',
  'isTesseraError',
  'isdtype',
  'isfinite',
  'isinf',
  'isnan',
  'lazyApply',
  'less',
  'lessEqual',
  'linalg',
  'linspace',
  'listBackends',
  'log',
  'log10',
  'log1p',
  'log2',
  'logaddexp',
  'logicalAnd',
  'logicalNot',
  'logicalOr',
  'logicalXor',
  'mapBlocks',
  'mapOverlap',
  'mask',
  'matmul',
  'matrixTranspose',
  'max',
  'maximum',
  'mean',
  'median',
  'medianFilter',
  'meshgrid',
  'min',
  'minimum',
  'moveaxis',
  'multiply',
  'nanargmax',
  'nanargmin',
  'nanmax',
  'nanmean',
  'nanmedian',
  'nanmin',
  'nanpercentile',
  'nanprod',
  'nanquantile',
  'nanstd',
  'nansum',
  'nanvar',
  'ndarray',
  'negative',
  'nextafter',
  'nonzero',
  'normalizeChunks',
  'notEqual',
  'ones',
  'onesLike',
  'overlap',
  'pad',
  'parseDevice',
  'percentile',
  'permuteDims',
  'persist',
  'positive',
  'pow',
  'prod',
  'profileTasks',
  'promoteTypes',
  'quantile',
  'random',
  'ravel',
  'readProfileHtml',
  'real',
  'rechunk',
  'reciprocal',
  'registerBackend',
  'remainder',
  'repeat',
  'resetConfig',
  'resetDispatchStats',
  'reshape',
  'resultType',
  'roll',
  'round',
  'searchsorted',
  'serveDashboard',
  'setIndex',
  'shutdown',
  'sign',
  'signbit',
  'sin',
  'sinh',
  'sort',
  'sqrt',
  'square',
  'squeeze',
  'stack',
  'startDistributedWorker',
  'std',
  'subtract',
  'sum',
  'swapaxes',
  'take',
  'takeAlongAxis',
  'tan',
  'tanh',
  'tensordot',
  'tile',
  'toDevice',
  'toNpy',
  'toNpyStack',
  'toZarr',
  'topk',
  'transpose',
  'tril',
  'trimOverlap',
  'triu',
  'trunc',
  'uniformFilter',
  'uniqueAll',
  'uniqueCounts',
  'uniqueInverse',
  'uniqueValues',
  'unregisterBackend',
  'unstack',
  'var',
  'variance',
  'vecdot',
  'visualize',
  'vstack',
  'where',
  'withBackend',
  'withDevice',
  'zeros',
  'zerosLike',
  'zoom',
];

const ELEMENTWISE = [
  'add subtract multiply divide floorDivide remainder pow negative abs sign sqrt exp expm1',
  'log log1p sin cos tan tanh floor ceil round maximum minimum clip where equal notEqual less',
  'lessEqual greater greaterEqual logicalAnd logicalOr logicalNot isnan isfinite astype',
]
  .join(' ')
  .split(' ');
const REDUCTIONS = 'sum prod mean min max std var argmin argmax any all cumsum'.split(' ');
const MANIPULATION = [
  'reshape permuteDims transpose swapaxes moveaxis expandDims squeeze flip broadcastTo concat',
  'stack take matmul tensordot einsum',
]
  .join(' ')
  .split(' ');

/** The contract's sections for issue 2, each a list of names index.ts must export. */
const CONTRACT: Record<string, readonly string[]> = {
  creation:
    'fromArray zeros ones full empty arange linspace random fromFunction fromNpy fromZarr'.split(
      ' ',
    ),
  elementwise: ELEMENTWISE,
  reductions: REDUCTIONS,
  manipulation: MANIPULATION,
  indexing: ['getIndex', 'mask', 'setIndex'],
  chunkedApplication: ['blockwise', 'mapBlocks', 'lazyApply', 'rechunk'],
  materialize: ['compute', 'persist', 'computeChunkSizes'],
  kernels: ['defineKernels'],
  dataModel: ['NDArray', 'ndarray', 'LazyArray', 'config', 'normalizeChunks'],
  errors: [
    'TesseraError',
    'ValueError',
    'ShapeError',
    'ChunkError',
    'DTypeError',
    'IndexError',
    'KernelError',
    'TaskError',
    'TransferGuardError',
    'WorkerCrashedError',
    'CancelledError',
    'TimeoutError',
  ],
};

describe('exports of src/index.ts', () => {
  test('snapshot of the exported names (sorted)', () => {
    expect(Object.keys(tessera).sort()).toEqual(EXPORTED);
  });

  test.each(Object.entries(CONTRACT))('contract section %s: every name is exported', (_, names) => {
    const exported = tessera as Record<string, unknown>;
    const missing = names.filter((n) => exported[n] === undefined);
    expect(missing).toEqual([]);
  });

  test('the linalg and fft namespaces hold the Array API extensions as functions', () => {
    const linalgNames =
      'cholesky cross det diagonal eig eigh eigvalsh inv lstsq matmul matrixNorm matrixPower matrixRank matrixTranspose outer pinv qr slogdet solve sqrtm svd svdvals tensordot trace vecdot vectorNorm';
    const fftNames =
      'fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift ifftshift';
    for (const n of linalgNames.split(' ')) {
      expect(typeof (tessera.linalg as Record<string, unknown>)[n], `linalg.${n}`).toBe('function');
    }
    for (const n of fftNames.split(' ')) {
      expect(typeof (tessera.fft as Record<string, unknown>)[n], `fft.${n}`).toBe('function');
    }
    expect(Object.keys(tessera.linalg).sort()).toEqual(linalgNames.split(' ').sort());
    expect(Object.keys(tessera.fft).sort()).toEqual(fftNames.split(' ').sort());
  });

  test('random.uniform and random.normal are functions', () => {
    expect(typeof tessera.random.uniform).toBe('function');
    expect(typeof tessera.random.normal).toBe('function');
  });

  test('every error class carries its tag and extends TesseraError', () => {
    for (const name of CONTRACT.errors!) {
      const Cls = (tessera as Record<string, unknown>)[name] as new (
        ...a: unknown[]
      ) => tessera.TesseraError;
      const e =
        name === 'TaskError'
          ? new Cls('k', 'kern', new Error('x'))
          : name === 'TransferGuardError'
            ? new Cls('f', 'a', 'gpu', 'cpu', 1)
            : name === 'WorkerCrashedError'
              ? new Cls('k', 'd')
              : new Cls('f: msg');
      expect(e).toBeInstanceOf(tessera.TesseraError);
      expect(e._tag).toBe(name);
      expect(tessera.isTesseraError(e, name)).toBe(true);
    }
  });

  // Named in ARCHITECTURE.md but owned by later work (I/O, devices and dispatch), not issue 2.
  for (const name of [
    'toDevice',
    'withDevice',
    'disableGuards',
    'withBackend',
    'dispatchable',
    'dispatchStats',
  ]) {
    test.todo(`${name} (contract name outside issue 2)`);
  }
});

describe('method forms on LazyArray', () => {
  const x = fromArray(randomDense([4, 6], 'float64', 3), { chunks: [3, 4] });
  const fns = tessera as unknown as Record<string, (...a: unknown[]) => LazyArray>;
  const proto = LazyArray.prototype as unknown as Record<string, unknown>;
  const functionOnly = new Set(['where', 'concat', 'stack', 'einsum']);

  test('every elementwise, reduction and manipulation op (but list-taking ones) is a method', () => {
    const names = [...ELEMENTWISE, ...REDUCTIONS, ...MANIPULATION].filter(
      (n) => !functionOnly.has(n),
    );
    const missing = names.filter((n) => typeof proto[n] !== 'function');
    expect(missing).toEqual([]);
    for (const n of ['get', 'set', 'mask', 'rechunk', 'compute', 'persist', 'visualize']) {
      expect(typeof proto[n], n).toBe('function');
    }
  });

  // A method builds the same expression as its functional form: same deterministic name.
  test.each([
    ['add', [1]],
    ['subtract', [2]],
    ['multiply', [x]],
    ['pow', [2]],
    ['maximum', [0]],
    ['clip', [-1, 1]],
    ['sqrt', []],
    ['greater', [0]],
    ['astype', ['float32']],
    ['sum', [{ axis: 1, keepdims: true }]],
    ['var', [{ axis: 0 }]],
    ['argmax', [{ axis: 1 }]],
    ['cumsum', [{ axis: 0 }]],
    ['topk', [2, { axis: 1 }]],
    ['argtopk', [-2]],
    ['reshape', [[6, 4]]],
    ['permuteDims', [[1, 0]]],
    ['swapaxes', [0, 1]],
    ['moveaxis', [0, 1]],
    ['expandDims', [{ axis: 0 }]],
    ['flip', [{ axis: 1 }]],
    ['broadcastTo', [[2, 4, 6]]],
    ['take', [[0, 2], { axis: 1 }]],
    [
      'tensordot',
      [
        x,
        {
          axes: [
            [0, 1],
            [0, 1],
          ],
        },
      ],
    ],
    ['rechunk', [[2, 2]]],
  ] as [string, unknown[]][])('x.%s(...) equals %s(x, ...)', (name, args) => {
    const m = (proto[name] as (...a: unknown[]) => LazyArray).apply(x, args);
    const f = fns[name === 'var' ? 'variance' : name]!(x, ...args);
    expect(m.name).toBe(f.name);
  });

  test('aliases mul/sub/div, x.T, x.get/x.set/x.mask name the same graphs as the functions', () => {
    expect(x.mul(2).name).toBe(tessera.multiply(x, 2).name);
    expect(x.sub(2).name).toBe(tessera.subtract(x, 2).name);
    expect(x.div(2).name).toBe(tessera.divide(x, 2).name);
    expect(x.T.name).toBe(tessera.transpose(x).name);
    expect(x.get('1:5, ::-1, None, ...').name).toBe(
      tessera.getIndex(x, '1:5, ::-1, None, ...').name,
    );
    expect(x.set('0', 7).name).toBe(tessera.setIndex(x, '0', 7).name);
    const m = x.greater(0);
    expect(x.mask(m).name).toBe(tessera.mask(x, m).name);
  });

  test('x.mul(2).add(1).sum() computes (the issue text)', async () => {
    const a = arange(12, { chunks: 5 }).reshape([3, 4]);
    const r = await a.mul(2).add(1).sum().compute(SYNC);
    expect(r).toBeInstanceOf(NDArray);
    expect(r.shape).toEqual([]);
    expect(r.dtype).toBe('int64'); // integer sums accumulate in int64 (Array API)
    expect(r.item()).toBe(BigInt(2 * 66 + 12));
  });

  test('x.get, x.set, x.mask, x.T, x.astype, x.reshape, x.rechunk compute dense-correct values', async () => {
    const a = arange(24, { chunks: 5 }).reshape([4, 6]);
    const [g, s, m, t, c, r, rc] = (await compute(
      a.get('1:5, ::-1, None, ...'),
      a.set('0, :', -1),
      a.mask(a.greater(20)),
      a.T,
      a.astype('float32').div(2),
      a.reshape([2, 12]),
      a.rechunk([3, 2]),
      SYNC,
    )) as NDArray[];
    expect(g!.shape).toEqual([3, 6, 1]);
    expect(raw(g!).slice(0, 6)).toEqual([11, 10, 9, 8, 7, 6]);
    expect(raw(s!).slice(0, 8)).toEqual([-1, -1, -1, -1, -1, -1, 6, 7]);
    expect(raw(m!)).toEqual([21, 22, 23]);
    expect(t!.shape).toEqual([6, 4]);
    expect(raw(t!).slice(0, 4)).toEqual([0, 6, 12, 18]);
    expect(c!.dtype).toBe('float32');
    expect(c!.data[3]).toBe(1.5);
    expectArray(r!, {
      dtype: 'int64',
      shape: [2, 12],
      data: Array.from({ length: 24 }, (_, i) => i),
    });
    expect(a.rechunk([3, 2]).chunks).toEqual([
      [3, 1],
      [2, 2, 2],
    ]);
    expectArray(rc!, {
      dtype: 'int64',
      shape: [4, 6],
      data: Array.from({ length: 24 }, (_, i) => i),
    });
  });

  test('x.compute() and x.persist() resolve; x.visualize() is DOT text', async () => {
    const y = x.add(1);
    const held = await y.persist(SYNC);
    expect(held).toBeInstanceOf(LazyArray);
    expect(held.name).toBe(y.name);
    const [a, b] = (await compute(held, y, SYNC)) as NDArray[];
    expect(raw(a!)).toEqual(raw(b!));
    const dot = x.mul(2).add(1).sum().visualize();
    expect(dot.startsWith('digraph')).toBe(true);
    for (const op of ['multiply', 'add', 'sum']) expect(dot).toContain(op);
  });
});

describe('data model', () => {
  test('NDArray: ndarray(data, shape, dtype), get(i, j), toNested()', () => {
    const a = ndarray([1, 2, 3, 4], [2, 2], 'int32');
    expect([a.dtype, a.shape, a.get(1, 0)]).toEqual(['int32', [2, 2], 3]);
    expect(a.toNested()).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  test('LazyArray: shape, chunks, dtype, ndim, size, nbytes, numBlocks, name, device', () => {
    const x = ones([10, 7], { chunks: [4, 5], dtype: 'float32' });
    expect(x.shape).toEqual([10, 7]);
    expect(x.chunks).toEqual([
      [4, 4, 2],
      [5, 2],
    ]);
    expect([x.dtype, x.ndim, x.size, x.nbytes, x.device]).toEqual(['float32', 2, 70, 280, 'cpu']);
    expect(x.numBlocks).toEqual([3, 2]);
    expect(x.name).toMatch(/^ones-/);
    expect(String(x)).toContain(x.name);
  });
});

describe('functional forms take numbers and eager data', () => {
  test('add(x, 1), subtract(2, x), sum(NDArray), add(nested, TypedArray)', async () => {
    const x = fromArray([1, 2, 3], { chunks: 2 });
    const [a, b, c, d] = (await compute(
      add(x, 1),
      subtract(2, x),
      sum(ndarray([1, 2, 3, 4], [2, 2])),
      add([[1], [2]], new Float64Array([10, 20])),
      SYNC,
    )) as NDArray[];
    expect(raw(a!)).toEqual([2, 3, 4]);
    expect(raw(b!)).toEqual([1, 0, -1]);
    expect(c!.data[0]).toBe(10);
    expect(d!.toNested()).toEqual([
      [11, 21],
      [12, 22],
    ]);
  });

  test('JS numbers are weak scalars: float32 stays float32, int8 stays int8', () => {
    expect(add(ones([2], { dtype: 'float32' }), 1.5).dtype).toBe('float32');
    expect(add(ones([2], { dtype: 'int8' }), 3).dtype).toBe('int8');
  });
});

describe('VERSION', () => {
  test('equals package.json version (backends are checked against it)', async () => {
    const { readFileSync } = await import('node:fs');
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const { VERSION } = await import('../../src/index.ts');
    expect(VERSION).toBe(pkg.version);
  });
});
