import { describe, expect, test } from 'vitest';
import { ndarray } from '../../src/array/ndarray.ts';
import { isTesseraError } from '../../src/errors.ts';
import {
  defineKernels,
  KERNEL_HANDLE,
  kernelLocation,
  lookupModuleKernel,
} from '../../src/kernels/define-kernels.ts';
import { kernels } from '../fixtures/defined-kernels.ts';

const fixtureUrl = new URL('../fixtures/defined-kernels.ts', import.meta.url).href;

describe('defineKernels', () => {
  test('handles stay callable as the original functions', () => {
    const y = kernels.squareAll(ndarray([2, 3], [2], 'int32'));
    expect(y.toNested()).toEqual([4, 9]);
    expect(kernels.scale(ndarray([2, 4]), { factor: 0.5 }).toNested()).toEqual([1, 2]);
  });

  test('handles carry their module URL and export name', () => {
    expect(kernelLocation(kernels.scale)).toEqual({ url: fixtureUrl, name: 'scale' });
    expect(kernels.callCount[KERNEL_HANDLE].name).toBe('callCount');
  });

  test('importing the module registers its kernels on this thread', () => {
    expect(lookupModuleKernel(fixtureUrl, 'squareAll')).toBe(kernels.squareAll);
    expect(lookupModuleKernel(fixtureUrl, 'missing')).toBeUndefined();
    expect(lookupModuleKernel('file:///elsewhere.ts', 'squareAll')).toBeUndefined();
  });

  test('a second module defines kernels under its own URL', () => {
    const url = 'file:///virtual/other.ts';
    const { twice } = defineKernels(url, { twice: (x: number) => 2 * x });
    expect(twice(4)).toBe(8);
    expect(lookupModuleKernel(url, 'twice')).toBe(twice);
    expect(kernelLocation(twice)).toEqual({ url, name: 'twice' });
  });

  test('plain functions and non-functions have no location', () => {
    expect(kernelLocation((x: number) => x)).toBeUndefined();
    expect(kernelLocation({ [KERNEL_HANDLE]: { url: 'x', name: 'y' } })).toBeUndefined();
  });

  test.each([
    [
      'not a URL',
      () => defineKernels('./kernels.ts', { f: () => 1 }),
      /moduleUrl "\.\/kernels\.ts" is not a URL/,
    ],
    [
      'a non-function',
      () => defineKernels('file:///k.ts', { f: 3 as unknown as Function }),
      /'f' is number, not a function/,
    ],
  ])('%s is a KernelError', (_, call, message) => {
    let err: unknown;
    try {
      call();
    } catch (e) {
      err = e;
    }
    expect(isTesseraError(err, 'KernelError')).toBe(true);
    expect(String(err)).toMatch(message);
  });
});
