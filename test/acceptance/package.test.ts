// Acceptance (issue 11): tessera as a real npm package. `npm pack` (which builds dist/), an
// offline install of the tarball into a project outside the repository, and there: plain node
// (ESM and CommonJS; built-in, source-shipped and defineKernels kernels on threads and on
// processes, with no tsx anywhere), tsx (.ts, .cts, .cjs), a bundler, tsc under NodeNext and
// under `tsc --init`'s defaults, and the CLI. The one build of the package serves every check.

import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '../..');
const fixtures = join(root, 'test/fixtures/package-user');
// Outside the repository, so nothing resolves from the repository's node_modules by accident.
const tmp = mkdtempSync(join(tmpdir(), 'tessera-package-'));
const app = join(tmp, 'app');
let tarball = '';
let installLog = '';
let installed: string[] = [];

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const npm = (args: string[], cwd: string): string =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: 'pipe' });

interface LockEntry {
  version: string;
  dev?: boolean;
  resolved?: string;
  [k: string]: unknown;
}

/**
 * A lockfile for the app: the tarball plus the repository's own locked versions of its
 * dependencies (not its devDependencies), with the tarball URLs npm ci needs to find them
 * in the cache without asking the registry.
 */
function appLockfile(tgz: string, pkg: Record<string, unknown>): object {
  const repo = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages as Record<
    string,
    LockEntry
  >;
  const registry = npm(['config', 'get', 'registry'], root).trim().replace(/\/$/, '');
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tgz)).digest('base64')}`;
  const packages: Record<string, object> = {
    '': { name: 'app', version: '1.0.0', dependencies: { tessera: `file:${tgz}` } },
    'node_modules/tessera': {
      version: pkg.version,
      resolved: `file:${tgz}`,
      integrity,
      dependencies: pkg.dependencies,
      optionalDependencies: pkg.optionalDependencies,
      peerDependencies: pkg.peerDependencies,
      peerDependenciesMeta: pkg.peerDependenciesMeta,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [path, entry] of Object.entries(repo)) {
    if (!path.startsWith('node_modules/') || entry.dev) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const base = name.split('/').pop();
    packages[path] = { ...entry, resolved: `${registry}/${name}/-/${base}-${entry.version}.tgz` };
  }
  return { name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

beforeAll(() => {
  npm(['pack', '--pack-destination', tmp], root); // runs `prepare`: the build
  tarball = join(tmp, readdirSync(tmp).find((f) => f.endsWith('.tgz'))!);
  const pkg = JSON.parse(
    execFileSync('tar', ['xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  );
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'app',
      version: '1.0.0',
      private: true,
      type: 'module',
      dependencies: { tessera: `file:${tarball}` },
    }),
  );
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(appLockfile(tarball, pkg)));
  const ci = spawnSync('npm', ['ci', '--offline', '--no-audit', '--no-fund'], {
    cwd: app,
    encoding: 'utf8',
  });
  installLog = ci.stdout + ci.stderr;
  if (ci.status !== 0) throw new Error(`npm ci of the tarball failed:\n${installLog}`);
  installed = readdirSync(join(app, 'node_modules'));
  // The user's own tools: a TypeScript user has these installed next to tessera. tsx is
  // linked only while its own tests run, so the plain node runs prove it is not needed.
  for (const tool of ['typescript', '@types']) {
    symlinkSync(join(root, 'node_modules', tool), join(app, 'node_modules', tool));
  }
  cpSync(fixtures, app, { recursive: true });
  execFileSync(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '--init'], {
    cwd: app,
    stdio: 'pipe',
  });
}, 180_000);

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run node with `args` in the app, as a child process; resolves when it exits. */
function runNode(args: string[], timeout = 60_000): Promise<Run> {
  // a user who set up the distributed scheduler's secret but not its packages
  const env = { ...process.env, TESSERA_SECRET: 'package-test-secret-0123456789abcdef' };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { cwd: app, encoding: 'utf8', timeout, env },
      (err, stdout, stderr) => {
        if (err === null) resolve({ status: 0, stdout, stderr });
        else if (typeof err.code === 'string')
          reject(err); // node did not start
        else {
          const killed = err.signal ? `\n(killed by ${err.signal})` : '';
          resolve({ status: err.code ?? null, stdout, stderr: stderr + killed });
        }
      },
    );
  });
}

/** Its stdout's last line parsed as JSON; a failed run fails with its stderr. */
function lastJson(name: string, r: Run): Record<string, unknown> {
  expect(r.status, `${name} (exit ${r.status}):\n${r.stdout}\n${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

/** `f()` once, on first use: the programs of a group run side by side, each test reads one. */
function once<T>(f: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => {
    p ??= f();
    return p;
  };
}

const tsxCli = () => join(app, 'node_modules/tsx/dist/cli.mjs');

/** Run `fn` with tsx installed in the app (as a user of tsx has it). */
async function withTsx<T>(fn: () => Promise<T>): Promise<T> {
  const link = join(app, 'node_modules/tsx');
  symlinkSync(join(root, 'node_modules/tsx'), link);
  try {
    return await fn();
  } finally {
    rmSync(link);
  }
}

// The plain node programs, before any tsx run and with no tsx installed: workers need no tsx.
const plainRuns = once(async () => {
  expect(existsSync(join(app, 'node_modules/tsx'))).toBe(false);
  const [mjs, cjs] = await Promise.all([runNode(['app.mjs']), runNode(['app.cjs'])]);
  return { mjs, cjs };
});
// The programs tsx runs, with tsx linked into the app for their duration.
const tsxRuns = once(() =>
  withTsx(async () => {
    const [ts, cts, cjs] = await Promise.all(
      ['app.ts', 'app.cts', 'app.cjs'].map((f) => runNode([tsxCli(), f])),
    );
    return { ts: ts!, cts: cts!, cjs: cjs! };
  }),
);

const tsc = (project: string) =>
  runNode([join(app, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', project]);
const tscRuns = once(async () => {
  const [nodenext, init] = await Promise.all([tsc('tsconfig.nodenext.json'), tsc('tsconfig.json')]);
  return { 'tsconfig.nodenext.json': nodenext, 'tsconfig.json': init };
});

describe('the packed tarball', () => {
  test('ships only dist, bin, docs, README, LICENSE and package.json', () => {
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    const top = [...new Set(files.map((f) => f.split('/')[0]))].sort();
    expect(top).toEqual(['LICENSE', 'README.md', 'bin', 'dist', 'docs', 'package.json']);
    for (const f of [
      'dist/index.js',
      'dist/index.cjs',
      'dist/index.d.ts',
      'dist/index.d.cts',
      'dist/workers/bootstrap.mjs',
      'dist/workers/worker.js',
      'dist/devices/gpu-probe.mjs',
      'docs/ARCHITECTURE.md',
    ]) {
      expect(files).toContain(f);
    }
    expect(files.some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toBe(false);
  });

  test('installs offline with no engine warning and without the distributed packages or tsx', () => {
    expect(installLog).not.toMatch(/EBADENGINE/);
    expect(installed).toContain('tessera');
    expect(installed).toContain('p-queue');
    for (const name of ['bullmq', 'ioredis', 'msgpackr-extract', 'tsx', 'typescript']) {
      expect(installed).not.toContain(name);
    }
  });
});

describe('a project using the installed package', () => {
  const expectedSum = 1_000_000; // sum(2i + 1) for i < 1000

  test('plain node, ESM: built-in, source-shipped and defineKernels kernels on threads and on processes, and MissingPackageError for distributed', async () => {
    let sum = 0;
    for (let i = 0; i < 600; i++) sum += 2 * ((i * 7919) % 600) + 1;
    const shipped = { sum, sorted: true, plus: ((7 * 7919) % 600) + 1 };
    expect(lastJson('app.mjs', (await plainRuns()).mjs)).toEqual({
      sum: expectedSum,
      plus: 8,
      processes: 499_500,
      ndarray: true,
      distributed: 'MissingPackageError ioredis',
      shipping: { threads: shipped, processes: shipped },
    });
  }, 60_000);

  test('plain node, CommonJS: require() gets the one ESM build (results are its NDArray)', async () => {
    expect(lastJson('app.cjs', (await plainRuns()).cjs)).toEqual({
      sum: expectedSum,
      ndarray: true,
    });
  }, 60_000);

  test('tsx: a .ts program whose .ts kernel module runs on worker threads', async () => {
    expect(lastJson('tsx app.ts', (await tsxRuns()).ts)).toEqual({ sum: expectedSum, plus: 8 });
  }, 60_000);

  // tsx runs a .cts file through the ESM loader, whose require() on Node 20 cannot link an ES
  // module while tsx's hooks are registered; and tsx's require hook would compile the ESM
  // build of a .cjs file's require() into a second, CommonJS copy (its NDArray not the one
  // compute checks for). dist/index.cjs loads the ESM build past both.
  test('tsx, .cts: require() gets the one ESM build', async () => {
    expect(lastJson('tsx app.cts', (await tsxRuns()).cts)).toEqual({ sum: 499_500, ndarray: true });
  }, 60_000);

  test('tsx, .cjs: require() gets the one ESM build, not a second copy compiled by tsx', async () => {
    expect(lastJson('tsx app.cjs', (await tsxRuns()).cjs)).toEqual({
      sum: expectedSum,
      ndarray: true,
    });
  }, 60_000);

  test.each(['app.mjs', 'app.cjs'])(
    'a bundler (vite, SSR build) resolves and bundles %s',
    async (entry) => {
      const { build } = await import('vite');
      const out = await build({
        root: app,
        configFile: false,
        logLevel: 'silent',
        ssr: { noExternal: true },
        build: { ssr: entry, write: false, rollupOptions: { external: ['webgpu'] } },
      });
      const chunks = (Array.isArray(out) ? out[0]! : out) as {
        output: { code?: string; moduleIds?: string[] }[];
      };
      const modules = chunks.output.flatMap((c) => c.moduleIds ?? []);
      const code = chunks.output.map((c) => c.code ?? '').join('\n');
      // the package's build is in the bundle, through the entry its export condition picks
      const condition = entry === 'app.cjs' ? 'index.cjs' : 'index.js';
      expect(modules).toContain(join(app, 'node_modules/tessera/dist', condition));
      expect(modules).toContain(join(app, 'node_modules/tessera/dist/workers/pool.js'));
      expect(code).toContain('ThreadPoolExecutor.shutdown: the pool was shut down');
    },
    60_000,
  );

  test.each([
    ['module NodeNext, no skipLibCheck', 'tsconfig.nodenext.json'],
    ["tsc --init's defaults", 'tsconfig.json'],
  ])(
    'tsc --noEmit passes (%s)',
    async (_, project) => {
      expect(existsSync(join(app, project))).toBe(true);
      const r = (await tscRuns())[project as 'tsconfig.json']!;
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    },
    60_000,
  );

  test('the tessera command prints its version, and a bad argument as one line with exit code 1', () => {
    const bin = join(app, 'node_modules/.bin/tessera');
    const version = JSON.parse(
      readFileSync(join(dirname(tarball), 'app/node_modules/tessera/package.json'), 'utf8'),
    ).version;
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()).toBe(version);
    const bad = spawnSync(bin, ['demo', '--channels', 'many'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split('\n')).toEqual([
      "error: option '--channels <n>' argument 'many' is invalid. not a positive integer.",
    ]);
  }, 30_000);
});
