// Validation of a configure() patch: every key known, every value of its type and range,
// checked before any is applied so a bad patch changes nothing.

import { formatValue } from './chunking/format.ts';
import { ValueError } from './errors.ts';

const SCHEDULERS = ['sync', 'threads', 'processes', 'distributed'];

const isInt = (v: unknown, min: number): boolean =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= min;

/** Each key's check: undefined when the value is fine, else what it must be. */
const RULES: Record<string, (v: unknown) => string | undefined> = {
  chunkBytes: (v) => (isInt(v, 1) ? undefined : 'a positive integer'),
  workers: (v) => (isInt(v, 0) ? undefined : 'a non-negative integer (0 = all cores)'),
  scheduler: (v) =>
    SCHEDULERS.includes(v as string) ? undefined : `one of ${SCHEDULERS.join(', ')}`,
  splitEvery: (v) => (isInt(v, 2) ? undefined : 'an integer >= 2'),
  backendPriority: (v) =>
    Array.isArray(v) && v.every((b) => typeof b === 'string')
      ? undefined
      : 'an array of backend names',
  redis: (v) => (typeof v === 'string' ? undefined : 'a redis:// URL string'),
  abortGraceMs: (v) => (isInt(v, 0) ? undefined : 'a non-negative integer of ms'),
  maxTasks: (v) => (isInt(v, 1) ? undefined : 'a positive integer'),
  bufferPool: (v) => (isInt(v, 0) ? undefined : 'a non-negative integer of bytes (0 = no reuse)'),
};

/** Throw a ValueError naming `configure` unless every entry of `patch` is valid. */
export function checkConfigPatch(patch: unknown): void {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
    throw new ValueError(`configure: ${formatValue(patch)} is not an object of settings`);
  }
  for (const [key, v] of Object.entries(patch)) {
    const rule = RULES[key];
    if (rule === undefined) {
      throw new ValueError(
        `configure: unknown setting '${key}'; settings are ${Object.keys(RULES).join(', ')}`,
      );
    }
    const need = rule(v);
    if (need !== undefined) {
      throw new ValueError(`configure: ${key} ${formatValue(v)} must be ${need}`);
    }
  }
}
