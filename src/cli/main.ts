// The `tessera` command: `tessera demo` runs the demo pipeline; `tessera worker` serves the
// 'distributed' scheduler; `tessera dashboard` serves the live dashboard. A bad argument is one line on stderr and exit code 1, no stack.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { shutdown, VERSION } from '../index.ts';
import { addDashboardCommand } from './dashboard.ts';
import { isDemoScheduler, runDemo } from './demo.ts';
import { addWorkerCommand } from './worker.ts';

/** commander's parser for an option that must be a positive integer. */
function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('not a positive integer.');
  return n;
}

const program = new Command('tessera')
  .description('lazy, chunked n-d arrays for Node.js')
  .version(VERSION, '-v, --version');

program
  .command('demo')
  .description('run a pipeline over a few hundred MB and print what it computed')
  .option('--channels <n>', 'channels', positiveInt, 32)
  .option('--log2-samples <n>', 'log2 of samples per channel', positiveInt, 20)
  .option('--scheduler <name>', "'threads' (default), 'processes' or 'sync'", 'threads')
  .option('--out <dir>', 'folder for graph.svg and profile.html (default: a new temporary one)')
  .action(async (o: { channels: number; log2Samples: number; scheduler: string; out?: string }) => {
    const t0 = performance.now();
    if (!isDemoScheduler(o.scheduler)) {
      return program.error(
        `error: demo: scheduler must be 'threads', 'processes' or 'sync', not '${o.scheduler}'`,
      );
    }
    await runDemo({
      channels: o.channels,
      samples: 2 ** o.log2Samples,
      scheduler: o.scheduler,
      outDir: o.out ?? mkdtempSync(join(tmpdir(), 'tessera-demo-')),
    });
    await shutdown();
    console.log(`done in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  });

program
  .command('info')
  .description(
    'list the backends found, their kernels, which pass the contract suite, and why any is unavailable',
  )
  .action(async () => {
    const { infoLines } = await import('./info.ts');
    for (const line of await infoLines()) console.log(line);
  });

addWorkerCommand(program);
addDashboardCommand(program);

try {
  await program.parseAsync();
} catch (e) {
  // a failure of the command itself (bad data, a missing optional package): one line
  console.error(`tessera: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
