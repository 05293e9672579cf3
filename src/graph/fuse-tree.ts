// Coarsening of wide reduction trees: when a reduction has thousands of per-block partial
// tasks, each first-level combine task computes its own partials (one task instead of one
// per block plus the combine), so per-task overhead stops dominating small blocks; while
// such coarse tasks are still many and small, the next combine level absorbs them in turn.
// The partials and the combines run exactly as before, in the same order: results are
// unchanged.

import { itemsize } from '../array/dtype.ts';
import type { EwReduceParams } from '../backends/cpu-js/elementwise/ew-reduce.ts';
import {
  packPartials,
  type ReduceViewsParams,
  type ReduceViewsShared,
} from '../backends/cpu-js/elementwise/ew-reduce-views.ts';
import type { FusedParams } from '../backends/cpu-js/registry.ts';
import { fusesInto } from '../kernels/types.ts';
import { defineLayer } from './define-layer.ts';
import { joinBackends } from './join-backends.ts';
import { type BlockRef, gridOf, type Layer, type TaskSpec } from './layer.ts';
import { layerGraph, sortedLayers } from './layer-graph.ts';

/** Partial layers with at least this many blocks are absorbed into their combine layer. */
export const MIN_PARTIALS = 1024;

/** Coarse layers with at least this many tasks are absorbed again when their tasks are small. */
export const MIN_COARSE = 512;

/** A coarse task reading fewer bytes than this (on average) is small: mostly overhead. */
const SMALL_TASK_BYTES = 4 * 2 ** 20;

/** Coarse layers with at most this many tasks hand their specs from materialize to dispatch. */
const MAX_HELD_SPECS = 4096;

const blockCount = (l: Layer): number => gridOf(l).reduce((a, b) => a * b, 1);

function sameBlock(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Index of block `ref` in `inputs`, appending it when new. */
function inputOf(inputs: BlockRef[], ref: BlockRef): number {
  for (let j = 0; j < inputs.length; j++) {
    const r = inputs[j]!;
    if (r[0] === ref[0] && sameBlock(r[1], ref[1])) return j;
  }
  return inputs.push(ref) - 1;
}

/**
 * The combine task of block `b` with the tasks of its partials inlined as steps. Its inputs
 * are `seed` first (in that order), then any other block the partials read.
 */
function coarseTask(
  combine: Layer,
  partials: Layer,
  b: readonly number[],
  cache: SharedCache,
  eagerTasks: EagerTasks,
  seed: readonly BlockRef[] = [],
): TaskSpec {
  const spec = combine.task(b);
  const inputs: BlockRef[] = [...seed];
  const steps: FusedParams['steps'][number][] = [];
  let mainThread = spec.mainThread === true;
  const eager = eagerTasks.get(partials);
  for (let i = 0; i < spec.inputs.length; i++) {
    const pb = spec.inputs[i]![1];
    const p = eager === undefined ? partials.task(pb) : eager(pb);
    mainThread ||= p.mainThread === true;
    const refs = new Array<number>(p.inputs.length);
    for (let k = 0; k < refs.length; k++) refs[k] = inputOf(inputs, p.inputs[k]!);
    steps.push({ kernel: p.kernel, params: p.params, inputs: refs });
  }
  const packed =
    mainThread || !fusesInto(combine.backend, 'ew-reduce-views')
      ? undefined
      : packedViews(steps, spec.params, cache);
  if (packed !== undefined) return { kernel: 'ew-reduce-views', params: packed, inputs };
  steps.push({ kernel: spec.kernel, params: spec.params, inputs: steps.map((_, k) => -k - 1) });
  const params: FusedParams = { steps };
  return { kernel: 'fused', params, inputs, ...(mainThread ? { mainThread: true } : {}) };
}

/**
 * Each coarse layer's task builder without laziness or hand-over: what a combine layer that
 * absorbs the coarse layer in turn calls (once per block, its spec needed at once).
 */
type EagerTasks = Map<Layer, (b: readonly number[]) => TaskSpec>;

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

/**
 * The inputs of every coarse task when each dep of `partials` has a single block: a fusable
 * task reads one block of each dep, so each task reads exactly these. Else undefined.
 */
function singleBlockInputs(partials: Layer): BlockRef[] | undefined {
  if (!partials.deps.every((d) => gridOf(d).every((n) => n === 1))) return undefined;
  return partials.deps.map((d, i) => [i, d.chunks.map(() => 0)] as const);
}

/**
 * A spec whose inputs are known up front and whose kernel and params are built on first
 * read: materializing reads only the inputs, so the partials' specs are built at dispatch,
 * while the workers run the tasks dispatched before.
 */
function lazySpec(inputs: readonly BlockRef[], build: () => TaskSpec): TaskSpec {
  let spec: TaskSpec | undefined;
  const built = (): TaskSpec => {
    if (spec !== undefined) return spec;
    spec = build();
    if (spec.inputs.length !== inputs.length) {
      throw new Error(
        `absorbPartials: a coarse task reads ${spec.inputs.length} blocks, not ${inputs.length}`,
      );
    }
    return spec;
  };
  return {
    inputs,
    get kernel() {
      return built().kernel;
    },
    get params() {
      return built().params;
    },
    get mainThread() {
      return built().mainThread;
    },
  };
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
    ...(layer.backend ? { backend: layer.backend } : {}),
    ...(layer.device ? { device: layer.device } : {}),
  });
}

/** Bytes of the one block of each dep of `l`, or undefined when a size is unknown. */
function singleBlockBytes(l: Layer): number | undefined {
  let total = 0;
  for (const d of l.deps) {
    let n = itemsize(d.dtype);
    for (const c of d.chunks) n *= c[0] ?? Number.NaN;
    total += n;
  }
  return Number.isFinite(total) ? total : undefined;
}

/**
 * Whether `partials` is worth absorbing into its combine layer: a fusable layer of at least
 * MIN_PARTIALS blocks, or a coarse layer of at least MIN_COARSE small tasks reading blocks
 * of single-block sources (data in memory: many tasks there means small ones).
 */
function wide(partials: Layer): boolean {
  const n = blockCount(partials);
  if (partials.fusable) return n >= MIN_PARTIALS;
  if (partials.meta?.absorbed === undefined || n < MIN_COARSE) return false;
  if (singleBlockInputs(partials) === undefined) return false;
  const bytes = singleBlockBytes(partials);
  return bytes !== undefined && bytes / n < SMALL_TASK_BYTES;
}

/** `layer` rewritten to run its partials itself, or undefined when it does not qualify. */
function absorb(
  layer: Layer,
  consumers: number,
  outputs: ReadonlySet<string>,
  eagerTasks: EagerTasks,
): Layer | undefined {
  const partials = layer.deps[0];
  if (layer.deps.length !== 1 || partials === undefined || !wide(partials)) return undefined;
  if (partials.constant || consumers !== 1 || outputs.has(partials.name)) return undefined;
  if (joinBackends(partials.backend, layer.backend) === false) return undefined;
  const probe = layer.task(layer.chunks.map(() => 0));
  if (probe.kernel !== 'reduce-combine' || probe.inputs.some(([d]) => d !== 0)) return undefined;
  const cache: SharedCache = {};
  const known = singleBlockInputs(partials);
  const eager = (b: readonly number[]): TaskSpec =>
    coarseTask(layer, partials, b, cache, eagerTasks, known);
  const build =
    known === undefined ? eager : (b: readonly number[]) => lazySpec(known, () => eager(b));
  const task = blockCount(layer) > MAX_HELD_SPECS ? build : handOver(gridOf(layer), build);
  const coarse = coarseLayer(layer, partials, task);
  eagerTasks.set(coarse, eager);
  return coarse;
}

/**
 * `build` for a layer of `grid`, where materializing asks each block's task once for its
 * inputs and dispatch asks once more: the spec built for the first ask is handed to the
 * next one (then forgotten). Only for small layers: every spec is held until dispatch.
 */
function handOver(
  grid: readonly number[],
  build: (b: readonly number[]) => TaskSpec,
): (b: readonly number[]) => TaskSpec {
  const built = new Map<number, TaskSpec>();
  return (b) => {
    let flat = 0;
    for (let ax = 0; ax < grid.length; ax++) flat = flat * grid[ax]! + b[ax]!;
    const spec = built.get(flat);
    if (spec !== undefined) {
      built.delete(flat);
      return spec;
    }
    const fresh = build(b);
    built.set(flat, fresh);
    return fresh;
  };
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
  const eagerTasks: EagerTasks = new Map();
  for (const layer of sortedLayers(g)) {
    // deps first: a combine layer may absorb a coarse layer made just before
    const deps = layer.deps.map((d) => done.get(d.name) ?? d);
    const changed = deps.some((d, i) => d !== layer.deps[i]);
    const current = changed ? Object.freeze({ ...layer, deps }) : layer;
    const dep = layer.deps[0];
    const coarse =
      dep === undefined ? undefined : absorb(current, g.outDegree(dep.name), names, eagerTasks);
    done.set(layer.name, coarse ?? current);
  }
  return outputs.map((l) => done.get(l.name)!);
}
