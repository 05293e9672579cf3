// The default kernel registry: every built-in kernel by name, importable by worker threads.
// Kernel modules register here; nothing in this file may import array/ or apply/ code.

import { ShapeError, TaskError } from '../../errors.ts';
import { npyKernels } from '../../io/npy-read.ts';
import { npyWriteKernels } from '../../io/npy-write.ts';
import { zarrKernels } from '../../io/zarr-io.ts';
import { arrayBlock } from '../../kernels/array-block.ts';
import { kernelLabel, markOwnRegistry } from '../../kernels/run-task.ts';
import type { AsyncKernel, Chunk, Kernel, KernelRegistry } from '../../kernels/types.ts';
import { applyKernels } from './apply/apply.ts';
import { blockwiseKernels } from './apply/blockwise.ts';
import { elementwiseKernels } from './elementwise/elementwise.ts';
import { ewReduceKernels } from './elementwise/ew-reduce.ts';
import { viewKernels } from './elementwise/ew-view.ts';
import { fftKernels } from './fft/fft-axis.ts';
import { complexViewKernels } from './layout/complex-view.ts';
import { compressKernels } from './layout/compress.ts';
import { gatherKernels } from './layout/gather.ts';
import { layoutKernels } from './layout/layout.ts';
import { overlapKernels } from './layout/overlap.ts';
import { type StridedSelection, sliceND } from './layout/slice.ts';
import { sortKernels } from './layout/sort.ts';
import { takeAlongKernels } from './layout/take-along.ts';
import { takeIndexedKernels } from './layout/take-indexed.ts';
import { linalgKernels } from './linalg/batched.ts';
import { einsumKernels } from './linalg/einsum.ts';
import { matmulKernels } from './linalg/matmul.ts';
import { allNaNCheckKernels } from './reduce/all-nan-check.ts';
import { coarsenKernels } from './reduce/coarsen.ts';
import { histogramKernels } from './reduce/histogram.ts';
import { quantileKernels } from './reduce/quantile.ts';
import { quantileSketchKernels } from './reduce/quantile-sketch.ts';
import { reduceKernels } from './reduce/reduce.ts';
import { scanKernels } from './reduce/scan.ts';
import { topkKernels } from './reduce/topk.ts';
import { uniqueKernels } from './reduce/unique.ts';
import { creationKernels } from './source/creation.ts';
import { randomKernels } from './source/random.ts';
import { sourceCountPartial } from './source/source-count.ts';
import { sourceReducePartial } from './source/source-reduce.ts';
import { correlateKernels } from './stencil/correlate.ts';
import { differenceKernels } from './stencil/difference.ts';
import { windowKernels } from './stencil/window.ts';
import { stencilKernels } from './stencil/zoom.ts';
import { widenKernels } from './widen.ts';

/** The default registry of built-in kernels. */
export const builtinKernels: KernelRegistry = new Map();
markOwnRegistry(builtinKernels);

/** Add kernels to a registry (the default one unless given). */
export function registerKernels(
  kernels: Record<string, Kernel<never> | AsyncKernel<never>>,
  registry: KernelRegistry = builtinKernels,
): void {
  for (const [name, k] of Object.entries(kernels)) registry.set(name, k);
}

registerKernels({
  /** Strided selection of the one input block. */
  slice: ((inputs: Chunk[], p: StridedSelection) =>
    sliceND(arrayBlock(inputs[0]!, 'kernel'), p)) as Kernel<never>,
  /** A block moved between devices: on the host itself (the device router moves GPU blocks). */
  'to-device': ((inputs: Chunk[]) => inputs[0]!) as Kernel<never>,
  /** Element `index` of a tuple block. */
  pick: ((inputs: Chunk[], p: { index: number }) =>
    (inputs[0] as Chunk[])[p.index]!) as Kernel<never>,
});

/** Params of the 'fused' kernel: steps run in order; the last step's value is the result.
 * A step input `i >= 0` is the task's input i; `i < 0` is the value of step `-i - 1`. */
export interface FusedParams {
  readonly steps: readonly { kernel: string; params: unknown; inputs: readonly number[] }[];
}

registerKernels({
  fused: ((inputs: Chunk[], p: FusedParams, ctx) => {
    // sources reduced as they are generated, tile by tile (same values as the steps)
    // (only on cpu-js: another backend's steps run its own kernels)
    const reduced =
      ctx.backend === undefined
        ? (sourceReducePartial(p.steps) ?? sourceCountPartial(p.steps))
        : undefined;
    if (reduced !== undefined) return reduced;
    const values: Chunk[] = [];
    for (const step of p.steps) {
      const args = step.inputs.map((i) => (i >= 0 ? inputs[i]! : values[-i - 1]!));
      try {
        values.push(ctx.run(step.kernel, args, step.params));
      } catch (e) {
        // name the step that failed, not 'fused'
        const own = e instanceof TaskError || (e instanceof ShapeError && e.key === ctx.key);
        throw own ? e : new TaskError(ctx.key, kernelLabel(step), e);
      }
    }
    return values[values.length - 1]!;
  }) as Kernel<never>,
});

registerKernels(gatherKernels);
registerKernels(compressKernels);
registerKernels(takeIndexedKernels);
registerKernels(layoutKernels);
registerKernels(complexViewKernels);
registerKernels(sortKernels);
registerKernels(takeAlongKernels);
registerKernels(uniqueKernels);
registerKernels(reduceKernels);
registerKernels(allNaNCheckKernels);
registerKernels(quantileKernels);
registerKernels(quantileSketchKernels);
registerKernels(scanKernels);
registerKernels(blockwiseKernels);
registerKernels(matmulKernels);
registerKernels(npyKernels);
registerKernels(npyWriteKernels);
registerKernels(zarrKernels);
registerKernels(einsumKernels);
registerKernels(elementwiseKernels);
registerKernels(creationKernels);
registerKernels(randomKernels);
registerKernels(applyKernels);
registerKernels(viewKernels);
registerKernels(ewReduceKernels);
registerKernels(stencilKernels);
registerKernels(overlapKernels);
registerKernels(differenceKernels);
registerKernels(correlateKernels);
registerKernels(linalgKernels);
registerKernels(fftKernels);
registerKernels(windowKernels);
registerKernels(coarsenKernels);
registerKernels(histogramKernels);
registerKernels(topkKernels);
widenKernels(builtinKernels);
