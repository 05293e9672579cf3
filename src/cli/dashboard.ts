// `tessera dashboard`: serve the live dashboard until interrupted; computes of processes
// started with TESSERA_DASHBOARD set to its URL report to it.

import { type Command, InvalidArgumentError } from 'commander';
import { serveDashboard } from '../diagnostics/dashboard.ts';
import { DASHBOARD_ENV } from '../diagnostics/live-post.ts';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('not a port number (0 to 65535).');
  return n;
}

/**
 * Add the `dashboard` command to the CLI.
 * @example
 * addDashboardCommand(program); // tessera dashboard --port 8787
 */
export function addDashboardCommand(program: Command): void {
  program
    .command('dashboard')
    .description('serve the live dashboard (task stream, progress, workers, memory, errors)')
    .option('--port <n>', 'TCP port (0: any free one)', port, 8787)
    .option('--host <address>', 'interface to bind', '127.0.0.1')
    .action(async (o: { port: number; host: string }) => {
      const dash = await serveDashboard({ port: o.port, host: o.host, log: false });
      console.log(`tessera dashboard: ${dash.url}`);
      console.log(`report computes here: ${DASHBOARD_ENV}=${dash.url} node your-script.js`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await dash.close();
    });
}
