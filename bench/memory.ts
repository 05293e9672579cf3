// Process memory for benchmarks (Linux /proc): current and peak resident set of the whole
// process, worker threads included, and a reset of the peak as the Dask peer scripts do.

import { readFileSync, writeFileSync } from 'node:fs';
import { allocate } from '../src/array/dtype.ts';

function statusBytes(field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return line === undefined ? Number.NaN : Number(line.split(/\s+/)[1]) * 1024;
}

/** Resident bytes now. */
export const rssNow = (): number => statusBytes('VmRSS');

/** Peak resident bytes since start or since the last resetPeak(). */
export const rssPeak = (): number => statusBytes('VmHWM');

/** Reset the peak to the current RSS (proc(5) clear_refs '5'); false where not allowed. */
export function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** A shared Float64Array of `n` pseudo-random values in [0, 1) (an LCG: input, not a test). */
export function uniformData(n: number, seed = 12345): Float64Array {
  const data = allocate('float64', n) as Float64Array;
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    data[i] = s / 2 ** 32;
  }
  return data;
}

/** Integer knob from the environment (benchmarks shrink with these). */
export function knob(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`bench: ${name}=${JSON.stringify(v)} is not a number`);
  return n;
}

export const GB = 1e9;
export const MiB = 2 ** 20;
