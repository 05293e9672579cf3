// The `tessera` command: `tessera demo` runs the demo pipeline; `tessera worker` serves the
// 'distributed' scheduler. A bad argument is one line on stderr and exit code 1, no stack.

import { Command, InvalidArgumentError } from 'commander';
import { shutdown, VERSION } from '../index.ts';
import { isDemoScheduler, runDemo } from './demo.ts';

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
  .action(async (o: { channels: number; log2Samples: number; scheduler: string }) => {
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

program
  .command('worker')
  .description("serve the 'distributed' scheduler: run task batches from Redis on this machine")
  .option('--redis <url>', 'Redis URL (default: TESSERA_REDIS_URL or redis://127.0.0.1:6379)')
  .option('--queue <name>', 'BullMQ queue shared with the computes', 'tessera')
  .option('--workers <n>', 'worker threads (default: every core)', positiveInt)
  .option(
    '--lock-ms <ms>',
    "how soon a dead worker's jobs move to another worker",
    positiveInt,
    10000,
  )
  .action(async (o: { redis?: string; queue: string; workers?: number; lockMs: number }) => {
    const { startDistributedWorker } = await import('../workers/distributed-worker.ts');
    const worker = await startDistributedWorker({
      queue: o.queue,
      lockMs: o.lockMs,
      ...(o.redis !== undefined ? { redis: o.redis } : {}),
      ...(o.workers !== undefined ? { workers: o.workers } : {}),
    }).catch((e: unknown) => {
      // a bad setup (no Redis there) is a message, not a stack trace
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    });
    console.log(`tessera worker: serving queue '${o.queue}'`);
    const stop = async (): Promise<void> => {
      await worker.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });

try {
  await program.parseAsync();
} catch (e) {
  // a failure of the command itself (bad data, a missing optional package): one line
  console.error(`tessera: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
