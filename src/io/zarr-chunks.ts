// Checked chunk reads: a zarrita array extension that names the chunk key when a chunk fails to
// decode or decodes to more or fewer elements than its chunk shape (a truncated or over-long file).

import type * as Zarr from 'zarrita';
import { ValueError } from '../errors.ts';

type AnyArray = Zarr.Array<Zarr.DataType, Zarr.Readable>;
type ZarrModule = typeof Zarr;

/** Encodes chunk coordinates as the key of the chunk inside its array (Zarr v3 §chunk keys). */
export type ChunkKeyEncoder = (coords: readonly number[]) => string;

interface KeyEncoding {
  readonly name?: string;
  readonly configuration?: { readonly separator?: string };
}

async function readJson(
  store: Zarr.Readable,
  key: string,
): Promise<Record<string, unknown> | undefined> {
  const bytes = await store.get(key as `/${string}`);
  if (bytes === undefined) return undefined;
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
}

/**
 * How the array at `arr` names its chunks: from zarr.json's chunk_key_encoding (v3) or the
 * .zarray's dimension_separator (v2).
 * @example
 * const key = await chunkKeyEncoder(arr); // key([0, 1]) === 'c/0/1'
 */
export async function chunkKeyEncoder(arr: AnyArray): Promise<ChunkKeyEncoder> {
  const v3 = await readJson(arr.store, arr.resolve('zarr.json').path);
  if (v3 !== undefined) {
    const enc = (v3.chunk_key_encoding ?? {}) as KeyEncoding;
    const sep = enc.configuration?.separator ?? (enc.name === 'v2' ? '.' : '/');
    return enc.name === 'v2' ? (c) => c.join(sep) || '0' : (c) => ['c', ...c].join(sep);
  }
  const v2 = await readJson(arr.store, arr.resolve('.zarray').path);
  const sep = (v2?.dimension_separator as string | undefined) ?? '.';
  return (c) => c.join(sep) || '0';
}

/**
 * A missing chunk of an int64 or uint64 array whose fill_value is null (Zarr v2 allows it):
 * zeros, what zarrita gives other dtypes there (its own fill of a BigInt array with null
 * throws).
 */
function zeroChunk(arr: AnyArray): Zarr.Chunk<Zarr.DataType> {
  const shape = [...arr.chunks];
  const n = shape.reduce((a, b) => a * b, 1);
  const stride = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const data = arr.dtype === 'int64' ? new BigInt64Array(n) : new BigUint64Array(n);
  return { data, shape, stride } as Zarr.Chunk<Zarr.DataType>;
}

/**
 * `arr`, its chunk reads checked: a chunk that cannot be decoded, or whose decoded data is
 * not one element per cell of the chunk shape, throws ValueError naming its key. Missing
 * chunks still read as the fill value, as the spec says (0 for a null one).
 * @example
 * const checked = await withCheckedChunks(zarr, arr, 'data.zarr');
 * await zarr.get(checked, null); // rejects on a truncated chunk file
 */
export async function withCheckedChunks(
  zarr: ZarrModule,
  arr: AnyArray,
  where: string,
): Promise<AnyArray> {
  const keyOf = await chunkKeyEncoder(arr);
  const expected = arr.chunks.reduce((a, b) => a * b, 1);
  const describe = (coords: readonly number[]): string =>
    `fromZarr: chunk '${keyOf(coords)}' of array '${arr.path}' in ${where}`;
  const nullBigFill = (arr.dtype === 'int64' || arr.dtype === 'uint64') && arr.fillValue == null;
  const extend = zarr.defineArrayExtension((inner) => ({
    async getChunk(coords, options, opts) {
      let chunk: Zarr.Chunk<Zarr.DataType>;
      try {
        chunk = await inner.getChunk(coords, options, opts);
      } catch (e) {
        if (nullBigFill && (await arr.store.get(arr.resolve(keyOf(coords)).path)) === undefined) {
          return zeroChunk(arr);
        }
        throw new ValueError(`${describe(coords)} cannot be decoded: ${(e as Error).message}`, {
          cause: e,
        });
      }
      const got = (chunk.data as { length: number }).length;
      if (got !== expected) {
        throw new ValueError(
          `${describe(coords)} holds ${got} elements, not the ${expected} of its chunk shape ` +
            `[${arr.chunks.join(', ')}] (the chunk is ${got < expected ? 'truncated' : 'over-long'})`,
        );
      }
      return chunk;
    },
  }));
  return extend(arr) as AnyArray;
}
