// The distributed scheduler's packages are optional: a missing one is a MissingPackageError
// naming it and the install command; any other failure to load passes through unchanged.

import { describe, expect, test } from 'vitest';
import { isTesseraError, MissingPackageError } from '../../src/errors.ts';
import { DISTRIBUTED_INSTALL, importOptional } from '../../src/workers/optional-packages.ts';

const missing = 'tessera-no-such-package';
// The specifier is computed so no bundler or type checker resolves it ahead of time.
const importMissing = () => import(/* @vite-ignore */ [missing, ''].join(''));

describe('importOptional', () => {
  test('a package that is not installed is MissingPackageError naming it', async () => {
    const e = await importOptional('DistributedExecutor', missing, importMissing).catch((x) => x);
    expect(isTesseraError(e, 'MissingPackageError')).toBe(true);
    expect((e as MissingPackageError).packageName).toBe(missing);
    expect((e as Error).message).toBe(
      `DistributedExecutor: needs the optional package '${missing}', which is not installed: ${DISTRIBUTED_INSTALL}`,
    );
  });

  test.each([
    ['a package whose own dependency is missing', 'bullmq', importMissing, /Cannot find/],
    [
      'a package that throws while loading',
      'bullmq',
      () => Promise.reject(new Error('bullmq broke')),
      /bullmq broke/,
    ],
  ])('%s keeps its own error', async (_, name, load, message) => {
    const e = await importOptional('tessera worker', name, load).catch((x) => x);
    expect(e).not.toBeInstanceOf(MissingPackageError);
    expect((e as Error).message).toMatch(message);
  });

  test('an installed package loads', async () => {
    const m = await importOptional('DistributedExecutor', 'ioredis', () => import('ioredis'));
    expect(typeof m.Redis).toBe('function');
  });
});
