// Elementwise expressions over strided views of their input blocks: a slice or a transpose
// of a source block is read in place by the compiled loop instead of being copied first.

import {
  allocate,
  type DType,
  elementWidth,
  type TypedArray,
  typedArrayCtor,
} from '../../../array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { sliceInto, sliceND } from '../layout/slice.ts';
import { broadcastBlockShapes, compileLoop, simplifyStrides } from './elementwise.ts';
import type { Expr } from './expr.ts';

/**
 * A strided selection of a block (per axis start, step, count), then an optional axis
 * permutation: axis i of the view is axis `axes[i]` of the selection.
 */
export interface InputView {
  readonly start: readonly number[];
  readonly step: readonly number[];
  readonly count: readonly number[];
  readonly axes?: readonly number[];
}

/** Params of 'ew-view': an 'ew' expression whose input k reads `views[k]` (null: the block). */
export interface EwViewParams {
  readonly expr: Expr;
  /** Result dtype; omitted for the identity expression (the input's dtype). */
  readonly dtype?: DType;
  readonly views: readonly (InputView | null)[];
}

/**
 * An input as the loops read it: data from its first element, shape and element strides
 * (complex data: element i's parts at 2i and 2i + 1 of `data`).
 */
export interface Operand {
  readonly data: TypedArray;
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly strides: readonly number[];
}

/** Input `block` read through `view` (null: all of it), without copying its data. */
export function operand(block: NDArray, view: InputView | null, slot = -1): Operand {
  if (view === null) return { ...block, strides: cStrides(block.shape) };
  if (view.step.some((s) => s < 0)) {
    // a reversed view would start before its first element: copy the selection instead,
    // into this thread's scratch for operand `slot` (warm memory) when one is given
    const copy = reversedCopy(block, view, slot);
    return operand(copy, view.axes ? { ...fullView(copy.shape), axes: view.axes } : null);
  }
  const st = cStrides(block.shape);
  let offset = 0;
  for (let ax = 0; ax < st.length; ax++) offset += view.start[ax]! * st[ax]!;
  const selStrides = st.map((s, ax) => s * view.step[ax]!);
  const axes = view.axes ?? view.count.map((_, i) => i);
  return {
    data: offset === 0 ? block.data : block.data.subarray(offset * elementWidth(block.dtype)),
    dtype: block.dtype,
    shape: axes.map((a) => view.count[a]!),
    strides: axes.map((a) => selStrides[a]!),
  };
}

/** Largest reversed view copied into scratch (elements); larger ones get a fresh block. */
const SCRATCH_LIMIT = 2 ** 21;
const scratch = new Map<string, TypedArray>();

/**
 * The selection `view` of `block` copied into this thread's scratch buffer for operand
 * `slot` (reused by every later evaluation: valid until the next kernel call on this thread).
 */
function reversedCopy(block: NDArray, view: InputView, slot: number): NDArray {
  const size = shapeSize(view.count);
  if (slot < 0 || size > SCRATCH_LIMIT) return sliceND(block, view);
  const key = `${block.dtype}:${slot}`;
  let buf = scratch.get(key);
  const width = elementWidth(block.dtype);
  if (buf === undefined || buf.length < size * width) {
    buf = new (typedArrayCtor(block.dtype))(size * width);
    scratch.set(key, buf);
  }
  const out = buf.subarray(0, size * width);
  sliceInto(out, block, view);
  return new NDArray(out, view.count, block.dtype);
}

function fullView(shape: readonly number[]): InputView {
  return { start: shape.map(() => 0), step: shape.map(() => 1), count: shape };
}

/** The broadcast shape of `ops` and each operand's strides over it (0 where it broadcasts). */
export function broadcastOperands(ops: readonly Operand[]): {
  shape: number[];
  strides: number[][];
} {
  const shape = broadcastBlockShapes(ops.map((o) => o.shape));
  const nd = shape.length;
  const strides = ops.map((o) => {
    const lead = nd - o.shape.length;
    return shape.map((_, ax) =>
      ax < lead || o.shape[ax - lead] === 1 ? 0 : o.strides[ax - lead]!,
    );
  });
  return { shape, strides };
}

type Loop = ReturnType<typeof compileLoop>;

/**
 * Evaluates an expression over sub-blocks (tiles) of its broadcast output, reading each
 * operand in place. Tiles of one shape reuse one simplified layout and compiled loop.
 */
export class TileEvaluator {
  readonly shape: number[];
  /** Each operand's element strides over `shape` (0 where it broadcasts). */
  readonly full: number[][];
  private cacheKey = '';
  private cached: { loop: Loop; shape: number[]; strides: number[][] } | undefined;

  constructor(
    readonly expr: Expr,
    readonly dtype: DType,
    readonly ops: readonly Operand[],
  ) {
    const b = broadcastOperands(ops);
    this.shape = b.shape;
    this.full = b.strides;
  }

  /** Fill `out` (exactly the tile's size) with the tile at `start` of shape `tile`. */
  evaluate(out: TypedArray, start: readonly number[], tile: readonly number[]): void {
    const key = tile.join(',');
    if (key !== this.cacheKey || this.cached === undefined) {
      const s = simplifyStrides(tile, this.full);
      const loop = compileLoop({
        expr: this.expr,
        inputDtypes: this.ops.map((o) => o.dtype),
        modes: s.modes,
        outDtype: this.dtype,
      });
      this.cached = { loop, shape: s.shape, strides: s.strides };
      this.cacheKey = key;
    }
    const ins = this.ops.map((o, k) => {
      let off = 0;
      const st = this.full[k]!;
      for (let ax = 0; ax < start.length; ax++) off += start[ax]! * st[ax]!;
      return off === 0 ? o.data : o.data.subarray(off * elementWidth(o.dtype));
    });
    this.cached.loop(out, ins, this.cached.shape, this.cached.strides);
  }
}

/** The evaluator of `p` over `inputs` (blocks read through their views). */
export function viewEvaluator(inputs: readonly Chunk[], p: EwViewParams): TileEvaluator {
  const ops = inputs.map((c, k) => operand(arrayBlock(c, 'ew-view'), p.views[k] ?? null, k));
  return new TileEvaluator(p.expr, p.dtype ?? ops[0]!.dtype, ops);
}

/**
 * Evaluate `p.expr` over views of `inputs` into a new block.
 * @example
 * // the transpose of x's top-left 2 × 3 corner, times 2, without copying x
 * evaluateViews([x], { expr: { op: 'multiply', args: [{ in: 0 }, { const: 2 }], dtype: 'float64' },
 *   dtype: 'float64', views: [{ start: [0, 0], step: [1, 1], count: [2, 3], axes: [1, 0] }] });
 */
export function evaluateViews(inputs: readonly Chunk[], p: EwViewParams): NDArray {
  const ev = viewEvaluator(inputs, p);
  const out = allocate(ev.dtype, shapeSize(ev.shape));
  if (out.length > 0) {
    ev.evaluate(
      out,
      ev.shape.map(() => 0),
      ev.shape,
    );
  }
  return new NDArray(out, ev.shape, ev.dtype);
}

/** The view kernels, registered in backends/cpu-js/registry. */
export const viewKernels: Record<string, Kernel<never>> = {
  /** Copy a strided, possibly permuted view of the one input block. */
  view: ((inputs: Chunk[], p: InputView) =>
    evaluateViews(inputs, { expr: { in: 0 }, views: [p] })) as Kernel<never>,
  /** An elementwise expression over views of its inputs. */
  'ew-view': ((inputs: Chunk[], p: EwViewParams) => evaluateViews(inputs, p)) as Kernel<never>,
};
