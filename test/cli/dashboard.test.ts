// `tessera dashboard`: serves the page at the URL it prints, on the port asked for, until
// SIGINT; a bad port is commander's one-line error.

import { get } from 'node:http';
import { Command } from 'commander';
import { expect, test, vi } from 'vitest';
import { addDashboardCommand } from '../../src/cli/dashboard.ts';

const status = (url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    get(url, (res) => {
      res.resume();
      resolve(res.statusCode!);
    }).on('error', reject);
  });

test('prints its URL, serves the page there, and stops on SIGINT', async () => {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((l: string) => lines.push(l));
  try {
    const program = new Command('tessera');
    addDashboardCommand(program);
    const done = program.parseAsync(['dashboard', '--port', '0'], { from: 'user' });
    await vi.waitFor(() => expect(lines.length).toBe(2));
    const url = /^tessera dashboard: (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(lines[0]!)![1]!;
    expect(lines[1]).toBe(`report computes here: TESSERA_DASHBOARD=${url} node your-script.js`);
    expect(await status(url)).toBe(200);
    process.emit('SIGINT');
    await done;
    await expect(status(url)).rejects.toThrow();
  } finally {
    log.mockRestore();
  }
});

test('a bad port: commander rejects it', async () => {
  const program = new Command('tessera').exitOverride().configureOutput({ writeErr: () => {} });
  addDashboardCommand(program);
  program.commands[0]!.exitOverride().configureOutput({ writeErr: () => {} });
  await expect(
    program.parseAsync(['dashboard', '--port', '70000'], { from: 'user' }),
  ).rejects.toThrow(/not a port number/);
});
