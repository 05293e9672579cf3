import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const script = fileURLToPath(new URL('../fixtures/pool-no-shutdown.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

function runNode(
  args: string[],
  limitMs: number,
): Promise<{ code: number | null; out: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the child process was still alive after ${limitMs} ms:\n${out}`));
    }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, ms: performance.now() - started });
    });
  });
}

test.each(['threads', 'processes'])(
  'a %s pool that is never shut down neither keeps the process alive nor lets it exit early',
  async (kind) => {
    const { code, out } = await runNode(['--import', 'tsx', script, kind], 10_000);
    expect(out).toContain('result [1,2,3,4]');
    expect(code).toBe(0);
  },
  12_000,
);

const stuckScript = fileURLToPath(new URL('../fixtures/stuck-no-shutdown.ts', import.meta.url));

test.each(['threads', 'processes'])(
  'after stuck computes time out on the shared %s pool, a program that never shuts down still exits',
  async (kind) => {
    const { code, out } = await runNode(['--import', 'tsx', stuckScript, kind], 40_000);
    expect(out.match(/stuck compute: TimeoutError/g)).toHaveLength(3);
    expect(out).toContain('result [2,2,2,2]');
    expect(code).toBe(0);
  },
  45_000,
);
