// SVG from DOT text, in-process: Graphviz compiled to WebAssembly (@viz-js/viz, an optional
// dependency loaded on first use), so no system graphviz is needed.

import { importOptional } from '../workers/optional-packages.ts';

/** What installs the renderer (the version package.json allows). */
export const VIZ_INSTALL = "npm install '@viz-js/viz@^3.31.0'";

type Viz = Awaited<ReturnType<typeof import('@viz-js/viz').instance>>;

let viz: Promise<Viz> | undefined;

/** The WebAssembly Graphviz instance, loaded once; a missing package is MissingPackageError. */
function loadViz(caller: string): Promise<Viz> {
  viz ??= importOptional(caller, '@viz-js/viz', () => import('@viz-js/viz'), VIZ_INSTALL).then(
    (m) => m.instance(),
  );
  // a failed load is not cached: installing the package and calling again works
  viz.catch(() => {
    viz = undefined;
  });
  return viz;
}

/**
 * SVG text of a DOT graph, laid out by Graphviz's `dot` engine.
 * @example
 * const svg = await renderSvg(layersToDot([x.sum().layer]), 'visualize');
 * svg.includes('<svg'); // true
 */
export async function renderSvg(dot: string, caller: string): Promise<string> {
  const v = await loadViz(caller);
  return v.renderString(dot, { format: 'svg', engine: 'dot' });
}
