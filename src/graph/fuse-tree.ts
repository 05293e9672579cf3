// Coarsening of wide reduction trees: when a reduction has thousands of per-block partial
// tasks, each first-level combine task computes its own partials (one task instead of one
// per block plus the combine), so per-task overhead stops dominating small blocks. The
// partials and the combine run exactly as before, in the same order: results are unchanged.

import type { FusedParams } from '../kernels/builtins.ts';
import type { EwReduceParams } from '../kernels/cpu/ew-reduce.ts';
import {
  packPartials,
  type ReduceViewsParams,
  type ReduceViewsShared,
} from '../kernels/cpu/ew-reduce-views.ts';
import { defineLayer } from './define-layer.ts';
import { type BlockRef, gridOf, type Layer, type TaskSpec } from './layer.ts';
import { layerGraph, sortedLayers } from './layer-graph.ts';

/** Partial layers with at least this many blocks are absorbed into their combine layer. */
export const MIN_PARTIALS = 1024;

/** Coarse layers with at most this many tasks hand their specs from materialize to dispatch. */
const MAX_HELD_SPECS = 4096;

const blockCount = (l: Layer): number => gridOf(l).reduce((a, b) => a * b, 1);

function sameBlock(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The combine task of block `b` with the tasks of its partials inlined as steps. */
function coarseTask(
  combine: Layer,
  partials: Layer,
  b: readonly number[],
  cache: SharedCache,
): TaskSpec {
  const spec = combine.task(b);
  const inputs: BlockRef[] = [];
  const steps: FusedParams['steps'][number][] = [];
  let mainThread = spec.mainThread === true;
  const inputOf = (ref: BlockRef): number => {
    for (let j = 0; j < inputs.length; j++) {
      const [d, blk] = inputs[j]!;
      if (d === ref[0] && sameBlock(blk, ref[1])) return j;
    }
    return inputs.push(ref) - 1;
  };
  for (const [, pb] of spec.inputs) {
    const p = partials.task(pb);
    mainThread ||= p.mainThread === true;
    steps.push({ kernel: p.kernel, params: p.params, inputs: p.inputs.map(inputOf) });
  }
  const packed = mainThread ? undefined : packedViews(steps, spec.params, cache);
  if (packed !== undefined) return { kernel: 'ew-reduce-views', params: packed, inputs };
  steps.push({ kernel: spec.kernel, params: spec.params, inputs: steps.map((_, k) => -k - 1) });
  const params: FusedParams = { steps };
  return { kernel: 'fused', params, inputs, ...(mainThread ? { mainThread: true } : {}) };
}

/** The shared parts of a layer's last packed task, reused while they stay the same: one
 * object per batch on the wire (structured clone keeps identity), not one per task. */
interface SharedCache {
  shared?: ReduceViewsShared;
}

/** `steps`, all 'ew-reduce' over views, packed with their combine; else undefined. */
function packedViews(
  steps: readonly FusedParams['steps'][number][],
  combine: unknown,
  cache: SharedCache,
): ReduceViewsParams | undefined {
  if (steps.length === 0 || steps.some((s) => s.kernel !== 'ew-reduce')) return undefined;
  const first = steps[0]!.params as EwReduceParams;
  let shared = cache.shared;
  if (
    shared === undefined ||
    shared.expr !== first.expr ||
    shared.reduce !== first.reduce ||
    shared.dtype !== first.dtype ||
    shared.combine !== combine ||
    shared.arity !== first.views.length
  ) {
    shared = {
      expr: first.expr,
      ...(first.dtype === undefined ? {} : { dtype: first.dtype }),
      reduce: first.reduce,
      arity: first.views.length,
      combine,
    };
    cache.shared = shared;
  }
  return packPartials(
    steps.map((s) => ({ params: s.params as EwReduceParams, inputs: s.inputs })),
    shared,
  );
}

/** The combine layer rewritten to run its partials itself through `task`. */
function coarseLayer(
  layer: Layer,
  partials: Layer,
  task: (b: readonly number[]) => TaskSpec,
): Layer {
  return defineLayer({
    op: `${partials.op}+${layer.op}`,
    name: layer.name,
    deps: partials.deps,
    chunks: layer.chunks,
    dtype: layer.dtype,
    meta: { ...layer.meta, absorbed: partials.op },
    task,
  });
}

/** `layer` rewritten to run its partials itself, or undefined when it does not qualify. */
function absorb(layer: Layer, consumers: number, outputs: ReadonlySet<string>): Layer | undefined {
  const partials = layer.deps[0];
  if (layer.deps.length !== 1 || partials === undefined || !partials.fusable) return undefined;
  if (partials.constant || consumers !== 1 || outputs.has(partials.name)) return undefined;
  if (blockCount(partials) < MIN_PARTIALS) return undefined;
  const probe = layer.task(layer.chunks.map(() => 0));
  if (probe.kernel !== 'reduce-combine' || probe.inputs.some(([d]) => d !== 0)) return undefined;
  const cache: SharedCache = {};
  if (blockCount(layer) > MAX_HELD_SPECS) {
    return coarseLayer(layer, partials, (b) => coarseTask(layer, partials, b, cache));
  }
  // Materializing asks each block's task once for its inputs and dispatch asks once more:
  // the spec built for the first ask is handed to the next one (then forgotten). Only for
  // small layers: every spec is held from materializing until dispatch.
  const built = new Map<number, TaskSpec>();
  const grid = layer.chunks.map((c) => c.length);
  const task = (b: readonly number[]): TaskSpec => {
    let flat = 0;
    for (let ax = 0; ax < grid.length; ax++) flat = flat * grid[ax]! + b[ax]!;
    const spec = built.get(flat);
    if (spec !== undefined) {
      built.delete(flat);
      return spec;
    }
    const fresh = coarseTask(layer, partials, b, cache);
    built.set(flat, fresh);
    return fresh;
  };
  return coarseLayer(layer, partials, task);
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
