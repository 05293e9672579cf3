// The browser scripts of the report and the dashboard (page/*.mjs, plain modules), joined
// into one inline module: pages are self-contained, with nothing fetched over the network.

import { readFileSync } from 'node:fs';

const cache = new Map<string, string>();

function read(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`./page/${name}`, import.meta.url), 'utf8');
    cache.set(name, text);
  }
  return text;
}

/** Imports of the shared drawing module: the inline script holds it already. */
const DRAW_IMPORT = /^import\s*\{[^}]*\}\s*from\s*'\.\/draw\.mjs';\s*$/m;

/**
 * The inline `<script type="module">` body of a page: draw.mjs, then `page` (its imports of
 * draw.mjs removed).
 * @example
 * const js = pageScript('report.mjs');
 */
export function pageScript(page: string): string {
  const body = read(page).replace(DRAW_IMPORT, '');
  // '</script' inside the text would end the inline element
  return `${read('draw.mjs')}\n${body}`.replace(/<\/script/gi, '<\\/script');
}

/** The styles both pages share. */
export const PAGE_STYLE = `
body{font:14px system-ui,sans-serif;margin:16px 24px;color:#212529;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:20px 0 6px}
svg.timeline,canvas.timeline,svg.memory{width:100%;height:auto;border:1px solid #dee2e6}
.lane-bg{fill:#f1f3f5}.lane-label{font-size:12px;fill:#343a40}.axis,.legend{font-size:12px}
rect.task{stroke:#fff;stroke-width:0.3}rect.span-only{opacity:.55}
table{border-collapse:collapse}td,th{padding:3px 10px;border-bottom:1px solid #e9ecef;text-align:right}
td:first-child,th:first-child{text-align:left}
.graph svg{max-width:100%;height:auto}.error{color:#c92a2a}
`;
