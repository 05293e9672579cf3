// Builds the package into dist/: tsc's JavaScript and declarations, the plain .mjs entries the
// workers start from, and the CommonJS entry (index.cjs) that loads that same ESM build.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');

/** Every file under `dir`, as paths relative to it. */
function walk(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

rmSync(dist, { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

// The bootstrap and the GPU probe are plain JS already: workers and child processes start there.
for (const f of walk(src).filter((f) => f.endsWith('.mjs'))) {
  mkdirSync(dirname(join(dist, f)), { recursive: true });
  copyFileSync(join(src, f), join(dist, f));
}

// tsc rewrites '.ts' specifiers in the JavaScript but keeps them in declarations, where a
// user's tsc would look for sources the package does not ship (and reject '.ts' imports).
const RELATIVE_TS = /((?:from|import)\s*\(?\s*['"]\.{1,2}\/[^'"]*?)\.(m?)ts(['"])/g;
for (const f of walk(dist).filter((f) => f.endsWith('.d.ts'))) {
  const path = join(dist, f);
  const text = readFileSync(path, 'utf8');
  const fixed = text.replace(RELATIVE_TS, (_, head, m, quote) => `${head}.${m}js${quote}`);
  if (fixed !== text) writeFileSync(path, fixed);
}

// One module graph for require() and import alike (require of ESM, Node >= 20.19): a second,
// CommonJS copy would hold its own NDArray class and config next to the one the workers and
// the scheduler's dynamic imports load.
writeFileSync(join(dist, 'index.cjs'), readFileSync(join(root, 'scripts/index.cjs')));
writeFileSync(join(dist, 'index.d.cts'), "export * from './index.js';\n");
