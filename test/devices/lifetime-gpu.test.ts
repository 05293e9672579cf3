// GPU workers are unref'd while idle: a program that computes on the GPU and never calls
// shutdown() exits by itself, cleanly (no hang, no native crash at exit).

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { announceTier, hasGpu } from './tier.ts';

announceTier('lifetime-gpu.test.ts');
const script = fileURLToPath(new URL('../fixtures/gpu-no-shutdown.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

function run(limitMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still alive after ${limitMs} ms:\n${out}`));
    }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe.skipIf(!hasGpu)('GPU worker lifetime', () => {
  test('a program that never calls shutdown() exits with code 0', async () => {
    const { code, out } = await run(60_000);
    expect(out).toMatch(/sum \d/);
    expect(code).toBe(0);
  }, 70_000);
});
