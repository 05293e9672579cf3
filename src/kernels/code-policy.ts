// Which code a worker (distributed or process pool) agrees to load for a task: built-in kernels
// always, kernel modules only under the roots it was started with, kernels by source only when allowed.

import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { KernelError, TaskError } from '../errors.ts';
import type { TaskPayload } from '../workers/types.ts';
import { kernelLabel } from './run-task.ts';

/**
 * What code tasks may load: modules only from files under `roots` (real paths) or tessera's
 * own code; functions shipped by source text only when `allowSource` (that runs arbitrary code).
 * Plain data: it travels to child processes as JSON.
 */
export interface CodePolicy {
  readonly roots: readonly string[];
  readonly allowSource: boolean;
}

/** What a worker is allowed to run: the kernel modules it may import and whether shipped source text is accepted. */
export interface CodePolicyOptions {
  /** Directories or package names whose modules may hold kernels (defineKernels, backends). */
  readonly kernels?: readonly string[];
  /** Allow kernels shipped by source text: anyone who can send a task then runs any code. */
  readonly allowSource?: boolean;
}

// tessera's own code (src/ when run from source, dist/ when built): its backends always load.
const BUILTIN_ROOT = realpathSync(fileURLToPath(new URL('..', import.meta.url)));

/**
 * A code policy with each root resolved to its real path (a package name to its folder).
 * @example
 * const policy = createCodePolicy({ kernels: ['./kernels', 'my-kernels-pkg'] });
 */
export function createCodePolicy(
  opts: CodePolicyOptions = {},
  caller = 'createCodePolicy',
): CodePolicy {
  const roots = (opts.kernels ?? []).map((r) => resolveRoot(r, caller));
  return { roots, allowSource: opts.allowSource === true };
}

function resolveRoot(root: string, caller: string): string {
  if (typeof root !== 'string' || root.length === 0) {
    throw new KernelError(
      `${caller}: kernel root ${JSON.stringify(root)} is not a path or package name`,
    );
  }
  const asPath = root.startsWith('file:') ? fileURLToPath(root) : resolvePath(root);
  if (existsSync(asPath)) return realpathSync(asPath);
  // a package name: the first node_modules folder on Node's lookup path that has it
  const lookup = createRequire(join(process.cwd(), 'index.js')).resolve.paths(root) ?? [];
  for (const dir of lookup) {
    const candidate = join(dir, root);
    if (existsSync(candidate)) return realpathSync(candidate);
  }
  throw new KernelError(
    `${caller}: kernel root ${JSON.stringify(root)} is neither a folder nor an installed package`,
  );
}

const inside = (file: string, root: string): boolean => {
  const rel = relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** Why `url` may not be imported under `policy`, or undefined when it may. Never imports it. */
export function moduleRefusal(policy: CodePolicy, url: unknown): string | undefined {
  if (typeof url !== 'string') return `a module reference ${JSON.stringify(url)} is not a URL`;
  let file: string;
  try {
    const u = new URL(url);
    if (u.protocol !== 'file:') {
      return `module ${JSON.stringify(url.slice(0, 80))} is not a file: URL; only files under the worker's kernel roots load (--kernels <dir|package>)`;
    }
    file = fileURLToPath(u);
  } catch {
    return `module ${JSON.stringify(url.slice(0, 80))} is not a valid URL`;
  }
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return `module ${JSON.stringify(url)} does not exist on this worker`;
  }
  if (inside(real, BUILTIN_ROOT) || policy.roots.some((r) => inside(real, r))) return undefined;
  return `module ${JSON.stringify(pathToFileURL(real).href)} is outside the worker's kernel roots (${
    policy.roots.length === 0 ? 'none given' : policy.roots.join(', ')
  }); start the worker with --kernels <dir|package> naming a folder that holds it`;
}

const SOURCE_REFUSAL =
  'kernels shipped by source text are refused (they run arbitrary code); start the worker with ' +
  '--allow-source (ProcessPoolExecutor: codePolicy with allowSource: true) to allow them, or export the kernel with defineKernels from a module under --kernels';

/**
 * Why `task` may not run under `policy`, or undefined. Every object in its params whose
 * `kind` is 'source' or 'module' counts, however deep or malformed, and its backend module.
 */
export function taskRefusal(
  policy: CodePolicy,
  task: Pick<TaskPayload, 'params' | 'backend'>,
): string | undefined {
  if (task.backend?.module !== undefined) {
    const why = moduleRefusal(policy, task.backend.module);
    if (why !== undefined) return `backend '${String(task.backend.name)}': ${why}`;
  }
  const seen = new Set<object>();
  const stack: unknown[] = [task.params];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v) || seen.has(v)) continue;
    seen.add(v);
    const kind = (v as { kind?: unknown }).kind;
    if (kind === 'source' && !policy.allowSource) return SOURCE_REFUSAL;
    if (kind === 'module') {
      const why = moduleRefusal(policy, (v as { url?: unknown }).url);
      if (why !== undefined) return why;
    }
    if (v instanceof Map) for (const [k, e] of v) stack.push(k, e);
    else if (v instanceof Set) for (const e of v) stack.push(e);
    else for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
  }
  return undefined;
}

/**
 * Throw TaskError (its cause a KernelError naming the policy and the flag) for the first task
 * of `tasks` the policy refuses; nothing is imported or compiled.
 * @example
 * checkTasksCode(createCodePolicy({ kernels: ['./kernels'] }), tasks, 'tessera worker');
 */
export function checkTasksCode(
  policy: CodePolicy,
  tasks: readonly TaskPayload[],
  caller: string,
): void {
  for (const task of tasks) {
    const why = taskRefusal(policy, task);
    if (why === undefined) continue;
    const label = typeof task.kernel === 'string' ? kernelLabel(task) : '?';
    throw new TaskError(String(task.key), label, new KernelError(`${caller}: code policy: ${why}`));
  }
}
