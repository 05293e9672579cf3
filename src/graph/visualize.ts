// DOT text of the operation graph (ts-graphviz): one node per layer with its op, shape,
// chunks, dtype, device and backend (a fused layer lists its steps); edges point from inputs to consumers.

import { Digraph, Edge, Node, toDot } from 'ts-graphviz';
import type { Layer } from './layer.ts';
import { layerGraph } from './layer-graph.ts';

const shapeText = (layer: Layer): string =>
  layer.chunks
    .map((c) => (c.some((v) => v === null) ? '?' : String(c.reduce((a, b) => a! + b!, 0))))
    .join('×');

/** One axis's chunk sizes, short: `4` (all equal), `4…2` (equal but the last), or a list. */
function axisChunks(sizes: readonly (number | null)[]): string {
  if (sizes.length === 0) return '0';
  if (sizes.some((v) => v === null)) return '?';
  const first = sizes[0]!;
  const last = sizes[sizes.length - 1]!;
  if (sizes.every((v) => v === first)) return String(first);
  if (sizes.slice(0, -1).every((v) => v === first)) return `${first}…${last}`;
  return sizes.length <= 4 ? `(${sizes.join(',')})` : `${first}…`;
}

/** The lines of a layer's node: op (or fused steps), shape and dtype, chunks, device, backend. */
export function layerLabel(layer: Layer): string {
  const lines = [layer.op];
  const steps = layer.meta?.ops;
  if (typeof steps === 'string' && steps.includes('→')) lines.push(`fused: ${steps}`);
  const blocks = layer.chunks.map((c) => c.length).join('×');
  lines.push(`(${shapeText(layer)}) ${layer.dtype}`);
  lines.push(`blocks ${blocks} of ${layer.chunks.map(axisChunks).join('×')}`);
  lines.push(`device ${layer.device ?? 'cpu'}`);
  if (layer.backend) {
    lines.push(`${layer.backend.name}${layer.device ? ` on ${layer.device}` : ''}`);
  }
  return lines.join('\n');
}

/**
 * The graph of `outputs` as Graphviz DOT text (render with `dot -Tsvg`, or renderSvg).
 * @example
 * const dot = layersToDot([x.add(1).sum().layer]);
 * dot.startsWith('digraph'); // true
 */
export function layersToDot(outputs: readonly Layer[]): string {
  const g = layerGraph(outputs);
  const dot = new Digraph('tessera', { rankdir: 'BT' });
  const nodes = new Map<string, Node>();
  g.forEachNode((name, { layer }) => {
    const node = new Node(name, {
      label: layerLabel(layer),
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
