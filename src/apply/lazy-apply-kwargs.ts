// kwargs of lazyApply: checked to be structured-cloneable data (unless fn runs inline) and
// turned into deterministic, cycle-safe text so equal kwargs give equal layer names.

import type { TypedArray } from '../array/dtype.ts';
import { ValueError } from '../errors.ts';
import { hashData } from '../graph/tokenize.ts';
import { registerInlineFn } from '../kernels/resolve.ts';

/**
 * Deterministic text of `kwargs` (cycles become back-references, typed arrays their hash).
 * Functions and symbols cannot cross to worker threads: ValueError naming their path,
 * unless `inline` (the function then hashes by identity).
 * @example
 * kwargsToken('lazyApply', { n: 3, tags: ['a'] }, false); // '{n:3,tags:["a"]}'
 */
export function kwargsToken(fn: string, kwargs: unknown, inline: boolean): string {
  const seen = new Map<object, number>();
  const walk = (v: unknown, path: string): string => {
    switch (typeof v) {
      case 'undefined':
        return 'u';
      case 'number':
        return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint':
        return `${v}n`;
      case 'string':
        return JSON.stringify(v);
      case 'boolean':
        return String(v);
      case 'function':
      case 'symbol':
        if (inline && typeof v === 'function') return `fn#${idOf(v)}`;
        throw new ValueError(
          `${fn}: ${path} is a ${typeof v}; kwargs must be structured-cloneable data ` +
            '(numbers, strings, arrays, plain objects, typed arrays), or pass { inline: true }',
        );
    }
    if (v === null) return 'null';
    const obj = v as object;
    const ref = seen.get(obj);
    if (ref !== undefined) return `#${ref}`;
    seen.set(obj, seen.size);
    return objectText(obj, path, walk);
  };
  return walk(kwargs, 'kwargs');
}

function idOf(f: Function): number {
  const ref = registerInlineFn(f);
  return ref.kind === 'inline' ? ref.id : 0;
}

type Walk = (v: unknown, path: string) => string;

function objectText(obj: object, path: string, walk: Walk): string {
  if (ArrayBuffer.isView(obj)) {
    return `ta:${obj.constructor.name}:${obj.byteLength}:${hashData(obj as TypedArray)}`;
  }
  if (obj instanceof ArrayBuffer || obj instanceof SharedArrayBuffer) {
    return `ab:${obj.byteLength}:${hashData(new Uint8Array(obj))}`;
  }
  if (Array.isArray(obj)) return `[${obj.map((e, i) => walk(e, `${path}[${i}]`)).join(',')}]`;
  if (obj instanceof Map) {
    const parts = [...obj].map(
      ([k, e], i) => `${walk(k, `${path} key ${i}`)}=>${walk(e, `${path}.get(…)`)}`,
    );
    return `M{${parts.join(',')}}`;
  }
  if (obj instanceof Set)
    return `S{${[...obj].map((e, i) => walk(e, `${path} item ${i}`)).join(',')}}`;
  if (obj instanceof Date) return `D:${obj.getTime()}`;
  if (obj instanceof RegExp) return `R:${String(obj)}`;
  const keys = Object.keys(obj).sort();
  const rec = obj as Record<string, unknown>;
  return `{${keys.map((k) => `${JSON.stringify(k)}:${walk(rec[k], `${path}.${k}`)}`).join(',')}}`;
}
