// Deterministic names for layers: a 53-bit hash of the operation and its parameters.
// Same expression ⇒ same name; different parameters ⇒ different names (cyrb53 mixing).

import type { TypedArray } from '../array/dtype.ts';

function cyrb53(str: string, h1 = 0xdeadbeef, h2 = 0x41c6ce57): [number, number] {
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  return finish(h1, h2);
}

function finish(h1: number, h2: number): [number, number] {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

/** Hash the bytes of a TypedArray (for naming arrays built from data). */
export function hashData(data: TypedArray): string {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let h1 = 0x9e3779b9 ^ bytes.length;
  let h2 = 0x85ebca6b;
  const words = bytes.length >>> 2;
  const u32 =
    data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, words) : null;
  for (let i = 0; i < words; i++) {
    const w = u32
      ? u32[i]!
      : bytes[4 * i]! |
        (bytes[4 * i + 1]! << 8) |
        (bytes[4 * i + 2]! << 16) |
        (bytes[4 * i + 3]! << 24);
    h1 = Math.imul(h1 ^ w, 2654435761);
    h2 = Math.imul(h2 ^ w, 1597334677);
  }
  for (let i = words * 4; i < bytes.length; i++) h1 = Math.imul(h1 ^ bytes[i]!, 2654435761);
  const [a, b] = finish(h1, h2);
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

function stable(value: unknown): string {
  // the common parts first: names, dtypes and chunk sizes (String(n) = JSON.stringify(n) for
  // finite n; strings are quoted so that "1" and 1 differ)
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : `n:${value}`;
  if (Array.isArray(value)) {
    let s = '[';
    for (let i = 0; i < value.length; i++) s += (i === 0 ? '' : ',') + stable(value[i]);
    return `${s}]`;
  }
  if (value === undefined) return 'u';
  if (typeof value === 'function') return `fn:${value.name}:${value.toString()}`;
  if (ArrayBuffer.isView(value)) return `ta:${hashData(value as TypedArray)}`;
  if (value !== null && typeof value === 'object') {
    if (
      'name' in value &&
      typeof (value as { name: unknown }).name === 'string' &&
      'chunks' in value
    ) {
      return `L:${(value as { name: string }).name}`;
    }
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${k}:${stable((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A deterministic layer name `op-<hash>` from any parameters (layers and arrays hash by name).
 * @example
 * tokenize('add', x, y) === tokenize('add', x, y); // true
 */
export function tokenize(op: string, ...parts: unknown[]): string {
  let s = op;
  for (let i = 0; i < parts.length; i++) s += `|${stable(parts[i])}`;
  const [a, b] = cyrb53(s);
  return `${op}-${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
}
