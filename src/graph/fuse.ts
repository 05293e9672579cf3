// Blockwise fusion: a chain of fusable layers with one consumer each becomes one layer
// whose task runs the chain per block; chains of 'ew' kernels merge into one expression.

import type { EwParams, Expr } from '../backends/cpu-js/elementwise/expr.ts';
import { substituteInputs } from '../backends/cpu-js/elementwise/expr.ts';
import type { FusedParams } from '../backends/cpu-js/registry.ts';
import { fusesInto } from '../kernels/types.ts';
import { absorbPartials } from './fuse-tree.ts';
import { ViewFolder } from './fuse-views.ts';
import { inlineSourceViews } from './inline-sources.ts';
import { joinBackends } from './join-backends.ts';
import { type BackendRef, type BlockRef, gridOf, type Layer, type TaskSpec } from './layer.ts';
import { type LayerGraph, layerGraph, sortedLayers } from './layer-graph.ts';

type Step = {
  kernel: string;
  params: unknown;
  inputs: number[];
  mainThread?: boolean | undefined;
  /** For merged steps: the index of the step they came from. */
  origin?: number;
};

const sameGrid = (a: Layer, b: Layer): boolean => gridOf(a).join() === gridOf(b).join();

/** A layer that can be absorbed into its single consumer. */
function absorbable(g: LayerGraph, layer: Layer, outputs: ReadonlySet<string>): Layer | undefined {
  if (!(layer.fusable || layer.absorbable) || layer.constant || outputs.has(layer.name)) {
    return undefined;
  }
  if (g.outDegree(layer.name) !== 1) return undefined;
  const consumer = g.getNodeAttribute(g.outNeighbors(layer.name)[0]!, 'layer');
  return consumer.fusable && sameGrid(layer, consumer) ? consumer : undefined;
}

/**
 * A source layer (random numbers, …) whose kernel a device backend runs itself joins that
 * backend's group: its blocks are made on the device instead of uploaded.
 */
function sourceOnDevice(
  layer: Layer,
  own: BackendRef | undefined,
  theirs: BackendRef | undefined,
): BackendRef | false {
  if (own !== undefined || theirs?.device !== 'gpu' || layer.deps.length > 0) return false;
  if (layer.chunks.some((c) => c.length === 0)) return false;
  const kernel = layer.task(layer.chunks.map(() => 0)).kernel;
  return theirs.fuses?.includes(kernel) ? theirs : false;
}

/**
 * Fuse blockwise chains. Returns the rewritten output layers (same names, same blocks).
 * `coarsen` (default true) also lets wide reduction trees run their partials inside the
 * first combine level (fuse-tree.ts).
 * @example
 * const [y2] = fuseLayers([x.mul(2).add(1).layer]); // one 'ew' task per block
 */
export function fuseLayers(given: readonly Layer[], opts: { coarsen?: boolean } = {}): Layer[] {
  const outputs = inlineSourceViews(given);
  const g = layerGraph(outputs);
  const outNames = new Set(outputs.map((l) => l.name));
  const absorbedInto = new Map<string, string>();
  // the backend of the group that ends at each layer so far (its own and those absorbed)
  const groupBackend = new Map<string, BackendRef | undefined>();
  for (const layer of sortedLayers(g)) {
    const own = groupBackend.has(layer.name) ? groupBackend.get(layer.name) : layer.backend;
    const consumer = absorbable(g, layer, outNames);
    if (consumer === undefined) continue;
    const theirs = groupBackend.has(consumer.name)
      ? groupBackend.get(consumer.name)
      : consumer.backend;
    const plain = joinBackends(own, theirs);
    const joined = plain === false ? sourceOnDevice(layer, own, theirs) : plain;
    if (joined === false) continue;
    absorbedInto.set(layer.name, consumer.name);
    groupBackend.set(consumer.name, joined);
  }
  const groupRoot = (name: string): string => {
    let n = name;
    for (let next = absorbedInto.get(n); next !== undefined; next = absorbedInto.get(n)) n = next;
    return n;
  };
  const members = new Map<string, Layer[]>();
  for (const layer of sortedLayers(g)) {
    const root = groupRoot(layer.name);
    const list = members.get(root) ?? [];
    list.push(layer);
    members.set(root, list);
  }
  const rewritten = new Map<string, Layer>();
  for (const layer of sortedLayers(g)) {
    if (absorbedInto.has(layer.name)) continue;
    const group = members.get(layer.name)!;
    const mapDep = (d: Layer): Layer => rewritten.get(d.name) ?? d;
    const next =
      group.length === 1
        ? layer.deps.some((d) => rewritten.get(d.name) !== d)
          ? Object.freeze({ ...layer, deps: layer.deps.map(mapDep) })
          : layer
        : fusedLayer(group, mapDep, groupBackend.get(layer.name));
    rewritten.set(layer.name, next);
  }
  const fused = outputs.map((l) => rewritten.get(l.name)!);
  return opts.coarsen === false ? fused : absorbPartials(fused);
}

function fusedLayer(
  group: readonly Layer[],
  mapDep: (d: Layer) => Layer,
  backend: BackendRef | undefined,
): Layer {
  const memberIndex = new Map(group.map((m, i) => [m, i]));
  const external: Layer[] = [];
  const extIndex = new Map<Layer, number>();
  // role of each member's dep: a step (-k - 1) or an external layer (e >= 0)
  const roles = group.map((m) =>
    m.deps.map((d) => {
      const k = memberIndex.get(d);
      if (k !== undefined) return -k - 1;
      let e = extIndex.get(d);
      if (e === undefined) {
        e = external.push(d) - 1;
        extIndex.set(d, e);
      }
      return e;
    }),
  );
  const root = group[group.length - 1]!;
  const fused: FusedGroup = {
    group,
    roles,
    cache: new MergeCache(),
    views: new ViewFolder(),
    foldViews: fusesInto(backend, 'ew-view') && fusesInto(backend, 'ew-reduce'),
  };
  const task = (block: readonly number[]): TaskSpec => fusedTask(fused, block);
  return Object.freeze({
    name: root.name,
    op: group.map((m) => m.op).join('+'),
    deps: external.map(mapDep),
    chunks: root.chunks,
    dtype: root.dtype,
    fusable: root.fusable,
    task,
    meta: { fused: group.length, ops: group.map((m) => m.op).join(' → ') },
    ...(backend ? { backend } : {}),
    ...(root.device ? { device: root.device } : {}),
  });
}

/** What the task of a fused layer needs (see fusedTask). */
interface FusedGroup {
  readonly group: readonly Layer[];
  /** Per member, the role of each of its deps: a step (-k - 1) or an external input (e). */
  readonly roles: readonly (readonly number[])[];
  readonly cache: MergeCache;
  readonly views: ViewFolder;
  /** Views and reductions fold into 'ew-view'/'ew-reduce' (the backend implements them). */
  readonly foldViews: boolean;
}

/**
 * The task of block `block` of a fused layer: one module-level function shared by every
 * graph's fused layers (their task is a one-line closure over `f`), not a closure per graph.
 */
function fusedTask(f: FusedGroup, block: readonly number[]): TaskSpec {
  const inputs: BlockRef[] = [];
  const steps: Step[] = [];
  for (let k = 0; k < f.group.length; k++) {
    const spec = f.group[k]!.task(block);
    const role = f.roles[k]!;
    const refs = new Array<number>(spec.inputs.length);
    for (let i = 0; i < refs.length; i++) {
      const ref = spec.inputs[i]!;
      const r = role[ref[0]]!;
      refs[i] = r < 0 ? r : externalInput(inputs, r, ref[1]);
    }
    steps.push({
      kernel: spec.kernel,
      params: spec.params,
      inputs: refs,
      mainThread: spec.mainThread,
    });
  }
  const merged = f.cache.merge(steps);
  return collapse(f.foldViews ? f.views.fold(merged) : merged, inputs);
}

/** Index of external block (e, blk) in `inputs`, appending it when new. */
function externalInput(inputs: BlockRef[], e: number, blk: readonly number[]): number {
  for (let j = 0; j < inputs.length; j++) {
    const ref = inputs[j]!;
    if (ref[0] === e && sameBlock(ref[1], blk)) return j;
  }
  return inputs.push([e, blk]) - 1;
}

function sameBlock(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Merging elementwise steps depends only on kernels, params and input wiring, which repeat
 * from block to block (layers share one params object across blocks): remember the last.
 */
class MergeCache {
  private key: Step[] | undefined;
  private value: Step[] | undefined;

  merge(steps: Step[]): Step[] {
    const cached = this.value;
    if (this.key === undefined || cached === undefined || !sameWiring(this.key, steps)) {
      this.key = steps;
      this.value = mergeElementwise(steps);
      return this.value;
    }
    // same wiring and 'ew' params; other steps may carry per-block params
    let same = true;
    for (let k = 0; k < steps.length && same; k++) same = steps[k]!.params === this.key[k]!.params;
    if (same) return cached;
    const out = new Array<Step>(cached.length);
    for (let k = 0; k < cached.length; k++) {
      const m = cached[k]!;
      out[k] =
        m.kernel === 'ew'
          ? m
          : {
              kernel: m.kernel,
              params: steps[m.origin!]!.params,
              inputs: m.inputs,
              mainThread: m.mainThread,
              origin: m.origin,
            };
    }
    return out;
  }
}

function sameWiring(a: readonly Step[], b: readonly Step[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) {
    const x = a[k]!;
    const y = b[k]!;
    if (x.kernel !== y.kernel || !sameBlock(x.inputs, y.inputs)) return false;
    if (x.kernel === 'ew' && x.params !== y.params) return false;
  }
  return true;
}

/** A fused task that is a single step over external inputs is that step's task. */
function collapse(steps: Step[], inputs: BlockRef[]): TaskSpec {
  let mainThread = false;
  for (let k = 0; k < steps.length; k++) if (steps[k]!.mainThread) mainThread = true;
  const main = mainThread ? { mainThread: true } : {};
  if (steps.length === 1) {
    const s = steps[0]!;
    const refs = new Array<BlockRef>(s.inputs.length);
    for (let i = 0; i < refs.length; i++) refs[i] = inputs[s.inputs[i]!]!;
    return mainThread
      ? { kernel: s.kernel, params: s.params, inputs: refs, mainThread: true }
      : { kernel: s.kernel, params: s.params, inputs: refs };
  }
  const params: FusedParams = {
    steps: steps.map(({ kernel, params, inputs }) => ({ kernel, params, inputs })),
  };
  return { kernel: 'fused', params, inputs, ...main };
}

/** Inline every 'ew' step used once by another 'ew' step into that step's expression. */
function mergeElementwise(steps: Step[]): Step[] {
  const uses = new Int32Array(steps.length);
  for (const s of steps) for (const i of s.inputs) if (i < 0) uses[-i - 1]!++;
  const dead = new Uint8Array(steps.length);
  const merged: Step[] = steps.map((s, k) => ({ ...s, inputs: [...s.inputs], origin: k }));
  for (let j = 0; j < merged.length; j++) {
    const step = merged[j]!;
    if (step.kernel !== 'ew') continue;
    const p = step.params as EwParams;
    const refs: number[] = [];
    const leaf = (ref: number): Expr => {
      let k = refs.indexOf(ref);
      if (k < 0) k = refs.push(ref) - 1;
      return { in: k };
    };
    const expr = substituteInputs(p.expr, (i) => {
      const ref = step.inputs[i]!;
      const k = ref < 0 ? -ref - 1 : -1;
      const src = k >= 0 ? merged[k]! : undefined;
      if (src?.kernel !== 'ew' || uses[k]! !== 1) return leaf(ref);
      dead[k] = 1;
      return substituteInputs((src.params as EwParams).expr, (i2) => leaf(src.inputs[i2]!));
    });
    merged[j] = {
      kernel: 'ew',
      params: { expr, dtype: p.dtype } satisfies EwParams,
      inputs: refs,
      origin: j,
    };
  }
  // drop dead steps and renumber step references
  const newIndex = new Int32Array(merged.length).fill(-1);
  const out: Step[] = [];
  merged.forEach((s, k) => {
    if (!dead[k]) newIndex[k] = out.push(s) - 1;
  });
  for (const s of out) s.inputs = s.inputs.map((i) => (i < 0 ? -newIndex[-i - 1]! - 1 : i));
  return out;
}
