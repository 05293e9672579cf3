// Blockwise fusion: a chain of fusable layers with one consumer each becomes one layer
// whose task runs the chain per block; chains of 'ew' kernels merge into one expression.

import type { FusedParams } from '../kernels/builtins.ts';
import type { EwParams, Expr } from '../kernels/cpu/expr.ts';
import { substituteInputs } from '../kernels/cpu/expr.ts';
import { type BlockRef, gridOf, type Layer, type TaskSpec } from './layer.ts';
import { type LayerGraph, layerGraph, sortedLayers } from './layer-graph.ts';

type Step = { kernel: string; params: unknown; inputs: number[]; mainThread?: boolean };

const sameGrid = (a: Layer, b: Layer): boolean => gridOf(a).join() === gridOf(b).join();

/** A layer that can be absorbed into its single consumer. */
function absorbable(g: LayerGraph, layer: Layer, outputs: ReadonlySet<string>): Layer | undefined {
  if (!layer.fusable || layer.constant || outputs.has(layer.name)) return undefined;
  if (g.outDegree(layer.name) !== 1) return undefined;
  const consumer = g.getNodeAttribute(g.outNeighbors(layer.name)[0]!, 'layer');
  return consumer.fusable && sameGrid(layer, consumer) ? consumer : undefined;
}

/**
 * Fuse blockwise chains. Returns the rewritten output layers (same names, same blocks).
 * @example
 * const [y2] = fuseLayers([x.mul(2).add(1).layer]); // one 'ew' task per block
 */
export function fuseLayers(outputs: readonly Layer[]): Layer[] {
  const g = layerGraph(outputs);
  const outNames = new Set(outputs.map((l) => l.name));
  const absorbedInto = new Map<string, string>();
  for (const layer of sortedLayers(g)) {
    const consumer = absorbable(g, layer, outNames);
    if (consumer) absorbedInto.set(layer.name, consumer.name);
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
        : fusedLayer(group, mapDep);
    rewritten.set(layer.name, next);
  }
  return outputs.map((l) => rewritten.get(l.name)!);
}

function fusedLayer(group: readonly Layer[], mapDep: (d: Layer) => Layer): Layer {
  const memberSet = new Set(group);
  const external: Layer[] = [];
  const extIndex = new Map<Layer, number>();
  for (const m of group) {
    for (const d of m.deps) {
      if (memberSet.has(d) || extIndex.has(d)) continue;
      extIndex.set(d, external.length);
      external.push(d);
    }
  }
  const root = group[group.length - 1]!;
  const task = (block: readonly number[]): TaskSpec => {
    const inputs: BlockRef[] = [];
    const inputIds = new Map<string, number>();
    const stepOf = new Map<Layer, number>();
    const steps: Step[] = [];
    for (const m of group) {
      const spec = m.task(block);
      const refs = spec.inputs.map(([dep, blk]) => {
        const d = m.deps[dep]!;
        const s = stepOf.get(d);
        if (s !== undefined) return -s - 1;
        const key = `${extIndex.get(d)}|${blk.join(',')}`;
        let id = inputIds.get(key);
        if (id === undefined) {
          id = inputs.length;
          inputIds.set(key, id);
          inputs.push([extIndex.get(d)!, blk]);
        }
        return id;
      });
      stepOf.set(m, steps.length);
      steps.push({
        kernel: spec.kernel,
        params: spec.params,
        inputs: refs,
        ...(spec.mainThread ? { mainThread: true } : {}),
      });
    }
    return collapse(mergeElementwise(steps), inputs);
  };
  return Object.freeze({
    name: root.name,
    op: group.map((m) => m.op).join('+'),
    deps: external.map(mapDep),
    chunks: root.chunks,
    dtype: root.dtype,
    fusable: root.fusable,
    task,
    meta: { fused: group.length, ops: group.map((m) => m.op).join(' → ') },
  });
}

/** A fused task that is a single step over external inputs is that step's task. */
function collapse(steps: Step[], inputs: BlockRef[]): TaskSpec {
  const main = steps.some((s) => s.mainThread) ? { mainThread: true } : {};
  if (steps.length === 1) {
    const [s] = steps;
    return {
      kernel: s!.kernel,
      params: s!.params,
      inputs: s!.inputs.map((i) => inputs[i]!),
      ...main,
    };
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
  const merged: Step[] = steps.map((s) => ({ ...s, inputs: [...s.inputs] }));
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
    merged[j] = { kernel: 'ew', params: { expr, dtype: p.dtype } satisfies EwParams, inputs: refs };
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
