// A 3-D image volume through Zarr: a synthetic 256³ float32 scan with a bright sphere is
// written to a Zarr v3 store block by block, opened again lazily, and reduced to a
// maximum-intensity projection and a per-slice profile on the worker pool; the sphere is
// found where it was put.
//
//   npx tsx examples/04-zarr-volume.ts

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compute, fromFunction, fromZarr, type NDArray, shutdown, toZarr } from '../src/index.ts';

const n = 256;
const center = [96, 160, 128];
const radius = 40;
const dir = mkdtempSync(join(tmpdir(), 'tessera-example-'));
const store = join(dir, 'scan.zarr');

// 1. A synthetic scan: background 10, a sphere of 100 centred at `center` with `radius` (a
//    self-contained function, shipped to the workers by its source, so its numbers are
//    written out in it).
const scan = fromFunction(
  (z: number, y: number, x: number) =>
    (z - 96) ** 2 + (y - 160) ** 2 + (x - 128) ** 2 <= 40 ** 2 ? 100 : 10,
  { shape: [n, n, n], dtype: 'float32', chunks: 64 },
);

// 2. Written to Zarr: one task per 64³ block, on the worker threads.
let t0 = performance.now();
await toZarr(scan, store, { path: 'raw' });
console.log(`wrote ${n}³ float32 to ${store} in ${((performance.now() - t0) / 1000).toFixed(2)} s`);

// 3. Opened lazily (only the metadata is read) and reduced.
t0 = performance.now();
const volume = await fromZarr(store, { path: 'raw' });
console.log(
  `opened: shape ${volume.shape.join(' × ')}, chunks ${volume.chunks.map((c) => c[0]).join(' × ')}`,
);
const [mip, profile] = await compute(volume.max({ axis: 0 }), volume.mean({ axis: [1, 2] }));
console.log(`projection and profile in ${((performance.now() - t0) / 1000).toFixed(2)} s`);

// 4. The sphere is where it was put: its projection is a disc of the right area, and the
//    slice profile peaks at the sphere's centre.
const disc = (mip as NDArray).data.filter((v) => v === 100).length;
const expected = Math.PI * radius * radius;
assert.ok(
  Math.abs(disc - expected) / expected < 0.03,
  `disc area ${disc} vs ${expected.toFixed(0)}`,
);
const p = (profile as NDArray).toArray();
const peak = p.indexOf(Math.max(...p));
assert.equal(peak, center[0]);
console.log(`disc area ${disc} (expected ≈ ${expected.toFixed(0)}), brightest slice z = ${peak}`);

rmSync(dir, { recursive: true, force: true });
await shutdown();
