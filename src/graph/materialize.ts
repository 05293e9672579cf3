// Materialize layers into a flat task table: only the blocks the outputs need (culling),
// stored in typed arrays (CSR dependencies), because a million tasks must stay cheap.

import type { Layer } from './layer.ts';

/**
 * The flat task table. Task `t` computes block `blockOf[t]` (flat, C order) of layer
 * `layers[layerOf[t]]`; its inputs are `deps[depStart[t] .. depStart[t] + depCount[t]]`,
 * in the order the kernel receives them. Constant tasks (source blocks) have no deps.
 */
export interface TaskTable {
  readonly layers: readonly Layer[];
  readonly count: number;
  readonly layerOf: Int32Array;
  readonly blockOf: Int32Array;
  readonly depStart: Int32Array;
  readonly depCount: Int32Array;
  readonly deps: Int32Array;
  /** 1 when the task is a source block given by `layer.constant`. */
  readonly isConstant: Uint8Array;
  /** Per output layer, its task ids in C order of its blocks. */
  readonly outputs: readonly Int32Array[];
}

/** Block multi-index of flat index `flat` in a grid. */
export function unravel(flat: number, grid: readonly number[]): number[] {
  const out = new Array<number>(grid.length);
  for (let ax = grid.length - 1; ax >= 0; ax--) {
    const g = grid[ax]!;
    out[ax] = flat % g;
    flat = Math.floor(flat / g);
  }
  return out;
}

/** Flat index of block multi-index `block` in a grid. */
export function ravel(block: readonly number[], grid: readonly number[]): number {
  let flat = 0;
  for (let ax = 0; ax < grid.length; ax++) flat = flat * grid[ax]! + block[ax]!;
  return flat;
}

class IntBuffer {
  data: Int32Array = new Int32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  view(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/**
 * Build the task table of `outputs`: every block of each output layer and, transitively,
 * only the blocks of other layers those need.
 * @example
 * const table = materializeTasks([x.mul(2).sum().layer]);
 * table.count; // tasks that will run (plus source blocks)
 */
export function materializeTasks(outputs: readonly Layer[]): TaskTable {
  const layerIds = new Map<Layer, number>();
  const layers: Layer[] = [];
  const grids: number[][] = [];
  const taskIdOf: Int32Array[] = [];
  const layerOf = new IntBuffer();
  const blockOf = new IntBuffer();
  const stack: number[] = [];

  const layerId = (layer: Layer): number => {
    let id = layerIds.get(layer);
    if (id === undefined) {
      id = layers.length;
      layerIds.set(layer, id);
      layers.push(layer);
      const grid = layer.chunks.map((c) => c.length);
      grids.push(grid);
      taskIdOf.push(new Int32Array(grid.reduce((a, b) => a * b, 1)).fill(-1));
    }
    return id;
  };
  const taskOf = (lid: number, flat: number): number => {
    const ids = taskIdOf[lid]!;
    let t = ids[flat]!;
    if (t < 0) {
      t = layerOf.length;
      ids[flat] = t;
      layerOf.push(lid);
      blockOf.push(flat);
      stack.push(t);
    }
    return t;
  };

  const outputIds = outputs.map((layer) => {
    const lid = layerId(layer);
    const n = taskIdOf[lid]!.length;
    const ids = new Int32Array(n);
    for (let b = 0; b < n; b++) ids[b] = taskOf(lid, b);
    return ids;
  });

  // Tasks are processed in discovery order; deps are appended as each is processed.
  let depStart: Int32Array = new Int32Array(1024);
  let depCount: Int32Array = new Int32Array(1024);
  let isConstant: Uint8Array = new Uint8Array(1024);
  const deps = new IntBuffer();
  for (let t = 0; t < layerOf.length; t++) {
    if (t === depStart.length) {
      depStart = grow(depStart);
      depCount = grow(depCount);
      isConstant = growU8(isConstant);
    }
    const lid = layerOf.data[t]!;
    const layer = layers[lid]!;
    depStart[t] = deps.length;
    if (layer.constant) {
      isConstant[t] = 1;
      continue;
    }
    const spec = layer.task(unravel(blockOf.data[t]!, grids[lid]!));
    for (const [dep, block] of spec.inputs) {
      const dl = layer.deps[dep];
      if (dl === undefined)
        throw new Error(`materializeTasks: layer ${layer.name} has no dep ${dep}`);
      const did = layerId(dl);
      deps.push(taskOf(did, ravel(block, grids[did]!)));
    }
    depCount[t] = deps.length - depStart[t]!;
  }
  const count = layerOf.length;
  return {
    layers,
    count,
    layerOf: layerOf.view(),
    blockOf: blockOf.view(),
    depStart: depStart.slice(0, count),
    depCount: depCount.slice(0, count),
    deps: deps.view(),
    isConstant: isConstant.slice(0, count),
    outputs: outputIds,
  };
}

function grow(a: Int32Array): Int32Array {
  const next = new Int32Array(a.length * 2);
  next.set(a);
  return next;
}

function growU8(a: Uint8Array): Uint8Array {
  const next = new Uint8Array(a.length * 2);
  next.set(a);
  return next;
}

/** Key of task `t`: `layerName:(i,j,…)`. */
export function taskKey(table: TaskTable, t: number): string {
  const lid = table.layerOf[t]!;
  const layer = table.layers[lid]!;
  const grid = layer.chunks.map((c) => c.length);
  return `${layer.name}:(${unravel(table.blockOf[t]!, grid).join(',')})`;
}

/** Number of tasks that run (source blocks excluded). */
export function runnableCount(table: TaskTable): number {
  let n = 0;
  for (let t = 0; t < table.count; t++) if (!table.isConstant[t]) n++;
  return n;
}
