// Acceptance (issue 11): the documentation runs as written. Every ```ts block of README.md and
// docs/*.md is written to a temporary folder (its `from 'tessera'` imports pointed at this
// checkout's src/index.ts), run with tsx from a fresh temporary folder, and must exit 0 without
// writing anything into the repository. Blocks that are deliberately not runnable (signatures,
// fragments) use another fence tag (```ts-fragment, ```text) and are skipped. Every relative
// link of those files names a path that exists in the repository.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '../..');
const entry = join(root, 'src/index.ts');
const tsx = join(root, 'node_modules/.bin/tsx');
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const tmp = mkdtempSync(join(tmpdir(), 'tessera-readme-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Block {
  file: string;
  line: number; // of the opening fence, 1-based
  code: string;
}

/** The ```ts blocks of a Markdown file (exactly that tag: ```ts-fragment and others are skipped). */
function tsBlocks(file: string): Block[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trim().startsWith(fence)) j++;
    if (open[3] === 'ts' || open[3] === 'typescript') {
      out.push({ file, line: i + 1, code: lines.slice(i + 1, j).join('\n') });
    }
    i = j;
  }
  return out;
}

/** Relative link targets of a Markdown file, outside code blocks and spans. */
function relativeLinks(file: string): { target: string; line: number }[] {
  const text = readFileSync(join(root, file), 'utf8')
    .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/`[^`\n]*`/g, (m) => ' '.repeat(m.length));
  const out: { target: string; line: number }[] = [];
  for (const m of text.matchAll(
    /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)/gm,
  )) {
    const target = (m[1] ?? m[2])!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    out.push({ target, line: text.slice(0, m.index).split('\n').length });
  }
  return out;
}

interface Run {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Run `file` with `args` as a child process; resolves when it exits, however it exits. */
function run(file: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) => {
      if (err === null) resolve({ status: 0, signal: null, stdout, stderr });
      else if (typeof err.code === 'string')
        reject(err); // did not start
      else resolve({ status: err.code ?? null, signal: err.signal ?? null, stdout, stderr });
    });
  });
}

// tracked and untracked files (not ignored ones: other test files build dist/ meanwhile)
const gitStatus = async (): Promise<string> => {
  const r = await run('git', ['status', '--porcelain', '--untracked-files=all'], root);
  if (r.status !== 0) throw new Error(`git status failed:\n${r.stderr}`);
  return r.stdout;
};

const blocks = docs.flatMap(tsBlocks).map((b) => {
  const name = `${b.file}:${b.line}`;
  // an ES module, as in a package with "type": "module" (top-level await)
  const path = join(tmp, `${name.replace(/[^\w]+/g, '_')}.mts`);
  writeFileSync(path, b.code.replace(/(from\s+|import\(\s*)(['"])tessera\2/g, `$1$2${entry}$2`));
  return { ...b, name, path };
});

// The typecheck and the blocks run side by side (child processes; none changes what another
// reads); a block that writes into the repository fails the blocks beside it too.
describe.concurrent('documentation blocks run as written', () => {
  test('there are blocks to run', () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  test('they typecheck (strict, against src/index.ts)', async () => {
    const tsc = join(root, 'node_modules/.bin/tsc');
    const flags = `--noEmit --strict --target es2022 --lib es2023 --module esnext
      --moduleResolution bundler --allowImportingTsExtensions --verbatimModuleSyntax
      --skipLibCheck --types node`.split(/\s+/);
    flags.push('--typeRoots', join(root, 'node_modules/@types'));
    const r = await run(tsc, [...flags, ...blocks.map((b) => b.path)], tmp);
    // errors name the block: "README.md:55 (12,3)" is line 12 of the block opened at line 55
    let out = `${r.stdout}${r.stderr}`;
    for (const b of blocks)
      out = out.replaceAll(b.path, b.name).replaceAll(relative(tmp, b.path), b.name);
    expect(r.status, out).toBe(0);
  }, 90_000);

  test.each(blocks.map((b) => [b.name, b] as const))(
    '%s',
    async (name, block) => {
      const cwd = mkdtempSync(join(tmp, 'cwd-'));
      const before = await gitStatus();
      const r = await run(tsx, [block.path], cwd);
      const after = await gitStatus();
      const report = `${name} (exit ${r.status}${r.signal ? `, ${r.signal}` : ''}):\n${r.stdout}\n${r.stderr}`;
      expect(r.status, report).toBe(0);
      expect(after, `${name}, or a block run beside it, wrote into the repository`).toBe(before);
      expect(readdirSync(cwd), `${name} wrote into its working folder`).toEqual([]);
    },
    90_000,
  );
});

describe('documentation links stay in the repository', () => {
  test.each(docs)('%s', (file) => {
    const missing = relativeLinks(file)
      .map(({ target, line }) => ({
        line,
        path: join(root, dirname(file), decodeURI(target.split('#')[0]!)),
      }))
      .filter(({ path }) => !existsSync(path) || relative(root, path).startsWith('..'))
      .map(({ line, path }) => `${file}:${line}: ${relative(root, path)}`);
    expect(missing).toEqual([]);
  });
});
