// Validation of compute options (compute, persist, computeChunkSizes, toZarr): every option's
// type and range, checked before the graph is built or any executor is started.

import { ValueError } from '../errors.ts';
import { checkOptions, describe } from './check-options.ts';
import type { ComputeOptions } from './compute.ts';

const SCHEDULERS = ['sync', 'threads', 'processes', 'distributed'];

const positive = (v: unknown): boolean =>
  typeof v === 'number' && v > 0 && v !== Number.POSITIVE_INFINITY;

/** Each option's check: undefined when the value is fine, else what it must be. */
const RULES: Record<string, (v: unknown) => string | undefined> = {
  scheduler: (v) =>
    SCHEDULERS.includes(v as string) ||
    (v !== null && typeof v === 'object' && typeof (v as { run?: unknown }).run === 'function')
      ? undefined
      : `one of ${SCHEDULERS.map((s) => `'${s}'`).join(', ')} or an Executor (an object with run())`,
  workers: (v) =>
    typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? undefined : 'a positive integer',
  signal: (v) => (v instanceof AbortSignal ? undefined : 'an AbortSignal'),
  timeout: (v) => (positive(v) ? undefined : 'a positive number of ms'),
  progress: (v) =>
    typeof v === 'boolean' || typeof v === 'function' ? undefined : 'a boolean or a function',
  memoryLimit: (v) => (positive(v) ? undefined : 'a positive number of bytes'),
  optimize: (v) => (typeof v === 'boolean' ? undefined : 'a boolean'),
  onStats: (v) => (typeof v === 'function' ? undefined : 'a function'),
  allowTransfer: (v) => (typeof v === 'boolean' ? undefined : 'a boolean'),
  profile: (v) =>
    typeof v === 'boolean' || (typeof v === 'string' && v !== '')
      ? undefined
      : "a boolean or a file path (such as 'profile.html')",
  onProfile: (v) => (typeof v === 'function' ? undefined : 'a function'),
};

/**
 * The compute options of a call to `fn`, validated; `undefined` entries are absent. Keys
 * other than compute options (a caller's own, such as toZarr's) are left to the caller.
 * @example
 * checkComputeOptions('compute', { scheduler: 'sync' });
 */
export function checkComputeOptions(fn: string, opts: unknown): ComputeOptions {
  const o = checkOptions(fn, opts as ComputeOptions | undefined) as Record<string, unknown>;
  for (const [key, rule] of Object.entries(RULES)) {
    const v = o[key];
    if (v === undefined) continue;
    const need = rule(v);
    if (need !== undefined) throw new ValueError(`${fn}: ${key} ${describe(v)} must be ${need}`);
  }
  if (o.profile === true && o.onProfile === undefined) {
    throw new ValueError(
      `${fn}: profile true needs onProfile to receive the profile (or a path such as 'profile.html' for a report)`,
    );
  }
  return o as ComputeOptions;
}
