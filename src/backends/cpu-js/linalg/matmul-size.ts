// The size of a 'matmul' layer's largest block product, as CPU backends judge whether a
// matrix product is worth their call overhead: rows × inner × cols from the inputs' chunks.

import type { OpMeta } from '../../../dispatch/types.ts';
import type { MatmulParams } from './matmul.ts';

/** The largest chunk along an axis; unknown sizes count as large (they run as they come). */
const largest = (c: readonly (number | null)[] | undefined): number =>
  c === undefined || c.length === 0 ? 1 : Math.max(...c.map((s) => s ?? Infinity));

/**
 * Rows, inner size and columns of the largest block product of a 'matmul' layer: vectors
 * count one row or column, transposed operands (`aT`, `bT`) have their last two axes
 * swapped, and x @ x (one input for both operands) reads it twice.
 * @example
 * matmulBlockShape(meta); // [1000, 1000, 1000] for 2000² @ 2000² in 1000² chunks
 */
export function matmulBlockShape(meta: OpMeta): [number, number, number] {
  const a = meta.inputs[0];
  const b = meta.inputs[1] ?? a;
  if (a === undefined || b === undefined) return [0, 0, 0];
  const p = meta.params as MatmulParams | undefined;
  const na = a.chunks.length;
  const nb = b.chunks.length;
  const rows = na >= 2 ? largest(a.chunks[p?.aT ? na - 1 : na - 2]) : 1;
  const inner = largest(a.chunks[p?.aT && na >= 2 ? na - 2 : na - 1]);
  const cols = nb >= 2 ? largest(b.chunks[p?.bT ? nb - 2 : nb - 1]) : 1;
  return [rows, inner, cols];
}
