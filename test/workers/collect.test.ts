// Collection of shared memory a thread holds only through old messages (workers/collect.ts):
// a thread that wrote blocks into results collects when it starts on a new result, or once
// idle, so results their callers dropped do not stay alive through the thread's references.

import { setImmediate as tick } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { emptyNDArray, type NDArray } from '../../src/array/ndarray.ts';
import type { OutputPlace } from '../../src/array/output-place.ts';
import { busy, collectWhenIdle, notePlaces } from '../../src/workers/collect.ts';

const placeIn = (result: NDArray): OutputPlace => ({ result, at: [0], shape: [1] });

/** A result noted as written into, reachable afterwards only through the returned WeakRef. */
function writtenResult(threshold: number): WeakRef<NDArray> {
  const r = emptyNDArray([1024], 'float64');
  notePlaces([placeIn(r)], threshold);
  notePlaces([placeIn(r)], threshold); // a second block of the same result counts once
  return new WeakRef(r);
}

test('the first block of a new result collects once earlier results reach the threshold', async () => {
  const old = writtenResult(1 << 20);
  await tick();
  const next = emptyNDArray([1024], 'float64');
  notePlaces([placeIn(next)], 1 << 30); // below: no collection yet
  await tick();
  expect(old.deref()).toBeDefined();
  await tick(); // a deref keeps its target alive until the job ends
  notePlaces([placeIn(emptyNDArray([8], 'float64'))], 8192); // two results noted: collect
  await tick();
  expect(old.deref()).toBeUndefined();
  expect(next.size).toBe(1024);
});

test('an idle thread collects what it wrote into; work arriving cancels it', async () => {
  const first = writtenResult(1 << 30);
  await tick();
  collectWhenIdle(20, 1);
  busy(); // a batch came in
  await new Promise((r) => setTimeout(r, 60));
  expect(first.deref()).toBeDefined();
  await tick();
  collectWhenIdle(20, 1);
  await new Promise((r) => setTimeout(r, 60));
  expect(first.deref()).toBeUndefined();
});
