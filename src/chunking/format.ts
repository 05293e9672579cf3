// How chunk math quotes shapes and chunk sizes in error messages: Python-style tuples.
// `null` (unknown) prints as `null` so a message shows the value the caller passed.

/**
 * A tuple as Python prints it: `(3, 3)`, `(5,)`, `()`.
 * @example
 * formatTuple([3, null]); // '(3, null)'
 */
export function formatTuple(values: readonly unknown[]): string {
  const parts = values.map(formatValue);
  return parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(', ')})`;
}

/** One value quoted for a message: strings in quotes, arrays as tuples, the rest as JSON. */
export function formatValue(v: unknown): string {
  if (typeof v === 'string') return `'${v}'`;
  if (Array.isArray(v) || ArrayBuffer.isView(v))
    return formatTuple(Array.from(v as ArrayLike<unknown>));
  if (typeof v === 'number' || v === null || v === undefined) return String(v);
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
