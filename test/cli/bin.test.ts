// The `tessera` command as installed (bin/tessera.mjs): it starts from plain node, registers
// tsx itself, and lists its commands.

import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/tessera.mjs', import.meta.url));

test('tessera --help lists demo, worker and dashboard; an unknown command fails', () => {
  const help = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  expect(help).toMatch(/demo \[options\]/);
  expect(help).toMatch(/worker \[options\]/);
  expect(help).toMatch(/dashboard \[options\]/);
  expect(() => execFileSync(process.execPath, [bin, 'no-such-command'], { stdio: 'pipe' })).toThrow(
    /unknown command/,
  );
}, 20_000);

test('tessera --version prints the version; a bad worker number is one line, exit 1', async () => {
  const { VERSION } = await import('../../src/version.ts');
  const v = execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
  expect(v.trim()).toBe(VERSION);
  const run = spawnSync(process.execPath, [bin, 'worker', '--insecure', '--lock-ms', 'soon'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(run.status).toBe(1);
  expect(run.stderr.trim()).toBe('tessera worker: --lock-ms "soon" is not a positive integer');
  expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
}, 30_000);
