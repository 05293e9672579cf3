// The dashboard's page: static HTML with its styles and script inline; the data comes over
// /events (server-sent events) from the server that served it.

import { PAGE_STYLE, pageScript } from './page-script.ts';

let page: string | undefined;

/**
 * The dashboard page (built once).
 * @example
 * res.end(dashboardHtml());
 */
export function dashboardHtml(): string {
  page ??= `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tessera dashboard</title>
<style>${PAGE_STYLE}
.worker.busy{color:#2b8a3e}.worker.idle{color:#868e96}.error{color:#c92a2a}
progress{width:220px}
</style>
</head><body>
<h1>tessera dashboard</h1>
<p id="status">connecting…</p>
<h2>Computes</h2>
<table id="computes"><thead><tr><th>compute</th><th>scheduler</th><th>progress</th><th>tasks</th><th>status</th></tr></thead><tbody></tbody></table>
<h2>Latest compute <span id="latest"></span></h2>
<p>finished tasks: <span id="done">0</span> of <span id="total">0</span></p>
<h3>Workers</h3>
<ul id="workers"></ul>
<h3>Task stream</h3>
<div id="timeline"></div>
<h3>Memory and live chunk bytes</h3>
<div id="memory"></div>
<h2>Errors</h2>
<ul id="errors"></ul>
<script type="module">${pageScript('dashboard.mjs')}</script>
</body></html>
`;
  return page;
}
