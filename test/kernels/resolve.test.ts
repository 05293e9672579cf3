import { describe, expect, test } from 'vitest';
import { ndarray } from '../../src/array/ndarray.ts';
import { isTesseraError } from '../../src/errors.ts';
import {
  createFnResolver,
  findFnRefs,
  isFnRef,
  registerInlineFn,
} from '../../src/kernels/resolve.ts';
import type { FnRef } from '../../src/kernels/types.ts';

const src = (source: string, name = 'f'): FnRef => ({ kind: 'source', source, name });

function kernelError(call: () => unknown): string {
  try {
    call();
  } catch (e) {
    expect(isTesseraError(e, 'KernelError')).toBe(true);
    return (e as Error).message;
  }
  return expect.unreachable('expected a KernelError');
}

describe('findFnRefs', () => {
  test('finds refs in nested params, fused steps included', () => {
    const a = src('(x) => x', 'a');
    const b: FnRef = { kind: 'module', url: 'file:///k.ts', name: 'b' };
    const params = {
      steps: [
        { kernel: 'slice', params: { start: [0], step: [1], count: [2] } },
        { kernel: 'apply', params: { fn: a, kwargs: { data: new Float64Array(4) } } },
        { kernel: 'apply', params: { fn: b, more: [[null, 1, { inner: a }]] } },
      ],
    };
    expect(findFnRefs(params)).toEqual([a, b, a]);
  });

  test.each([null, undefined, 3, 'fn', [1, 2, 3], { kind: 'module', name: 'x' }])(
    'nothing in %j',
    (params) => {
      expect(findFnRefs(params)).toEqual([]);
    },
  );

  test('isFnRef checks each kind', () => {
    expect(isFnRef(src('x => x'))).toBe(true);
    expect(isFnRef({ kind: 'inline', id: 1, name: '' })).toBe(true);
    expect(isFnRef({ kind: 'inline', id: '1', name: '' })).toBe(false);
    expect(isFnRef({ kind: 'source', name: 'f' })).toBe(false);
  });
});

describe('createFnResolver', () => {
  const resolve = createFnResolver();

  test('compiles a source once and reuses it', () => {
    const ref = src('(x) => x + 1');
    const f = resolve(ref);
    expect(f(1)).toBe(2);
    expect(resolve({ ...ref })).toBe(f);
  });

  test('defines the __name helper that tsx leaves in sources', () => {
    const f = resolve(src('() => __name(function inner() {}, "renamed").name'));
    expect(f()).toBe('renamed');
  });

  test('compiles in strict mode, as the original module code ran', () => {
    const f = resolve(src('() => { undeclared = 1; }'));
    expect(() => f()).toThrow(ReferenceError);
  });

  test.each([
    ['a syntax error', src('(x) => {'), /does not compile/],
    ['a non-function', src('42'), /is not a function/],
  ])('%s is a KernelError', (_, ref, message) => {
    expect(kernelError(() => resolve(ref))).toMatch(message);
  });

  test('an inline ref resolves only where inline is allowed', () => {
    const f = (x: number) => x;
    const ref = registerInlineFn(f);
    expect(registerInlineFn(f).kind === 'inline' && ref.kind === 'inline').toBe(true);
    expect(createFnResolver({ inline: true })(ref)).toBe(f);
    // A copy without the hidden function still resolves through the id registry.
    expect(createFnResolver({ inline: true })(structuredClone(ref))).toBe(f);
    expect(kernelError(() => resolve(ref))).toMatch(/runs only on the main thread/);
  });

  test('a module ref resolves after preload imports its module', async () => {
    const url = new URL('../fixtures/preload-kernels.ts', import.meta.url).href;
    const ref: FnRef = { kind: 'module', url, name: 'negate' };
    expect(kernelError(() => resolve(ref))).toMatch(/not loaded on this thread/);
    await resolve.preload([ref, src('x => x')]);
    expect((resolve(ref)(ndarray([1, -2])) as ReturnType<typeof ndarray>).toNested()).toEqual([
      -1, 2,
    ]);
    const missing: FnRef = { kind: 'module', url, name: 'nope' };
    expect(kernelError(() => resolve(missing))).toMatch(/does not export one under that name/);
  }, 10_000);

  test('preloading a module that does not exist is a KernelError', async () => {
    const ref: FnRef = { kind: 'module', url: 'file:///nonexistent/k.ts', name: 'f' };
    const err = await resolve.preload([ref]).catch((e: unknown) => e);
    expect(isTesseraError(err, 'KernelError')).toBe(true);
    expect(String(err)).toContain('cannot import kernel module "file:///nonexistent/k.ts"');
  }, 10_000);
});
