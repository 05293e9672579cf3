// Acceptance (issue 2): bad shapes, chunks, dtypes, axes and indices fail when the
// expression is built, with the right tag and a message naming the function and the value.

import { describe, expect, test } from 'vitest';
import * as t from '../../src/index.ts';
import { isTesseraError, type LazyArray, type NDArray } from '../../src/index.ts';

const x = (): LazyArray => t.ones([6, 8], { chunks: [3, 4] });
const bad = <T>(v: unknown): T => v as T;

// [call, tag, message prefix (the function name), fragment quoting the bad value]
const CASES: [string, () => unknown, string, string, string][] = [
  // shapes
  ['zeros([-1, 3])', () => t.zeros([-1, 3]), 'ShapeError', 'zeros:', '-1'],
  ['ones([2.5])', () => t.ones([2.5]), 'ShapeError', 'ones:', '2.5'],
  [
    'random.uniform([-3])',
    () => t.random.uniform([-3], { seed: 1 }),
    'ShapeError',
    'random.uniform:',
    '-3',
  ],
  [
    'fromArray shape mismatch',
    () => t.fromArray(new Float64Array(6), { shape: [4, 2] }),
    'ShapeError',
    'fromArray:',
    '(4, 2)',
  ],
  ['fromArray ragged', () => t.fromArray(bad([[1, 2], [3]])), 'ShapeError', 'fromArray:', 'ragged'],
  ['add non-broadcasting', () => t.add(x(), t.ones([5])), 'ShapeError', 'add:', '(5,)'],
  [
    'where non-broadcasting',
    () => t.where(x().greater(0), x(), t.ones([3])),
    'ShapeError',
    'where:',
    '(3,)',
  ],
  ['reshape to a different size', () => x().reshape([5, 5]), 'ShapeError', 'reshape:', '(5, 5)'],
  ['squeeze a non-1 axis', () => x().squeeze({ axis: 0 }), 'ShapeError', 'squeeze:', '6'],
  [
    'broadcastTo incompatible',
    () => x().broadcastTo([6, 3]),
    'ShapeError',
    'broadcastTo:',
    '(6, 3)',
  ],
  ['concat mismatched', () => t.concat([x(), t.ones([5, 3])]), 'ShapeError', 'concat:', '(5, 3)'],
  ['stack mismatched', () => t.stack([x(), t.ones([6, 7])]), 'ShapeError', 'stack:', '(6, 7)'],
  ['matmul unaligned', () => t.matmul(x(), x()), 'ShapeError', 'matmul:', '(6, 8)'],
  [
    'tensordot unaligned',
    () => t.tensordot(x(), x(), { axes: [[0], [1]] }),
    'ShapeError',
    'tensordot:',
    '(6, 8)',
  ],
  ['einsum sizes', () => t.einsum('ij,jk->ik', x(), x()), 'ShapeError', 'einsum:', "'j'"],
  ['mask shape', () => x().mask(t.ones([6], { dtype: 'bool' })), 'ShapeError', 'mask:', '(6,)'],
  ['set value shape', () => x().set('0', t.ones([3])), 'ShapeError', 'set:', '(3,)'],
  // chunks
  ['ones chunks sum', () => t.ones([7], { chunks: [[3, 3]] }), 'ChunkError', 'ones:', '(3, 3)'],
  ['ones chunk 0', () => t.ones([7], { chunks: 0 }), 'ChunkError', 'ones:', '0'],
  ['ones chunk text', () => t.ones([7], { chunks: bad('big') }), 'ChunkError', 'ones:', "'big'"],
  [
    'ones chunks rank',
    () => t.ones([7, 3], { chunks: [1, 2, 3] }),
    'ChunkError',
    'ones:',
    '(1, 2, 3)',
  ],
  [
    'fromArray chunks',
    () => t.fromArray([1, 2, 3], { chunks: -7 }),
    'ChunkError',
    'fromArray:',
    '-7',
  ],
  ['rechunk sum', () => x().rechunk([[3, 2], 4]), 'ChunkError', 'rechunk:', '(3, 2)'],
  ['rechunk rank', () => x().rechunk([3, 4, 5]), 'ChunkError', 'rechunk:', '(3, 4, 5)'],
  [
    'normalizeChunks sum',
    () => t.normalizeChunks([[3, 3]], [7]),
    'ChunkError',
    'normalizeChunks:',
    '(3, 3)',
  ],
  // dtypes
  ['ones dtype', () => t.ones([3], { dtype: bad('float128') }), 'DTypeError', 'ones:', 'float128'],
  ['astype dtype', () => x().astype(bad('float128')), 'DTypeError', 'astype:', 'float128'],
  [
    'mapBlocks dtype',
    () => t.mapBlocks((b: NDArray) => b, x(), { dtype: bad('wat') }),
    'DTypeError',
    'mapBlocks:',
    'wat',
  ],
  ['mask of floats', () => x().mask(x()), 'DTypeError', 'mask:', 'float64'],
  ['negative of bool', () => t.negative(x().greater(0)), 'DTypeError', 'negative:', 'bool'],
  [
    'add an out-of-range scalar to int8',
    () => t.add(t.ones([2], { dtype: 'int8' }), 1000),
    'ValueError',
    'add:',
    '1000',
  ],
  // axes
  ['sum axis 2', () => x().sum({ axis: 2 }), 'ValueError', 'sum:', '2'],
  ['sum axis repeated', () => x().sum({ axis: [0, 0] }), 'ValueError', 'sum:', '(0, 0)'],
  ['mean axis -3', () => x().mean({ axis: -3 }), 'ValueError', 'mean:', '-3'],
  ['argmin axis list', () => x().argmin({ axis: bad([0, 1]) }), 'ValueError', 'argmin:', '(0, 1)'],
  ['cumsum axis 5', () => x().cumsum({ axis: 5 }), 'ValueError', 'cumsum:', '5'],
  ['sum splitEvery 1', () => x().sum({ splitEvery: 1 }), 'ValueError', 'sum:', '1'],
  ['permuteDims repeated', () => x().permuteDims([0, 0]), 'ValueError', 'permuteDims:', '(0, 0)'],
  ['swapaxes 3', () => x().swapaxes(0, 3), 'ValueError', 'swapaxes:', '3'],
  ['moveaxis 3', () => x().moveaxis(0, 3), 'ValueError', 'moveaxis:', '3'],
  ['expandDims 5', () => x().expandDims({ axis: 5 }), 'ValueError', 'expandDims:', '5'],
  ['flip 2', () => x().flip({ axis: 2 }), 'ValueError', 'flip:', '2'],
  ['concat axis 2', () => t.concat([x(), x()], { axis: 2 }), 'ValueError', 'concat:', '2'],
  ['concat of nothing', () => t.concat([]), 'ValueError', 'concat:', '()'],
  ['take axis 4', () => x().take([0], { axis: 4 }), 'ValueError', 'take:', '4'],
  [
    'blockwise index length',
    () => t.blockwise((b: NDArray) => b, 'ij', x(), 'i', { dtype: 'float64' }),
    'ValueError',
    'blockwise:',
    "'i'",
  ],
  // indices and other values
  ['get 7', () => x().get('7'), 'IndexError', 'get:', '7'],
  ['get too many', () => x().get('1,2,3'), 'IndexError', 'get:', '(1, 2, 3)'],
  ['get unparsable', () => x().get('1:2:3:4'), 'IndexError', 'get:', '"1:2:3:4"'],
  ['get two ellipses', () => x().get('..., ...'), 'IndexError', 'get:', "'...'"],
  ['get step 0', () => x().get('::0'), 'IndexError', 'get:', '0'],
  ['get float index array', () => x().get(t.ndarray([1.5, 2])), 'IndexError', 'get:', 'float64'],
  ['set 9', () => x().set('9', 1), 'IndexError', 'set:', '9'],
  ['set unparsable', () => x().set('1;2', 1), 'IndexError', 'set:', '"1;2"'],
  ['take 9', () => x().take([0, 9], { axis: 0 }), 'IndexError', 'take:', '9'],
  ['arange step 0', () => t.arange(0, 10, 0), 'ValueError', 'arange:', '0'],
  ['linspace num -3', () => t.linspace(0, 1, -3), 'ValueError', 'linspace:', '-3'],
  ['reshape two -1', () => x().reshape([-1, -1]), 'ValueError', 'reshape:', '(-1, -1)'],
];

describe('bad input fails at build time', () => {
  test.each(CASES)('%s → %s', (_, call, tag, prefix, fragment) => {
    let caught: unknown;
    try {
      call();
    } catch (e) {
      caught = e;
    }
    expect(isTesseraError(caught), `expected a tessera error, got ${String(caught)}`).toBe(true);
    const e = caught as t.TesseraError;
    expect(e._tag).toBe(tag);
    expect(e.message.startsWith(prefix), e.message).toBe(true);
    expect(e.message).toContain(fragment);
  });
});
