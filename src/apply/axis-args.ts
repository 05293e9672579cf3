// Validation of axis arguments for manipulation ops: negative axes count from the end.
// Out-of-range, non-integer or repeated axes are ValueErrors naming the function and value.

import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';

/**
 * One axis in [-ndim, ndim) as a non-negative index.
 * @example
 * normalizeAxis('flip', -1, 3); // 2
 */
export function normalizeAxis(fn: string, axis: unknown, ndim: number): number {
  if (typeof axis !== 'number' || !Number.isInteger(axis)) {
    throw new ValueError(`${fn}: axis ${formatValue(axis)} is not an integer`);
  }
  if (axis < -ndim || axis >= ndim) {
    throw new ValueError(
      `${fn}: axis ${formatValue(axis)} is out of bounds for an array of dimension ${ndim}`,
    );
  }
  return axis < 0 ? axis + ndim : axis;
}

/**
 * A list of distinct axes (one number or an array), each normalized.
 * @example
 * normalizeAxes('squeeze', [0, -1], 3); // [0, 2]
 */
export function normalizeAxes(fn: string, axes: unknown, ndim: number): number[] {
  const list: unknown[] = Array.isArray(axes) ? axes : [axes];
  const out = list.map((a) => normalizeAxis(fn, a, ndim));
  if (new Set(out).size !== out.length) {
    throw new ValueError(`${fn}: repeated axis in ${formatValue(axes)}`);
  }
  return out;
}
