// Kernel shipping from compiled JS (no tsx anywhere): build src with tsc into a temporary
// folder, then run a child node process that computes on the thread pool (and on the
// process pool) with built-in,
// source-shipped and defineKernels kernels.

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const root = join(import.meta.dirname, '../..');
const out = mkdtempSync(join(tmpdir(), 'tessera-compiled-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const kernels = `
import { defineKernels } from './dist/index.js';
const one = Number('1'); // module state the kernel reads on every worker thread
export const k = defineKernels(import.meta.url, {
  plusOne(b) { return b.data.map((v) => v + one); },
});
`;

const main = `
import { compute, fromArray, lazyApply, mapBlocks, shutdown } from './dist/index.js';
import { k } from './kernels.mjs';
const x = fromArray(Float64Array.from({ length: 600 }, (_, i) => (i * 7919) % 600), { shape: [20, 30], chunks: [5, 10] });
const sorted = lazyApply((a) => {
  const n = a.shape[1];
  const o = a.data.slice();
  for (let i = 0; i < o.length; i += n) o.subarray(i, i + n).sort();
  return o;
}, x, { axis: 1 });
const plus = mapBlocks(k.plusOne, x, { dtype: 'float64' });
const [s, y, p] = await compute(x.mul(2).add(1).sum(), sorted, plus, { scheduler: process.argv[2], workers: 2 });
const rowSorted = Array.from({ length: 20 }, (_, r) => Array.from(y.data.subarray(r * 30, r * 30 + 30)).every((v, i, a) => i === 0 || a[i - 1] <= v));
console.log(JSON.stringify({ sum: s.data[0], sorted: rowSorted.every(Boolean), plus: p.data[7] }));
await shutdown();
`;

test('the thread and process pools run built-in, source-shipped and defineKernels kernels from compiled JS', () => {
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(root, 'tsconfig.build.json'),
      '--outDir',
      join(out, 'dist'),
    ],
    { cwd: root, stdio: 'pipe' },
  );
  copyFileSync(join(root, 'src/workers/bootstrap.mjs'), join(out, 'dist/workers/bootstrap.mjs'));
  writeFileSync(join(out, 'kernels.mjs'), kernels);
  writeFileSync(join(out, 'main.mjs'), main);
  // the package's own dependencies resolve from the repository's node_modules
  symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'));
  for (const scheduler of ['threads', 'processes']) {
    const stdout = execFileSync(process.execPath, [join(out, 'main.mjs'), scheduler], {
      cwd: out,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const r = JSON.parse(stdout.trim().split('\n').pop()!);
    let expected = 0;
    for (let i = 0; i < 600; i++) expected += 2 * ((i * 7919) % 600) + 1;
    expect(r.sum, scheduler).toBe(expected);
    expect(r.sorted, scheduler).toBe(true);
    expect(r.plus, scheduler).toBe(((7 * 7919) % 600) + 1);
  }
}, 120_000);
