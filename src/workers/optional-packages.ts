// The distributed scheduler's packages (bullmq, ioredis) are optional peer dependencies:
// imported on first use, and a missing one is a MissingPackageError saying what to install.

import { MissingPackageError } from '../errors.ts';

/** What installs the distributed scheduler's packages (the versions package.json allows). */
export const DISTRIBUTED_INSTALL = "npm install 'bullmq@6.7' 'ioredis@^5.11.1'";

/**
 * `load()` (an `import()` of `name`), with a missing `name` reported as MissingPackageError.
 * A failure inside the package (or a package it needs) stays as it was.
 * @example
 * const { Queue } = await importOptional('DistributedExecutor', 'bullmq', () => import('bullmq'));
 */
export async function importOptional<T>(
  caller: string,
  name: string,
  load: () => Promise<T>,
  install = DISTRIBUTED_INSTALL,
): Promise<T> {
  try {
    return await load();
  } catch (e) {
    const code = (e as { code?: unknown } | null)?.code;
    const missing =
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
      (e as Error).message.includes(`'${name}'`);
    if (missing) throw new MissingPackageError(caller, name, install);
    throw e;
  }
}

/**
 * bullmq, or MissingPackageError naming it.
 * @example
 * const { Worker } = await importBullmq('tessera worker');
 */
export function importBullmq(caller: string): Promise<typeof import('bullmq')> {
  return importOptional(caller, 'bullmq', () => import('bullmq'));
}

/**
 * ioredis, or MissingPackageError naming it.
 * @example
 * const { Redis } = await importIoredis('DistributedExecutor');
 */
export function importIoredis(caller: string): Promise<typeof import('ioredis')> {
  return importOptional(caller, 'ioredis', () => import('ioredis'));
}
