// The `tessera` command as installed (bin/tessera.mjs): it starts from plain node, registers
// tsx itself, and lists its commands.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/tessera.mjs', import.meta.url));

test('tessera --help lists demo and worker; an unknown command fails', () => {
  const help = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  expect(help).toMatch(/demo \[options\]/);
  expect(help).toMatch(/worker \[options\]/);
  expect(() => execFileSync(process.execPath, [bin, 'no-such-command'], { stdio: 'pipe' })).toThrow(
    /unknown command/,
  );
}, 20_000);
