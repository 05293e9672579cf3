// Pool-member entry in plain JS, so it loads under tsx, vitest and compiled JS alike: a worker
// thread gets its entry in workerData, a child process as its first argument. When the
// entry is TypeScript it registers tsx first (execArgv --import fails in workers on Node 20).

import { workerData } from 'node:worker_threads';

const entry = workerData?.entry ?? process.argv[2];
if (entry.endsWith('.ts') || entry.endsWith('.mts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(entry);
