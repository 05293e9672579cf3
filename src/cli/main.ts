// The `tessera` command: `tessera demo` runs the demo pipeline; `tessera worker` serves the
// 'distributed' scheduler.

import { Command } from 'commander';
import { shutdown } from '../index.ts';
import { isDemoScheduler, runDemo } from './demo.ts';
import { addWorkerCommand } from './worker.ts';

const program = new Command('tessera').description('lazy, chunked n-d arrays for Node.js');

program
  .command('demo')
  .description('run a pipeline over a few hundred MB and print what it computed')
  .option('--channels <n>', 'channels', '32')
  .option('--log2-samples <n>', 'log2 of samples per channel', '20')
  .option('--scheduler <name>', "'threads' (default), 'processes' or 'sync'", 'threads')
  .action(async (o: { channels: string; log2Samples: string; scheduler: string }) => {
    const t0 = performance.now();
    if (!isDemoScheduler(o.scheduler)) {
      throw new Error(
        `demo: scheduler must be 'threads', 'processes' or 'sync', not '${o.scheduler}'`,
      );
    }
    await runDemo({
      channels: Number(o.channels),
      samples: 2 ** Number(o.log2Samples),
      scheduler: o.scheduler,
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

await program.parseAsync();
