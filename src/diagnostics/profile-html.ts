// The profile report: one self-contained HTML file (scripts, styles, data and the graph
// picture inline; nothing fetched) with the task stream, a per-kernel table and memory.

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ValueError } from '../errors.ts';
import { PAGE_STYLE, pageScript } from './page-script.ts';
import type { Profile } from './profile.ts';

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** JSON that is safe inside `<script type="application/json">`. */
const embedJson = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');

/**
 * The HTML of a profile report; `graphSvg` is the picture of the graph (or undefined, and
 * `graphNote` says why there is none).
 * @example
 * const html = profileHtml(profile, await renderSvg(dot, 'compute'));
 */
export function profileHtml(profile: Profile, graphSvg?: string, graphNote = ''): string {
  const when = new Date(profile.startedAt).toISOString();
  const graph =
    graphSvg === undefined
      ? `<p>${escapeHtml(graphNote || 'no graph picture')}</p>`
      : graphSvg.replace(/^<\?xml[^>]*>\s*(<!DOCTYPE[^>]*>\s*)?/, '');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>tessera profile ${escapeHtml(when)}</title>
<style>${PAGE_STYLE}</style>
</head><body>
<h1>tessera profile</h1>
<p id="when">${escapeHtml(when)}</p>
<p id="summary"></p>
<h2>Task stream</h2>
<div id="timeline"></div>
<h2>Kernels</h2>
<table id="kernels"><thead><tr><th>kernel</th><th>count</th><th>total</th><th>mean</th><th>bytes in</th><th>bytes out</th></tr></thead><tbody></tbody></table>
<h2>Memory</h2>
<div id="memory"></div>
<h2>Graph</h2>
<div class="graph" id="graph">${graph}</div>
<script type="application/json" id="tessera-profile">${embedJson(profile)}</script>
<script type="module">${pageScript('report.mjs')}</script>
</body></html>
`;
}

/**
 * The profile embedded in a report's HTML (what profileHtml wrote).
 * @example
 * const profile = readProfileHtml(readFileSync('profile.html', 'utf8'));
 */
export function readProfileHtml(html: string): Profile {
  const m = /<script type="application\/json" id="tessera-profile">([\s\S]*?)<\/script>/.exec(html);
  if (m === null) throw new ValueError('readProfileHtml: no embedded profile in this HTML');
  return JSON.parse(m[1]!) as Profile;
}

/**
 * Write a profile report to `path`; resolves with its absolute path.
 * @example
 * const file = writeProfileHtml('profile.html', profile, svg);
 */
export function writeProfileHtml(
  path: string,
  profile: Profile,
  graphSvg?: string,
  graphNote?: string,
): string {
  const file = resolve(path);
  writeFileSync(file, profileHtml(profile, graphSvg, graphNote));
  return file;
}
