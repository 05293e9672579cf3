// The operation graph in graphology: one node per layer (attribute `layer`), one edge
// per dependency (dep → consumer). Small and rich: inspected, fused and drawn here.

import { DirectedGraph } from 'graphology';
import { topologicalSort } from 'graphology-dag';
import type { Layer } from './layer.ts';

export interface LayerAttributes {
  layer: Layer;
}

export type LayerGraph = DirectedGraph<LayerAttributes>;

/**
 * The graph of every layer the outputs depend on.
 * @example
 * const g = layerGraph([y.layer]);
 * g.order; // number of operations
 */
export function layerGraph(outputs: readonly Layer[]): LayerGraph {
  const g: LayerGraph = new DirectedGraph<LayerAttributes>();
  const stack = [...outputs];
  while (stack.length > 0) {
    const layer = stack.pop()!;
    if (g.hasNode(layer.name)) continue;
    g.addNode(layer.name, { layer });
    for (const d of layer.deps) stack.push(d);
  }
  g.forEachNode((name, { layer }) => {
    for (const d of layer.deps) if (!g.hasEdge(d.name, name)) g.addEdge(d.name, name);
  });
  return g;
}

/** Layers in dependency order (inputs first). */
export function sortedLayers(g: LayerGraph): Layer[] {
  return topologicalSort(g).map((name) => g.getNodeAttribute(name, 'layer'));
}
