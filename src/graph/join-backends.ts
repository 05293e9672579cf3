// Which layers may fuse across backends: fusion stays within one backend, and glue layers
// (no backend: they run the reference kernels) join any CPU backend's group.

import type { BackendRef } from './layer.ts';

/**
 * The backend of a group that joins groups with backends `a` and `b`, or false when they
 * cannot fuse: fusion stays within one backend; glue layers (no backend) run the reference
 * kernels, so they join any CPU backend's group, never a GPU one's.
 */
export function joinBackends(
  a: BackendRef | undefined,
  b: BackendRef | undefined,
): BackendRef | undefined | false {
  if (a === undefined) return b === undefined || b.device === 'cpu' ? b : false;
  if (b === undefined) return a.device === 'cpu' ? a : false;
  return a.name === b.name ? a : false;
}
