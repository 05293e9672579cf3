#!/usr/bin/env node
// The `tessera` command (demo, info, worker). Installed, it runs the built CLI in dist/; in a
// checkout (the sources are there) it runs them through tsx, a devDependency, so it is never stale.

import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/cli/main.js', import.meta.url).href);
}
