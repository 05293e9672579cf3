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

// Both kinds in one program (one start of node, tsx and src, not two), and the two programs
// side by side: one's waits (member starts, sleeps, timeouts, grace periods) overlap the other's.
test.concurrent('pools that are never shut down (threads, then processes) neither keep the process alive nor let it exit early', async () => {
  const { code, out } = await runNode(['--import', 'tsx', script, 'threads', 'processes'], 20_000);
  expect(out).toContain('threads result [1,2,3,4]');
  expect(out).toContain('processes result [1,2,3,4]');
  expect(code).toBe(0);
}, 25_000);

const stuckScript = fileURLToPath(new URL('../fixtures/stuck-no-shutdown.ts', import.meta.url));

// Run from sources under tsx, this program stayed alive in about one run in six under load,
// with one ref'd MessagePort that no tessera code created (Node 20's off-thread module hooks
// after workers are terminated); the same program on the built package exited in 30 runs of
// 30. One retry keeps the check without failing on that tooling hang.
test.concurrent('after stuck computes time out on the shared threads and processes pools, a program that never shuts down still exits', {
  retry: 1,
  timeout: 45_000,
}, async () => {
  const { code, out } = await runNode(
    ['--import', 'tsx', stuckScript, 'threads', 'processes'],
    40_000,
  );
  for (const kind of ['threads', 'processes']) {
    expect(out.match(new RegExp(`${kind} stuck compute: TimeoutError`, 'g'))).toHaveLength(3);
    expect(out).toContain(`${kind} result [2,2,2,2]`);
  }
  expect(code).toBe(0);
});
