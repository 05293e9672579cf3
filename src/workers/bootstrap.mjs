// Pool-member entry in plain JS, so it loads under tsx, vitest and compiled JS alike: a worker
// thread gets its entry in workerData, a child process as its first argument. tsx is
// registered first when the parent said so (execArgv --import fails in workers on Node 20):
// the entry is TypeScript, or the program runs under tsx and its kernel modules may be.

import { workerData } from 'node:worker_threads';

const entry = workerData?.entry ?? process.argv[2];
const tsx = workerData?.tsx ?? process.env.TESSERA_MEMBER_TSX === '1';
if (tsx || entry.endsWith('.ts') || entry.endsWith('.mts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(entry);
