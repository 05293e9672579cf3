// float16 on the WebGPU backend without an adapter: storage sizes, which kernels accept it
// (elementwise and whole-tensor moves) and the refusals of the word-reading ones.

import { describe, expect, it } from 'vitest';
import type { DType } from '../../../src/array/dtype.ts';
import { webgpuCanRun } from '../../../src/backends/webgpu/backend.ts';
import {
  elementsPerWord,
  GPU_DTYPES,
  gpuBytes,
  wordType,
} from '../../../src/backends/webgpu/gpu-dtype.ts';
import { ewShaderSource } from '../../../src/backends/webgpu/wgsl-ew.ts';
import type { OpMeta } from '../../../src/dispatch/types.ts';

const input = (dtype: DType) => ({ dtype, chunks: [[8]], device: 'gpu', backend: 'webgpu' });
const meta = (op: string, dtype: DType, params: unknown, inDtype = dtype): OpMeta => ({
  op,
  params,
  dtype,
  chunks: [[8]],
  inputs: [input(inDtype)],
  blockElements: 8,
});

describe('webgpu float16 storage and support', () => {
  it.each([
    [1, 4],
    [2, 4],
    [3, 8],
    [5, 12],
    [8, 16],
  ])('%i float16 elements take %i bytes (two per word)', (n, bytes) => {
    expect(gpuBytes('float16', n)).toBe(bytes);
  });

  it('float16 is a GPU dtype packed two to a word', () => {
    expect(GPU_DTYPES).toContain('float16');
    expect(elementsPerWord('float16')).toBe(2);
    expect(elementsPerWord('uint8')).toBe(4);
    expect(elementsPerWord('float32')).toBe(1);
  });

  it.each<[string, OpMeta, true | RegExp]>([
    ['ew', meta('ew', 'float16', {}), true],
    ['ew float16 -> float32', meta('ew', 'float32', {}, 'float16'), true],
    ['transpose', meta('transpose', 'float16', {}), true],
    ['to-device', meta('to-device', 'float16', {}), true],
    ['slice', meta('slice', 'float16', {}), true],
    ['rechunk-merge', meta('rechunk-merge', 'float16', {}), true],
    [
      'reduce-partial max',
      meta('reduce-partial', 'float16', { op: 'max', axes: [0] }),
      /float16 blocks are packed bits/,
    ],
    [
      'matmul float16 -> float32',
      meta('matmul', 'float32', {}, 'float16'),
      /float16 blocks are packed bits/,
    ],
  ])('canRun %s', (_name, m, want) => {
    const got = webgpuCanRun(m.op, m);
    if (want === true) expect(got).toBe(true);
    else expect(got).toMatch(want);
  });

  it('word-reading kernels refuse float16 with a DTypeError naming them', () => {
    expect(() => wordType('reduce', 'float16')).toThrow(
      expect.objectContaining({
        _tag: 'DTypeError',
        message: expect.stringMatching(/^reduce: dtype 'float16'/),
      }),
    );
    expect(wordType('reduce', 'float32')).toBe('f32');
  });

  it('float16 shaders decode and encode with integer operations, not pack2x16float', () => {
    const { code } = ewShaderSource({
      expr: { op: 'add', args: [{ in: 0 }, { const: 1 }], dtype: 'float16' },
      inputDtypes: ['float16'],
      modes: ['c'],
      outDtype: 'float16',
      ndim: 1,
    });
    expect(code).toContain('f16_encode(');
    expect(code).toContain('f16_decode(');
    expect(code).not.toMatch(/pack2x16float\(|enable f16/);
  });
});
