// Entry checks of the file-path arguments of fromNpy, fromZarr and toZarr: a string, and for
// local paths a readable file or a writable place, reported as ValueErrors naming the path.

import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe } from '../array/check-options.ts';
import { ValueError } from '../errors.ts';

/** `path` must be a non-empty string. */
export function checkPathArg(fn: string, label: string, path: unknown): string {
  if (typeof path !== 'string' || path === '') {
    throw new ValueError(`${fn}: ${label} ${describe(path)} is not a path (a non-empty string)`);
  }
  return path;
}

/** A local path that names a regular file (a directory is refused with its name). */
export function checkFilePath(fn: string, path: unknown): string {
  const p = checkPathArg(fn, 'path', path);
  let isDir = false;
  try {
    isDir = statSync(p).isDirectory();
  } catch {
    return p; // missing or unreadable: the open reports it, naming the path
  }
  if (isDir) throw new ValueError(`${fn}: ${JSON.stringify(p)} is a directory, not a file`);
  return p;
}

/**
 * A local directory `target` can be created in or written: its nearest existing ancestor must
 * be a writable directory, and `target` itself, if present, a directory.
 */
export function checkWritableDir(fn: string, target: string): void {
  let p = resolve(target);
  for (;;) {
    let st: ReturnType<typeof statSync> | undefined;
    try {
      st = statSync(p);
    } catch {
      st = undefined;
    }
    if (st !== undefined) {
      if (!st.isDirectory()) {
        throw new ValueError(
          `${fn}: cannot write ${JSON.stringify(target)}: ${JSON.stringify(p)} is not a directory`,
        );
      }
      try {
        accessSync(p, constants.W_OK);
      } catch {
        throw new ValueError(
          `${fn}: cannot write ${JSON.stringify(target)}: ${JSON.stringify(p)} is not writable`,
        );
      }
      return;
    }
    const up = dirname(p);
    if (up === p) return;
    p = up;
  }
}
