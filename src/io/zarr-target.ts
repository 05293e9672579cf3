// Where toZarr writes: what already lives at the target path (an array, a group, nothing),
// refused unless the caller asked to overwrite an array, which is then removed whole.

import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type * as Zarr from 'zarrita';
import { ValueError } from '../errors.ts';
import type { ZarrStoreRef } from './zarr-io.ts';

type Node = 'array' | 'group' | undefined;

async function nodeAt(store: Zarr.Readable, location: Zarr.Location<Zarr.Readable>): Promise<Node> {
  const v3 = await store.get(location.resolve('zarr.json').path);
  if (v3 !== undefined) {
    const doc = JSON.parse(new TextDecoder().decode(v3)) as { node_type?: string };
    return doc.node_type === 'group' ? 'group' : 'array';
  }
  if ((await store.get(location.resolve('.zarray').path)) !== undefined) return 'array';
  if ((await store.get(location.resolve('.zgroup').path)) !== undefined) return 'group';
  return undefined;
}

/**
 * Make room for a new array at `location`: nothing there is fine; an array is removed when
 * `overwrite` is set (an array node has no children: its directory is its chunks and
 * metadata) and refused otherwise; a group is always refused.
 * @example
 * await clearTarget(store, location, ref, 'out.zarr', false); // throws if an array is there
 */
export async function clearTarget(
  store: Zarr.Readable,
  location: Zarr.Location<Zarr.Readable>,
  ref: ZarrStoreRef,
  target: string,
  overwrite: boolean,
): Promise<void> {
  const node = await nodeAt(store, location);
  if (node === undefined) return;
  const where = `${JSON.stringify(target)} path ${JSON.stringify(location.path)}`;
  if (node === 'group') {
    throw new ValueError(
      `toZarr: ${where} is a Zarr group; toZarr writes arrays and does not replace groups`,
    );
  }
  if (!overwrite) {
    throw new ValueError(
      `toZarr: ${where} holds a Zarr array already; pass { overwrite: true } to replace it`,
    );
  }
  if (ref.kind !== 'fs') {
    throw new ValueError(`toZarr: cannot remove the array at ${where}: not a filesystem store`);
  }
  await rm(join(ref.root, location.path), { recursive: true, force: true });
}
