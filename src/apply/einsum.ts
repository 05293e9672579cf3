// einsum: Einstein summation over chunked arrays, as a blockwise contraction then a sum.
// Explicit ('ij,jk->ik') and implicit ('ij,jk') outputs; repeated letters take diagonals.

import { resultType } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import type { EinsumParams } from '../backends/cpu-js/linalg/einsum.ts';
import { formatTuple } from '../chunking/format.ts';
import type { Size } from '../chunking/types.ts';
import { ShapeError, ValueError } from '../errors.ts';
import { broadcastTo } from './axes.ts';
import { planBlockwise } from './blockwise-plan.ts';
import { contraction } from './contraction.ts';
import { viaFloat32 } from './float16-widen.ts';

/** Parsed subscripts: one index string per operand and the output index. */
export interface EinsumSubscripts {
  readonly terms: string[];
  readonly out: string;
}

/**
 * Parse einsum subscripts for operands of the given ranks.
 * @example
 * parseSubscripts('ij,jk', [2, 2]); // { terms: ['ij', 'jk'], out: 'ik' }
 */
export function parseSubscripts(subscripts: string, ranks: readonly number[]): EinsumSubscripts {
  const s = subscripts.replace(/\s+/g, '');
  if (s.includes('.')) {
    throw new ValueError(`einsum: ellipsis in '${subscripts}' is not supported; name every axis`);
  }
  const parts = s.split('->');
  if (parts.length > 2) throw new ValueError(`einsum: '${subscripts}' has more than one '->'`);
  const terms = parts[0]!.split(',');
  if (terms.length !== ranks.length) {
    throw new ValueError(
      `einsum: '${subscripts}' names ${terms.length} operands, got ${ranks.length}`,
    );
  }
  const bad = s.replace(/->/g, '').replace(/[A-Za-z,]/g, '');
  if (bad.length > 0)
    throw new ValueError(`einsum: '${subscripts}' contains '${bad[0]}'; use letters`);
  terms.forEach((t, i) => {
    if (t.length !== ranks[i]) {
      throw new ValueError(
        `einsum: term '${t}' has ${t.length} letters for operand ${i} of ${ranks[i]} dimensions`,
      );
    }
  });
  const counts = new Map<string, number>();
  for (const t of terms) for (const l of t) counts.set(l, (counts.get(l) ?? 0) + 1);
  if (parts.length === 1) {
    const out = [...counts]
      .filter(([, n]) => n === 1)
      .map(([l]) => l)
      .sort()
      .join('');
    return { terms, out };
  }
  const out = parts[1]!;
  if (new Set(out).size !== out.length) {
    throw new ValueError(`einsum: output '${out}' of '${subscripts}' repeats a letter`);
  }
  for (const l of out) {
    if (!counts.has(l))
      throw new ValueError(`einsum: output letter '${l}' of '${subscripts}' is in no operand`);
  }
  return { terms, out };
}

/**
 * Operands with size 1 on a letter another operand has larger, broadcast to it (NumPy's
 * einsum broadcasts such axes); a letter repeated within one term (a diagonal) is left alone.
 */
function broadcastLetters(terms: readonly string[], arrays: readonly LazyArray[]): LazyArray[] {
  const sizes = new Map<string, number>();
  terms.forEach((t, i) => {
    [...t].forEach((l, ax) => {
      const n = arrays[i]!.shape[ax];
      if (typeof n === 'number' && n !== 1 && !sizes.has(l)) sizes.set(l, n);
    });
  });
  return arrays.map((a, i) => {
    const t = terms[i]!;
    const shape = a.shape;
    const target = [...t].map((l, ax) =>
      shape[ax] === 1 && sizes.has(l) && t.indexOf(l) === t.lastIndexOf(l)
        ? sizes.get(l)!
        : shape[ax],
    );
    if (target.every((n, ax) => n === shape[ax]) || target.some((n) => n === null)) return a;
    return broadcastTo(a, target as number[]);
  });
}

/** Every letter must have one size across operands (unknown sizes are left to alignment). */
function checkSizes(terms: readonly string[], arrays: readonly LazyArray[]): void {
  const sizes = new Map<string, Size>();
  terms.forEach((t, i) => {
    const shape = arrays[i]!.shape;
    [...t].forEach((l, ax) => {
      const n = shape[ax]!;
      const prev = sizes.get(l);
      if (prev !== undefined && prev !== null && n !== null && prev !== n) {
        throw new ShapeError(
          `einsum: index '${l}' has size ${prev} and ${n} (operand ${i} of shape ${formatTuple(shape)})`,
        );
      }
      if (prev === undefined || prev === null) sizes.set(l, n);
    });
  });
}

/**
 * Einstein summation: `einsum('ij,jk->ik', a, b)` is the matrix product. Letters missing from
 * the output are summed; without '->' the output is the letters used once, sorted. A letter
 * repeated within one operand takes its diagonal ('ii->i'). An axis of size 1 broadcasts
 * against the same letter's size elsewhere, as in NumPy. dtypes promote.
 * @example
 * einsum('ij,jk->ik', a, b); // matmul(a, b)
 * einsum('i,i->', x, y); // dot product, 0-d
 * einsum('ij->ji', a); // transpose
 */
export function einsum<O extends ArrayLike>(
  subscripts: string,
  ...operands: O[]
): LazyArray<KnownIn<[O]>> {
  if (typeof subscripts !== 'string') {
    throw new ValueError(`einsum: subscripts ${String(subscripts)} must be a string`);
  }
  if (operands.length === 0)
    throw new ValueError(`einsum: '${subscripts}' needs at least one operand`);
  const given = operands.map((x) => asLazy(x, 'einsum'));
  if (given.some((a) => a.dtype === 'float16')) {
    return viaFloat32(given, (wide) => einsum(subscripts, ...wide)) as LazyArray<KnownIn<[O]>>;
  }
  const { terms, out } = parseSubscripts(
    subscripts,
    given.map((a) => a.ndim),
  );
  const arrays = broadcastLetters(terms, given);
  checkSizes(terms, arrays);
  const dtype = resultType(...arrays.map((a) => a.dtype));
  const plan = planBlockwise(
    'einsum',
    out,
    arrays.map((array, i) => ({ array, index: terms[i]! })),
  );
  const params: EinsumParams = { terms, out, dtype };
  return contraction({
    op: 'einsum',
    token: [terms, out],
    plan,
    dtype,
    kernel: 'einsum',
    params,
  }) as LazyArray<KnownIn<[O]>>;
}
