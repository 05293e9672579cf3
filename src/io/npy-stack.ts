// toNpyStack and fromNpyStack (dask.array.to_npy_stack / from_npy_stack): one .npy file per
// block along an axis plus an info.json (Dask pickles its info; tessera writes JSON).

import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { normalizeAxis } from '../apply/axis-args.ts';
import { concat } from '../apply/concat.ts';
import { rechunk } from '../apply/rechunk.ts';
import { describe } from '../array/check-options.ts';
import type { ComputeOptions } from '../array/compute.ts';
import { computeBlocks } from '../array/compute.ts';
import { checkComputeOptions } from '../array/compute-options.ts';
import { type DType, isDType } from '../array/dtype.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { TaskSpec } from '../graph/layer.ts';
import { checkPathArg, checkWritableDir } from './check-path.ts';
import { fromNpy } from './npy.ts';
import type { NpyFileWriteParams } from './npy-write.ts';
import { knownChunks, partialName } from './to-npy.ts';

/** Options of toNpyStack: compute options, and the axis the files split. */
export interface ToNpyStackOptions extends ComputeOptions {
  /** The axis split into one file per chunk (default 0); other axes are made whole. */
  readonly axis?: number;
}

/** What info.json records: the chunks along every axis, the dtype and the split axis. */
interface StackInfo {
  readonly format: 'tessera-npy-stack';
  readonly version: 1;
  readonly chunks: number[][];
  readonly dtype: DType;
  readonly axis: number;
}

const INFO = 'info.json';

/**
 * Compute `x` into the directory `dir` as one .npy file per chunk along `axis` (default 0),
 * named `0.npy`, `1.npy`, … in order, as dask.array.to_npy_stack; other axes are first
 * rechunked whole. Each file is written by its own task (under a temporary name, then
 * renamed); `info.json` (chunks, dtype, axis) is written last, so fromNpyStack refuses a
 * directory whose write failed or was interrupted. `dir` must be missing or empty.
 * @example
 * await toNpyStack('frames', video, { axis: 0 });
 * const back = fromNpyStack('frames'); // same chunks along axis 0
 */
export async function toNpyStack(
  dir: string,
  x: LazyArray,
  stackOpts?: ToNpyStackOptions,
): Promise<void> {
  const fn = 'toNpyStack';
  if (!(x instanceof LazyArray)) throw new ValueError(`${fn}: ${describe(x)} is not a LazyArray`);
  const root = resolve(checkPathArg(fn, 'dir', dir));
  const { axis: given, ...rest } = stackOpts ?? {};
  const computeOpts = checkComputeOptions(fn, rest);
  if (x.ndim === 0) throw new ValueError(`${fn}: a 0-d array has no axis to split`);
  const axis = normalizeAxis(fn, given ?? 0, x.ndim);
  checkWritableDir(fn, root);
  if (existsSync(root) && readdirSync(root).length > 0) {
    throw new ValueError(`${fn}: ${JSON.stringify(dir)} is not empty; write to a new directory`);
  }
  knownChunks(fn, x);
  const whole = x.chunks.every((c, ax) => ax === axis || c.length === 1);
  const src = whole
    ? x
    : rechunk(x, Object.fromEntries(x.chunks.flatMap((_, ax) => (ax === axis ? [] : [[ax, -1]]))));
  const chunks = src.chunks as number[][];
  mkdirSync(root, { recursive: true });
  const writes = defineLayer({
    op: 'to-npy-stack',
    token: [root],
    deps: [src.layer],
    chunks: chunks.map((c) => c.map(() => 1)),
    dtype: 'float64',
    task: (b): TaskSpec => {
      const path = join(root, `${b[axis]}.npy`);
      const params: NpyFileWriteParams = { partial: partialName(path), path };
      return { kernel: 'npy-file-write', inputs: [[0, b]], params };
    },
  });
  await computeBlocks([writes], computeOpts);
  const info: StackInfo = { format: 'tessera-npy-stack', version: 1, chunks, dtype: x.dtype, axis };
  const infoPath = join(root, INFO);
  writeFileSync(`${infoPath}.partial`, JSON.stringify(info));
  renameSync(`${infoPath}.partial`, infoPath);
}

function readInfo(fn: string, dir: string): StackInfo {
  let text: string;
  try {
    text = readFileSync(join(dir, INFO), 'utf8');
  } catch {
    throw new ValueError(
      `${fn}: ${JSON.stringify(dir)} has no ${INFO}: not a stack toNpyStack finished writing`,
    );
  }
  const info = JSON.parse(text) as Partial<StackInfo>;
  const ok =
    info.format === 'tessera-npy-stack' &&
    Array.isArray(info.chunks) &&
    info.chunks.every(
      (c) => Array.isArray(c) && c.every((n) => Number.isSafeInteger(n) && n >= 0),
    ) &&
    isDType(info.dtype) &&
    Number.isInteger(info.axis) &&
    info.axis! >= 0 &&
    info.axis! < info.chunks.length;
  if (!ok)
    throw new ValueError(`${fn}: ${JSON.stringify(join(dir, INFO))} is not a tessera stack's info`);
  return info as StackInfo;
}

/**
 * The lazy array stored in `dir` by toNpyStack (dask.array.from_npy_stack): one block per
 * file along the recorded axis, each read by its own task. A file whose shape or dtype
 * disagrees with info.json is a ValueError.
 * @example
 * const x = fromNpyStack('frames');
 * x.chunks[0]; // the chunks toNpyStack wrote
 */
export function fromNpyStack(dir: string): LazyArray<true> {
  const fn = 'fromNpyStack';
  const root = resolve(checkPathArg(fn, 'dir', dir));
  const info = readInfo(fn, root);
  const shapeOf = (k: number) =>
    info.chunks.map((c, ax) => (ax === info.axis ? c[k]! : c.reduce((s, n) => s + n, 0)));
  const parts = info.chunks[info.axis]!.map((_, k) => {
    const part = fromNpy(join(root, `${k}.npy`), { chunks: -1 });
    const want = shapeOf(k);
    if (
      part.dtype !== info.dtype ||
      part.shape.some((n, ax) => n !== want[ax]) ||
      part.ndim !== want.length
    ) {
      throw new ValueError(
        `${fn}: ${k}.npy holds ${part.dtype} of shape (${part.shape.join(', ')}); info.json says ${info.dtype} of shape (${want.join(', ')})`,
      );
    }
    return part;
  });
  return parts.length === 1 ? parts[0]! : concat(parts, { axis: info.axis });
}
