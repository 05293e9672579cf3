// Worker-thread entry in plain JS, so it loads under tsx, vitest and compiled JS alike.
// When the real entry is TypeScript it registers tsx first (execArgv --import fails on Node 20).

import { workerData } from 'node:worker_threads';

const entry = workerData.entry;
if (entry.endsWith('.ts') || entry.endsWith('.mts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(entry);
