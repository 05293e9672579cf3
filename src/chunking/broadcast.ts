// NumPy broadcasting of shapes that may hold unknown (`null`) sizes.
// Shapes are right-aligned; 1 stretches; an unknown size stays unknown, as in Dask.

import { ShapeError } from '../errors.ts';
import { formatTuple } from './format.ts';
import type { Size } from './types.ts';

/**
 * The broadcast shape of `shapes` (NumPy rules, right-aligned). A size of 1 stretches to
 * the other; `null` (unknown) with anything stays `null`; two different known sizes,
 * neither 1, raise `ShapeError` quoting every shape.
 * @example
 * broadcastShapes('add', [4, 1], [3]); // [4, 3]
 * broadcastShapes('add', [null, 3], [1]); // [null, 3]
 */
export function broadcastShapes(fn: string, ...shapes: readonly (readonly Size[])[]): Size[] {
  let nd = 0;
  for (const s of shapes) nd = Math.max(nd, s.length);
  const out = new Array<Size>(nd);
  for (let i = 1; i <= nd; i++) {
    let unknown = false;
    let known = 1;
    for (const s of shapes) {
      if (s.length < i) continue;
      const d = s[s.length - i]!;
      if (d === null) unknown = true;
      else if (d !== 1) {
        if (known !== 1 && known !== d) {
          throw new ShapeError(
            `${fn}: shapes ${shapes.map(formatTuple).join(', ')} do not broadcast ` +
              `(${known} vs ${d} on axis -${i})`,
          );
        }
        known = d;
      }
    }
    out[nd - i] = unknown ? null : known;
  }
  return out;
}
