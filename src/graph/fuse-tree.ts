// Coarsening of wide reduction trees: when a reduction has thousands of per-block partial
// tasks, each first-level combine task computes its own partials (one task instead of one
// per block plus the combine), so per-task overhead stops dominating small blocks. The
// partials and the combine run exactly as before, in the same order: results are unchanged.

import type { FusedParams } from '../kernels/builtins.ts';
import { defineLayer } from './define-layer.ts';
import { type BlockRef, gridOf, type Layer, type TaskSpec } from './layer.ts';
import { layerGraph, sortedLayers } from './layer-graph.ts';

/** Partial layers with at least this many blocks are absorbed into their combine layer. */
export const MIN_PARTIALS = 1024;

const blockCount = (l: Layer): number => gridOf(l).reduce((a, b) => a * b, 1);

/** The combine task of block `b` with the tasks of its partials inlined as steps. */
function coarseTask(combine: Layer, partials: Layer, b: readonly number[]): TaskSpec {
  const spec = combine.task(b);
  const inputs: BlockRef[] = [];
  const steps: FusedParams['steps'][number][] = [];
  let mainThread = spec.mainThread === true;
  const inputOf = (ref: BlockRef): number => {
    const at = inputs.findIndex(([d, blk]) => d === ref[0] && blk.join() === ref[1].join());
    return at >= 0 ? at : inputs.push(ref) - 1;
  };
  for (const [, pb] of spec.inputs) {
    const p = partials.task(pb);
    mainThread ||= p.mainThread === true;
    steps.push({ kernel: p.kernel, params: p.params, inputs: p.inputs.map(inputOf) });
  }
  steps.push({ kernel: spec.kernel, params: spec.params, inputs: steps.map((_, k) => -k - 1) });
  const params: FusedParams = { steps };
  return { kernel: 'fused', params, inputs, ...(mainThread ? { mainThread: true } : {}) };
}

/** `layer` rewritten to run its partials itself, or undefined when it does not qualify. */
function absorb(layer: Layer, consumers: number, outputs: ReadonlySet<string>): Layer | undefined {
  const partials = layer.deps[0];
  if (layer.deps.length !== 1 || partials === undefined || !partials.fusable) return undefined;
  if (partials.constant || consumers !== 1 || outputs.has(partials.name)) return undefined;
  if (blockCount(partials) < MIN_PARTIALS) return undefined;
  const probe = layer.task(layer.chunks.map(() => 0));
  if (probe.kernel !== 'reduce-combine' || probe.inputs.some(([d]) => d !== 0)) return undefined;
  return defineLayer({
    op: `${partials.op}+${layer.op}`,
    name: layer.name,
    deps: partials.deps,
    chunks: layer.chunks,
    dtype: layer.dtype,
    meta: { ...layer.meta, absorbed: partials.op },
    task: (b) => coarseTask(layer, partials, b),
  });
}

/**
 * Absorb wide partial layers into the combine layers that read them (see the file
 * comment); layer names are unchanged.
 * @example
 * const [y] = absorbPartials(fuseLayers([x.sum().layer])); // 10,000 partials: 625 tasks
 */
export function absorbPartials(outputs: readonly Layer[]): Layer[] {
  const g = layerGraph(outputs);
  const names = new Set(outputs.map((l) => l.name));
  const done = new Map<string, Layer>();
  for (const layer of sortedLayers(g)) {
    const dep = layer.deps[0];
    const coarse = dep === undefined ? undefined : absorb(layer, g.outDegree(dep.name), names);
    const base = coarse ?? layer;
    const deps = base.deps.map((d) => done.get(d.name) ?? d);
    const changed = deps.some((d, i) => d !== base.deps[i]);
    done.set(layer.name, changed ? Object.freeze({ ...base, deps }) : base);
  }
  return outputs.map((l) => done.get(l.name)!);
}
