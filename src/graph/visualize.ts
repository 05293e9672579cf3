// DOT text of the operation graph (ts-graphviz): one node per layer with its op, shape,
// block grid and dtype; edges point from inputs to consumers.

import { Digraph, Edge, Node, toDot } from 'ts-graphviz';
import type { Layer } from './layer.ts';
import { layerGraph } from './layer-graph.ts';

const shapeText = (layer: Layer): string =>
  layer.chunks
    .map((c) => (c.some((v) => v === null) ? '?' : String(c.reduce((a, b) => a! + b!, 0))))
    .join('×');

/**
 * The graph of `outputs` as Graphviz DOT text (render with `dot -Tsvg`).
 * @example
 * const dot = layersToDot([x.add(1).sum().layer]);
 * dot.startsWith('digraph'); // true
 */
export function layersToDot(outputs: readonly Layer[]): string {
  const g = layerGraph(outputs);
  const dot = new Digraph('tessera', { rankdir: 'BT' });
  const nodes = new Map<string, Node>();
  g.forEachNode((name, { layer }) => {
    const where = layer.backend
      ? `\n${layer.backend.name}${layer.device ? ` on ${layer.device}` : ''}`
      : '';
    const label = `${layer.op}\n(${shapeText(layer)}) ${layer.dtype}\nblocks ${layer.chunks.map((c) => c.length).join('×')}${where}`;
    const node = new Node(name, {
      label,
      shape: layer.constant ? 'box' : 'ellipse',
      tooltip: name,
    });
    nodes.set(name, node);
    dot.addNode(node);
  });
  g.forEachEdge((_e, _a, source, target) => {
    dot.addEdge(new Edge([nodes.get(source)!, nodes.get(target)!]));
  });
  return toDot(dot);
}
