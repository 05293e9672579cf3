// Deterministic names for layers: a 53-bit hash of the operation and its parameters.
// Same expression ⇒ same name; different parameters ⇒ different names (cyrb53 mixing).

import type { TypedArray } from '../array/dtype.ts';

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

// tokenize feeds its parts straight into cyrb53's two lanes instead of joining their text
// first: the same hash as cyrb53 over the joined text, without the garbage.

/** cyrb53's two lanes while a name is hashed. */
interface Lanes {
  a: number;
  b: number;
}

function feed(h: Lanes, str: string): void {
  let a = h.a;
  let b = h.b;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    a = Math.imul(a ^ ch, 2654435761);
    b = Math.imul(b ^ ch, 1597334677);
  }
  h.a = a;
  h.b = b;
}

function feedChar(h: Lanes, ch: number): void {
  h.a = Math.imul(h.a ^ ch, 2654435761);
  h.b = Math.imul(h.b ^ ch, 1597334677);
}

/**
 * Feed JSON.stringify(str): str in quotes when it has no quote, backslash, control character
 * or surrogate (checked while feeding), else the escaped text.
 */
function feedString(h: Lanes, str: string): void {
  let a = Math.imul(h.a ^ 34, 2654435761);
  let b = Math.imul(h.b ^ 34, 1597334677);
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    if (ch < 0x20 || ch === 34 || ch === 92 || (ch >= 0xd800 && ch <= 0xdfff)) {
      feed(h, JSON.stringify(str)); // h is untouched so far
      return;
    }
    a = Math.imul(a ^ ch, 2654435761);
    b = Math.imul(b ^ ch, 1597334677);
  }
  h.a = Math.imul(a ^ 34, 2654435761);
  h.b = Math.imul(b ^ 34, 1597334677);
}

/**
 * Feed the canonical text of `value`: strings as JSON (so that "1" and 1 differ), finite
 * numbers as String(n), arrays in brackets, layers and arrays by name, objects by sorted key.
 */
function feedStable(h: Lanes, value: unknown): void {
  // the common parts first: names, dtypes and chunk sizes
  if (typeof value === 'string') feedString(h, value);
  else if (typeof value === 'number')
    feed(h, Number.isFinite(value) ? String(value) : `n:${value}`);
  else if (Array.isArray(value)) {
    feedChar(h, 91); // [
    for (let i = 0; i < value.length; i++) {
      if (i > 0) feedChar(h, 44); // ,
      feedStable(h, value[i]);
    }
    feedChar(h, 93); // ]
  } else if (value === undefined)
    feedChar(h, 117); // u
  else if (typeof value === 'function') feed(h, `fn:${value.name}:${value.toString()}`);
  else if (ArrayBuffer.isView(value)) feed(h, `ta:${hashData(value as TypedArray)}`);
  else if (value !== null && typeof value === 'object') {
    if (
      'name' in value &&
      typeof (value as { name: unknown }).name === 'string' &&
      'chunks' in value
    ) {
      feed(h, `L:${(value as { name: string }).name}`);
      return;
    }
    const keys = Object.keys(value).sort();
    feedChar(h, 123); // {
    for (let i = 0; i < keys.length; i++) {
      if (i > 0) feedChar(h, 44); // ,
      feed(h, keys[i]!);
      feedChar(h, 58); // :
      feedStable(h, (value as Record<string, unknown>)[keys[i]!]);
    }
    feedChar(h, 125); // }
  }
  // booleans, null; a symbol's JSON is undefined, which the joined text spelled 'undefined'
  else feed(h, String(JSON.stringify(value)));
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

const hex8 = (v: number): string =>
  HEX[v >>> 24]! + HEX[(v >>> 16) & 255]! + HEX[(v >>> 8) & 255]! + HEX[v & 255]!;

/**
 * A deterministic layer name `op-<hash>` from any parameters (layers and arrays hash by name).
 * @example
 * tokenize('add', x, y) === tokenize('add', x, y); // true
 */
export function tokenize(op: string, ...parts: unknown[]): string {
  const h: Lanes = { a: 0xdeadbeef, b: 0x41c6ce57 };
  feed(h, op);
  for (let i = 0; i < parts.length; i++) {
    feedChar(h, 124); // |
    feedStable(h, parts[i]);
  }
  const [a, b] = finish(h.a, h.b);
  return `${op}-${hex8(a)}${hex8(b)}`;
}

/**
 * A layer's name: `tokenize(op, depNames, token, chunks, dtype)`, with `backend=<name>`
 * appended to the token when `backend` is given, fed without building those arrays.
 * @example
 * layerName('add', [x.layer], ['add:float64($0,#1)'], undefined, x.chunks, x.dtype);
 */
export function layerName(
  op: string,
  deps: readonly { readonly name: string }[],
  token: readonly unknown[],
  backend: string | undefined,
  chunks: unknown,
  dtype: string,
): string {
  const h: Lanes = { a: 0xdeadbeef, b: 0x41c6ce57 };
  feed(h, op);
  feedChar(h, 124); // |
  feedChar(h, 91); // [
  for (let i = 0; i < deps.length; i++) {
    if (i > 0) feedChar(h, 44);
    feedString(h, deps[i]!.name);
  }
  feedChar(h, 93); // ]
  feedChar(h, 124);
  feedChar(h, 91);
  for (let i = 0; i < token.length; i++) {
    if (i > 0) feedChar(h, 44);
    feedStable(h, token[i]);
  }
  if (backend !== undefined) {
    if (token.length > 0) feedChar(h, 44);
    feedString(h, `backend=${backend}`);
  }
  feedChar(h, 93);
  feedChar(h, 124);
  feedStable(h, chunks);
  feedChar(h, 124);
  feedString(h, dtype);
  const [a, b] = finish(h.a, h.b);
  return `${op}-${hex8(a)}${hex8(b)}`;
}
