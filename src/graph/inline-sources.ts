// Graph rewrites that read wrapped data in place: a rechunk or a transpose of an array made
// by fromArray becomes slices or strided views of the wrapped data itself, so its blocks
// are never copied out first (Dask gets the same from NumPy's views).

import type { InputView } from '../backends/cpu-js/elementwise/ew-view.ts';
import { chunkOffsets } from '../chunking/blocks.ts';
import { defineLayer } from './define-layer.ts';
import { gridOf, type Layer } from './layer.ts';
import { layerGraph, sortedLayers } from './layer-graph.ts';

/** Where the blocks of a layer sit in one in-memory source block. */
interface Region {
  readonly source: Layer;
  /** Per axis, the offset of each block. */
  readonly offsets: readonly (readonly number[])[];
  readonly chunks: readonly (readonly number[])[];
}

const knownChunks = (l: Layer): l is Layer & { chunks: number[][] } =>
  l.chunks.every((c) => c.every((s) => s !== null));

/** The region a layer reads when each block is a plain slice of one source block. */
function regionOf(l: Layer): Region | undefined {
  if (!knownChunks(l)) return undefined;
  const chunks = l.chunks;
  const offsets = chunks.map(chunkOffsets);
  if (l.constant !== undefined && gridOf(l).every((n) => n === 1)) {
    return { source: l, offsets, chunks };
  }
  const src = l.deps[0];
  if (l.op !== 'from-array' || l.deps.length !== 1 || src?.constant === undefined) return undefined;
  if (!gridOf(src).every((n) => n === 1)) return undefined;
  return { source: src, offsets, chunks };
}

/** A layer whose block b is the slice of `source` at `chunks`' offsets (fromArray's form). */
function sliceLayer(
  name: string,
  source: Layer,
  chunks: readonly (readonly number[])[],
  from: string,
): Layer {
  const offsets = chunks.map(chunkOffsets);
  const zero = chunks.map(() => 0);
  const step = chunks.map(() => 1);
  return defineLayer({
    op: 'from-array',
    name,
    deps: [source],
    chunks: chunks.map((c) => [...c]),
    dtype: source.dtype,
    fusable: true,
    meta: { inlined: from },
    task: (b) => ({
      kernel: 'slice',
      inputs: [[0, zero]],
      params: {
        start: b.map((i, ax) => offsets[ax]![i]!),
        step,
        count: b.map((i, ax) => chunks[ax]![i]!),
      },
    }),
  });
}

/** A transpose of a region: block b is a permuted strided view of the source. */
function transposeView(layer: Layer, region: Region, axes: readonly number[]): Layer {
  const zero = axes.map(() => 0);
  const step = axes.map(() => 1);
  return defineLayer({
    op: 'transpose',
    name: layer.name,
    deps: [region.source],
    chunks: layer.chunks,
    dtype: layer.dtype,
    fusable: true,
    meta: { ...layer.meta, inlined: 'view' },
    task: (b) => {
      const src = new Array<number>(b.length);
      for (let i = 0; i < b.length; i++) src[axes[i]!] = b[i]!;
      const view: InputView = {
        start: src.map((k, ax) => region.offsets[ax]![k]!),
        step,
        count: src.map((k, ax) => region.chunks[ax]![k]!),
        axes,
      };
      return { kernel: 'view', inputs: [[0, zero]], params: view };
    },
  });
}

/** The rewrite of one layer whose deps are already rewritten, or undefined to keep it. */
function rewrite(layer: Layer): Layer | undefined {
  if (layer.deps.length !== 1 || (layer.op !== 'rechunk' && layer.op !== 'transpose')) {
    return undefined;
  }
  const region = regionOf(layer.deps[0]!);
  if (region === undefined || !knownChunks(layer)) return undefined;
  if (layer.op === 'rechunk') return sliceLayer(layer.name, region.source, layer.chunks, 'rechunk');
  const spec = layer.task(layer.chunks.map(() => 0));
  const axes = (spec.params as { axes?: number[] } | undefined)?.axes;
  if (spec.kernel !== 'transpose' || axes === undefined) return undefined;
  return transposeView(layer, region, axes);
}

/**
 * Rewrite rechunks and transposes of fromArray data into reads of the data in place. Layer
 * names (and so task keys) are unchanged; returns the rewritten outputs.
 * @example
 * const [y] = inlineSourceViews([rechunk(fromArray(data, { chunks: [100, 10] }), [10, 100]).layer]);
 * y.op; // 'from-array': each new block is one slice of data
 */
export function inlineSourceViews(outputs: readonly Layer[]): Layer[] {
  const done = new Map<string, Layer>();
  for (const layer of sortedLayers(layerGraph(outputs))) {
    const deps = layer.deps.map((d) => done.get(d.name) ?? d);
    const changed = deps.some((d, i) => d !== layer.deps[i]);
    const current = changed ? Object.freeze({ ...layer, deps }) : layer;
    done.set(layer.name, rewrite(current) ?? current);
  }
  return outputs.map((l) => done.get(l.name)!);
}
