// compute()'s result buffers: an array of known shape in several blocks gets its result
// allocated up front, and each output block is copied into it as its task finishes, so the
// run can drop the block (at most the result, not the result plus every block, is held).

import { writeRegion } from '../backends/cpu-js/layout/slice.ts';
import type { Chunks } from '../chunking/types.ts';
import { ShapeError } from '../errors.ts';
import { unravel } from '../graph/materialize.ts';
import type { Chunk } from '../kernels/types.ts';
import type { DType } from './dtype.ts';
import { emptyNDArray, NDArray } from './ndarray.ts';
import { fitsPlace, type OutputPlace } from './output-place.ts';

/** The result of one output array, filled block by block. */
export class OutputSink {
  readonly result: NDArray;
  /** Why a block could not be taken (a tuple, a block of the wrong shape), if one could not. */
  error: ShapeError | undefined;
  private readonly grid: number[];
  private readonly offsets: number[][];

  private constructor(
    private readonly chunks: readonly (readonly number[])[],
    dtype: DType,
    private readonly name: string,
  ) {
    this.grid = chunks.map((c) => c.length);
    this.offsets = chunks.map((c) => {
      const o = [0];
      for (const s of c) o.push(o[o.length - 1]! + s);
      return o;
    });
    this.result = emptyNDArray(
      this.offsets.map((o) => o[o.length - 1]!),
      dtype,
    );
  }

  /**
   * A sink for an array of these chunks, or undefined where blocks are better kept as they
   * are: one block (returned itself, no copy) or unknown sizes (assembled from the blocks).
   * @example
   * const sink = OutputSink.for([[2, 2], [3]], 'float64', 'x'); // a [4, 3] result
   */
  static for(chunks: Chunks, dtype: DType, name: string): OutputSink | undefined {
    if (chunks.some((c) => c.includes(null))) return undefined;
    if (chunks.every((c) => c.length === 1)) return undefined;
    return new OutputSink(chunks as number[][], dtype, name);
  }

  /**
   * Where block `flat` (C order) goes in the result: the thread that computes it can copy it
   * there itself (see take's `written`).
   */
  place(flat: number): OutputPlace {
    const idx = unravel(flat, this.grid);
    return {
      result: this.result,
      at: idx.map((i, ax) => this.offsets[ax]![i]!),
      shape: idx.map((i, ax) => this.chunks[ax]![i]!),
    };
  }

  /**
   * Copy block `flat` (C order) into the result; false (and `error` set) if it cannot be.
   * `written`: the task was given the block's place, so a block that fits it is there already.
   */
  take(flat: number, value: Chunk, written = false): boolean {
    if (this.error !== undefined) return false;
    const idx = unravel(flat, this.grid);
    if (!(value instanceof NDArray)) {
      this.error = new ShapeError(
        `compute: block (${idx}) of ${this.name} is a tuple, not an array`,
      );
      return false;
    }
    const place = this.place(flat);
    const want = place.shape;
    if (value.shape.length !== want.length || value.shape.some((n, ax) => n !== want[ax])) {
      this.error = new ShapeError(
        `compute: block (${idx}) of ${this.name} has shape [${value.shape}], its chunks say [${want}]`,
      );
      return false;
    }
    if (!written || !fitsPlace(place, value)) writeRegion(this.result, value, place.at);
    return true;
  }
}
