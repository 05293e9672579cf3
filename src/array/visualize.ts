// visualize(): a picture of what a compute runs — the operation graph (one node per layer, as
// fused) or the task graph — as DOT, SVG (WebAssembly Graphviz) or a self-contained HTML page.

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';
import { fuseLayers } from '../graph/fuse.ts';
import type { Layer } from '../graph/layer.ts';
import { materializeTasks } from '../graph/materialize.ts';
import { renderSvg } from '../graph/render-svg.ts';
import { layersToDot } from '../graph/visualize.ts';
import { tasksToDot } from '../graph/visualize-tasks.ts';
import { checkOptions } from './check-options.ts';
import { LazyArray } from './lazy-array.ts';

/** Options of `visualize`: the output format, operations or tasks, a file to write, fused layers shown as one node. */
export interface VisualizeOptions {
  /** 'dot' (default): Graphviz text; 'svg': rendered in-process; 'html': a page holding the SVG. */
  format?: 'dot' | 'svg' | 'html';
  /** 'operations' (default): one node per operation; 'tasks': one per task (at most 2,000). */
  level?: 'operations' | 'tasks';
  /** Write the picture here and return the file's absolute path instead of its text. */
  file?: string;
  /** Show the graph as it runs, blockwise chains fused into one node listing its steps (default false, as Dask's optimize_graph). */
  optimize?: boolean;
}

/** Options whose format is DOT (or absent): the picture is ready at once. */
export type DotOptions = VisualizeOptions & { format?: 'dot' };
/** Options whose format needs the WebAssembly renderer: the picture is a promise. */
export type RenderedOptions = VisualizeOptions & { format: 'svg' | 'html' };

const FORMATS = ['dot', 'svg', 'html'];
const LEVELS = ['operations', 'tasks'];

function checkVisualizeOptions(opts: VisualizeOptions | undefined): Required<
  Omit<VisualizeOptions, 'file'>
> & {
  file: string | undefined;
} {
  const o = checkOptions('visualize', opts);
  const { format = 'dot', level = 'operations', file, optimize = false } = o;
  if (!FORMATS.includes(format))
    throw new ValueError(`visualize: format ${formatValue(format)} is not 'dot', 'svg' or 'html'`);
  if (!LEVELS.includes(level))
    throw new ValueError(`visualize: level ${formatValue(level)} is not 'operations' or 'tasks'`);
  if (file !== undefined && (typeof file !== 'string' || file === ''))
    throw new ValueError(`visualize: file ${formatValue(file)} is not a path`);
  if (typeof optimize !== 'boolean')
    throw new ValueError(`visualize: optimize ${formatValue(optimize)} is not a boolean`);
  return { format, level, file, optimize };
}

/** The DOT text of `layers` at `level`. */
export function graphDot(
  layers: readonly Layer[],
  level: 'operations' | 'tasks',
  optimize: boolean,
): string {
  const shown = optimize ? fuseLayers(layers) : [...layers];
  return level === 'tasks' ? tasksToDot(materializeTasks(shown), 'visualize') : layersToDot(shown);
}

/**
 * A self-contained HTML page showing an SVG picture (no external script or style).
 * @example
 * const page = svgPage(await renderSvg(dot, 'visualize'), 'graph of y');
 */
export function svgPage(svg: string, title: string): string {
  const safe = title.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${safe}</title>
<style>body{font:14px system-ui,sans-serif;margin:16px;color:#222}svg{max-width:100%;height:auto}</style>
</head><body><h1>${safe}</h1>
${svg.replace(/^<\?xml[^>]*>\s*(<!DOCTYPE[^>]*>\s*)?/, '')}
</body></html>
`;
}

function output(text: string, file: string | undefined): string {
  if (file === undefined) return text;
  const path = resolve(file);
  writeFileSync(path, text);
  return path;
}

/**
 * A picture of the graph that computing `x` runs: operations by default (one node per
 * operation — op, shape, chunks, dtype, device, backend; with `optimize`, the graph as it
 * runs: a fused chain is one node listing its steps) or every task (`level: 'tasks'`, at most 2,000). DOT text is returned at once;
 * 'svg' and 'html' are rendered in-process by WebAssembly Graphviz and come as a promise.
 * With `file`, the picture is written there and the result is the file's absolute path.
 * @example
 * const y = ones([8, 8], { chunks: 4 }).add(1).sum();
 * visualize(y).startsWith('digraph'); // true
 * const path = await visualize(y, { format: 'svg', optimize: true, file: join(tmpdir(), 'y.svg') });
 */
export function visualize(x: LazyArray | readonly LazyArray[], opts?: DotOptions): string;
export function visualize(
  x: LazyArray | readonly LazyArray[],
  opts: RenderedOptions,
): Promise<string>;
export function visualize(
  x: LazyArray | readonly LazyArray[],
  opts?: VisualizeOptions,
): string | Promise<string>;
export function visualize(
  x: LazyArray | readonly LazyArray[],
  opts?: VisualizeOptions,
): string | Promise<string> {
  const arrays = x instanceof LazyArray ? [x] : x;
  if (!Array.isArray(arrays) || arrays.length === 0 || !arrays.every((a) => a instanceof LazyArray))
    throw new ValueError(`visualize: ${formatValue(x)} is not a LazyArray or a list of them`);
  const o = checkVisualizeOptions(opts);
  const dot = graphDot(
    arrays.map((a) => a.layer),
    o.level,
    o.optimize,
  );
  if (o.format === 'dot') return output(dot, o.file);
  const title = `tessera graph of ${arrays.map((a) => a.name).join(', ')}`;
  return renderSvg(dot, 'visualize').then((svg) =>
    output(o.format === 'svg' ? svg : svgPage(svg, title), o.file),
  );
}
