// QR of a tall-skinny matrix chunked along its rows (Dask's tsqr; Demmel et al. 2012,
// "Communication-optimal parallel and sequential QR"): one QR per row block, a tree of QRs
// of stacked R factors, then each block's Q times its slice of the tree's composite Q.

import type { DType } from '../array/dtype.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { LinalgParams } from '../backends/cpu-js/linalg/batched.ts';
import type { DenseOpArgs } from '../backends/cpu-js/linalg/dense-ops.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef, Layer } from '../graph/layer.ts';
import { dispatchLayer } from './dispatch-layer.ts';
import { opName } from './linalg-core.ts';

/** A node of the tree: rows of its local Q and its rank k (columns of Q, rows of R). */
interface TreeNode {
  readonly rows: number;
  readonly k: number;
}

/** One level of the tree: a tuple layer (Q, R) per node, and its nodes. */
interface Level {
  readonly layer: Layer;
  readonly nodes: readonly TreeNode[];
  /** Children of node g of this level: [first, end) of the level below. */
  readonly groups: readonly (readonly [number, number])[];
}

function params(
  fn: string,
  op: string,
  args: Omit<DenseOpArgs, 'fn'>,
  outCores: number[][],
  dtype: DType,
  picks: (number | null)[],
): LinalgParams {
  return {
    op,
    args: { ...args, fn },
    batchDims: 0,
    outCores,
    dtypes: outCores.map(() => dtype),
    multi: outCores.length > 1,
    picks,
  };
}

/** The backend dispatch picks for a TSQR layer running dense op `op` on `deps`. */
function tsqrBackend(fn: string, op: string, deps: Layer[], chunks: number[][], dtype: DType) {
  const probe = params(fn, op, {}, [], dtype, []);
  return dispatchLayer({ kernel: 'linalg', params: probe, deps, chunks, dtype, fn });
}

/** The leaves: a reduced QR of every row block of `x` (columns already one chunk). */
function leaves(fn: string, x: LazyArray, n: number, dtype: DType): Level {
  const rows = x.chunks[0] as number[];
  const nodes = rows.map((r) => ({ rows: r, k: Math.min(r, n) }));
  const chunks = [rows, [n]];
  const backend = tsqrBackend(fn, 'qr', [x.layer], chunks, dtype);
  const layer = defineLayer({
    op: `${opName(fn)}-tsqr-leaf`,
    token: [],
    deps: [x.layer],
    chunks,
    dtype,
    backend,
    task: (b) => {
      const nd = nodes[b[0]!]!;
      const outCores = [
        [nd.rows, nd.k],
        [nd.k, n],
      ];
      const p = params(fn, 'qr', {}, outCores, dtype, [null]);
      return { kernel: 'linalg', inputs: [[0, [b[0]!, 0]]], params: p };
    },
  });
  return { layer, nodes, groups: [] };
}

/** The next level up: the QR of each group of `splitEvery` stacked R factors. */
function levelAbove(fn: string, below: Level, n: number, splitEvery: number, dtype: DType): Level {
  const groups: [number, number][] = [];
  for (let c = 0; c < below.nodes.length; c += splitEvery) {
    groups.push([c, Math.min(c + splitEvery, below.nodes.length)]);
  }
  const nodes = groups.map(([c0, c1]) => {
    const rows = below.nodes.slice(c0, c1).reduce((s, nd) => s + nd.k, 0);
    return { rows, k: Math.min(rows, n) };
  });
  const chunks = [nodes.map((nd) => nd.rows), [n]];
  const backend = tsqrBackend(fn, 'tsqr-stack', [below.layer], chunks, dtype);
  const layer = defineLayer({
    op: `${opName(fn)}-tsqr-stack`,
    token: [splitEvery],
    deps: [below.layer],
    chunks,
    dtype,
    backend,
    task: (b) => {
      const [c0, c1] = groups[b[0]!]!;
      const nd = nodes[b[0]!]!;
      const inputs: BlockRef[] = [];
      for (let c = c0; c < c1; c++) inputs.push([0, [c, 0]]);
      const outCores = [
        [nd.rows, nd.k],
        [nd.k, n],
      ];
      const p = params(
        fn,
        'tsqr-stack',
        {},
        outCores,
        dtype,
        inputs.map(() => 1),
      );
      return { kernel: 'linalg', inputs, params: p };
    },
  });
  return { layer, nodes, groups };
}

/**
 * The composite Q of every node of `level`: its local Q times its rows of its parent's
 * composite (`parent`, one block per node of the level above, `groups` its children).
 */
function downLevel(
  fn: string,
  level: Level,
  parent: { layer: Layer; tuple: boolean },
  groups: readonly (readonly [number, number])[],
  bigK: number,
  dtype: DType,
): Layer {
  const parentOf = level.nodes.map((_, c) => groups.findIndex(([c0, c1]) => c >= c0 && c < c1));
  const offsets = level.nodes.map((_, c) => {
    const [c0] = groups[parentOf[c]!]!;
    return level.nodes.slice(c0, c).reduce((s, nd) => s + nd.k, 0);
  });
  const deps = [level.layer, parent.layer];
  const chunks = [level.nodes.map((nd) => nd.rows), [bigK]];
  const backend = tsqrBackend(fn, 'tsqr-down', deps, chunks, dtype);
  return defineLayer({
    op: `${opName(fn)}-tsqr-q`,
    token: [],
    deps,
    chunks,
    dtype,
    backend,
    task: (b) => {
      const c = b[0]!;
      const nd = level.nodes[c]!;
      const args = { offset: offsets[c]!, rows: nd.k };
      const p = params(fn, 'tsqr-down', args, [[nd.rows, bigK]], dtype, [
        0,
        parent.tuple ? 0 : null,
      ]);
      return {
        kernel: 'linalg',
        inputs: [
          [0, [c, 0]],
          [1, [parentOf[c]!, 0]],
        ],
        params: p,
      };
    },
  });
}

/**
 * Q (chunked like `x`'s rows, K = min(m, n) columns in one chunk) and R (K×n, one chunk) of
 * the 2-d `x` whose columns are one chunk and whose row chunks are known: one task per row
 * block, `splitEvery` R factors stacked per tree node.
 * @example
 * const { Q, R } = tsqr('linalg.qr', x, 16, 'float64'); // x: [1e6, 100] in 10 row blocks
 */
export function tsqr(
  fn: string,
  x: LazyArray,
  splitEvery: number,
  dtype: DType,
): { Q: LazyArray; R: LazyArray } {
  const n = x.shape[1] as number;
  const levels = [leaves(fn, x, n, dtype)];
  while (levels[levels.length - 1]!.nodes.length > 1) {
    levels.push(levelAbove(fn, levels[levels.length - 1]!, n, splitEvery, dtype));
  }
  const root = levels[levels.length - 1]!;
  const bigK = root.nodes[0]!.k;
  const rLayer = defineLayer({
    op: `${opName(fn)}-tsqr-r`,
    token: [],
    deps: [root.layer],
    chunks: [[bigK], [n]],
    dtype,
    fusable: true,
    task: () => ({ kernel: 'pick', inputs: [[0, [0, 0]]], params: { index: 1 } }),
  });
  let parent = { layer: root.layer, tuple: true };
  for (let l = levels.length - 2; l >= 0; l--) {
    const layer = downLevel(fn, levels[l]!, parent, levels[l + 1]!.groups, bigK, dtype);
    parent = { layer, tuple: false };
  }
  // a parent that is the root's tuple: its composite Q is its own local Q
  return { Q: new LazyArray(parent.layer), R: new LazyArray(rLayer) };
}
