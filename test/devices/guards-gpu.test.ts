// Transfer guards with a GPU: computing GPU arrays, mixing devices, user functions on GPU
// inputs and ops the GPU lacks raise TransferGuardError when the expression is built (before
// any task runs), and run with the right values when allowed. Needs a WebGPU adapter.

import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import {
  blockwise,
  compute,
  cumsum,
  disableGuards,
  type Executor,
  fromArray,
  type LazyArray,
  lazyApply,
  mapBlocks,
  NDArray,
  ndarray,
  shutdown,
  TransferGuardError,
  toDevice,
  withDevice,
  zeros,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { announceTier, expectClose, hasGpu } from './tier.ts';

announceTier('guards-gpu');
afterAll(async () => {
  await shutdown();
}, 60_000);

const data = Float32Array.from({ length: 6 * 8 }, (_, i) => Math.sin(i) * 4);
const host = (): LazyArray => fromArray(ndarray(data, [6, 8], 'float32'), { chunks: [3, 4] });

/** The TransferGuardError `f` throws (failing otherwise). */
function guardOf(f: () => unknown): TransferGuardError {
  try {
    f();
  } catch (e) {
    expect(e, String(e)).toBeInstanceOf(TransferGuardError);
    return e as TransferGuardError;
  }
  return expect.unreachable('expected a TransferGuardError');
}

/** The error a promise rejects with. */
async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => expect.unreachable('expected a rejection'),
    (e: unknown) => e,
  );
}

/** An executor that fails the test if any task reaches it. */
const noTasks: Executor = {
  name: 'no-tasks',
  concurrency: 1,
  run: async () => expect.unreachable('no task may run'),
};

describe.runIf(hasGpu)('GPU arrays and compute', () => {
  test("toDevice(x, 'gpu') is on the GPU; the same device returns it; 'gpu:0' is accepted", () => {
    const x = host();
    const g = toDevice(x, 'gpu');
    expect(g.device).toBe('gpu');
    expect(g.shape).toEqual([6, 8]);
    expect(g.dtype).toBe('float32');
    expect(g.layer.backend?.name).toBe('webgpu');
    expect(toDevice(g, 'gpu')).toBe(g);
    expect(toDevice(x, 'gpu:0').device).toBe('gpu:0');
  });

  test('a device index beyond the adapters is a ValueError naming what was found', () => {
    expectThrow(() => toDevice(host(), 'gpu:7'), 'ValueError', [
      "toDevice: no device 'gpu:7'",
      'adapter(s) found',
    ]);
    expectThrow(() => withDevice('gpu:7', () => 1), 'ValueError', [
      "withDevice: no device 'gpu:7'",
    ]);
  });

  test('compute(gpuArray) is refused before any task runs, with the transfer in its fields', async () => {
    const g = toDevice(host(), 'gpu');
    let stats = false;
    const progress: unknown[] = [];
    const e = await rejectionOf(
      compute(g, {
        scheduler: noTasks,
        onStats: () => {
          stats = true;
        },
        progress: (ev) => progress.push(ev),
      }),
    );
    expect(e).toBeInstanceOf(TransferGuardError);
    const t = e as TransferGuardError;
    expect(t.from).toBe('gpu');
    expect(t.to).toBe('cpu');
    expect(t.bytes).toBe(g.nbytes);
    expect(t.bytes).toBe(6 * 8 * 4);
    expect(t.array).toBe(g.name);
    expect(t.message).toMatch(/^compute: transfer of /);
    expect(stats).toBe(false);
    expect(progress).toEqual([]);
  });

  test('compute of several arrays is refused for the GPU one; a reduction reports its own bytes', async () => {
    const g = toDevice(host(), 'gpu');
    const e = (await rejectionOf(
      compute(host(), g.sum(), { scheduler: noTasks }),
    )) as TransferGuardError;
    expect(e).toBeInstanceOf(TransferGuardError);
    expect(e.bytes).toBe(4);
    expect(e.array).toBe(g.sum().name);
  });

  test('compute(g, { allowTransfer: true }) equals the CPU result', async () => {
    const g = toDevice(host(), 'gpu');
    const got = await compute(g, { allowTransfer: true });
    expect(got).toBeInstanceOf(NDArray);
    expect(got.shape).toEqual([6, 8]);
    expect(got.dtype).toBe('float32');
    expect(Array.from(got.data as NumberArray)).toEqual(Array.from(data));
    const y = await compute(g.mul(2).add(1), { allowTransfer: true });
    expectClose(y.data, (await compute(host().mul(2).add(1))).data);
  });

  test('disableGuards(() => compute(g)) works and leaves the guards on after', async () => {
    const g = toDevice(host(), 'gpu');
    const got = await disableGuards(() => compute(g.mul(3)));
    expectClose(
      got.data,
      Array.from(data, (v) => v * 3),
    );
    await expect(compute(g.mul(3))).rejects.toBeInstanceOf(TransferGuardError);
  });

  test("compute(toDevice(g, 'cpu')) needs no permission", async () => {
    const g = toDevice(host(), 'gpu');
    const back = toDevice(g.add(1), 'cpu');
    expect(back.device).toBe('cpu');
    const got = await compute(back);
    expectClose(
      got.data,
      Array.from(data, (v) => v + 1),
    );
    expect((await compute(toDevice(g.sum(), 'cpu'))).data[0]).toBeCloseTo(
      data.reduce((a, v) => a + v, 0),
      3,
    );
  });

  test('allowTransfer must be a boolean', async () => {
    const g = toDevice(host(), 'gpu');
    const e = await rejectionOf(compute(g, { allowTransfer: 1 as never }));
    expect((e as Error).message).toMatch(/^compute: allowTransfer .+ must be a boolean/);
  });
});

describe.runIf(hasGpu)('mixing devices', () => {
  test('g.add(cpuArray) and cpuArray.add(g) are refused when built', () => {
    const x = host();
    const g = toDevice(host().mul(2), 'gpu');
    for (const build of [() => g.add(x), () => x.add(g), () => g.mul(x).add(1)]) {
      const e = guardOf(build);
      expect(e.from).toBe('cpu');
      expect(e.to).toBe('gpu');
      expect(e.bytes).toBe(x.nbytes);
      expect(e.array).toBe(x.name);
    }
    expect(guardOf(() => g.add(x)).message).toMatch(/^add: /);
  });

  test('scalars mix freely', () => {
    const g = toDevice(host(), 'gpu');
    expect(g.add(2).mul(0.5).device).toBe('gpu');
  });

  test('inside disableGuards the mix runs on the GPU with the right values', async () => {
    const x = host();
    const g = toDevice(host(), 'gpu');
    const y = disableGuards(() => g.add(x));
    expect(y.device).toBe('gpu');
    const got = await compute(y, { allowTransfer: true });
    expectClose(
      got.data,
      Array.from(data, (v) => v + v),
    );
    const z = await disableGuards(() => compute(x.mul(g).sub(x)));
    expectClose(
      z.data,
      Array.from(data, (v) => v * v - v),
    );
  });
});

const plusOne = (b: NDArray) => Float32Array.from(b.data as Float32Array, (v) => v + 1);

describe.runIf(hasGpu)('user functions on GPU inputs', () => {
  test('lazyApply, mapBlocks and blockwise of a GPU input are refused when built', () => {
    const g = toDevice(host(), 'gpu');
    const cases: [string, () => unknown][] = [
      ['lazyApply', () => lazyApply(plusOne, g)],
      ['lazyApply', () => lazyApply(plusOne, g, { asHost: true })],
      ['mapBlocks', () => mapBlocks(plusOne, g, { dtype: 'float32' })],
      ['blockwise', () => blockwise(plusOne, 'ij', g, 'ij', { dtype: 'float32' })],
    ];
    for (const [fn, build] of cases) {
      const e = guardOf(build);
      expect(e.message.startsWith(`${fn}: `), e.message).toBe(true);
      expect(e.from).toBe('gpu');
      expect(e.to).toBe('cpu');
      expect(e.bytes).toBe(g.nbytes);
      expect(e.array).toBe(g.name);
    }
  });

  test('allowed, they run on the host and give host arrays', async () => {
    const g = toDevice(host(), 'gpu');
    const want = Array.from(data, (v) => v + 1);
    const a = lazyApply(plusOne, g, { allowTransfer: true });
    const m = mapBlocks(plusOne, g, { dtype: 'float32', allowTransfer: true });
    const b = blockwise(plusOne, 'ij', g, 'ij', { dtype: 'float32', allowTransfer: true });
    const d = disableGuards(() => mapBlocks(plusOne, g, { dtype: 'float32' }));
    for (const y of [a, m, b, d]) {
      expect(y.device).toBe('cpu');
      expectClose((await compute(y)).data, want);
    }
  });

  test('lazyApply with asHost and allowTransfer moves the result back to the GPU', async () => {
    const g = toDevice(host(), 'gpu');
    let saw: string | undefined;
    const f = (b: NDArray) => {
      saw = b.constructor.name;
      return plusOne(b);
    };
    const y = lazyApply(f, g, { asHost: true, allowTransfer: true, inline: true });
    expect(y.device).toBe('gpu');
    expect(y.shape).toEqual([6, 8]);
    await expect(compute(y)).rejects.toBeInstanceOf(TransferGuardError);
    const got = await compute(y.mul(2), { allowTransfer: true });
    expectClose(
      got.data,
      Array.from(data, (v) => (v + 1) * 2),
    );
    expect(saw).toBe('NDArray');
  });
});

describe.runIf(hasGpu)('ops the GPU lacks', () => {
  test('cumsum and a float64 result are refused when built', () => {
    const g = toDevice(host(), 'gpu');
    for (const build of [() => cumsum(g, { axis: 0 }), () => g.astype('float64')]) {
      const e = guardOf(build);
      expect(e.from).toBe('gpu');
      expect(e.to).toBe('cpu');
      expect(e.bytes).toBe(g.nbytes);
    }
  });

  test('inside disableGuards they run on the CPU with the right values', async () => {
    const g = toDevice(host(), 'gpu');
    const c = disableGuards(() => cumsum(g, { axis: 0 }));
    const f64 = disableGuards(() => g.astype('float64'));
    expect(c.device).toBe('cpu');
    expect(f64.device).toBe('cpu');
    expect(f64.dtype).toBe('float64');
    expectClose((await compute(c)).data, (await compute(cumsum(host(), { axis: 0 }))).data);
    const got = await compute(f64);
    expect(got.dtype).toBe('float64');
    expect(Array.from(got.data as NumberArray)).toEqual(Array.from(data));
  });
});

describe.runIf(hasGpu)('float64 is not a GPU dtype', () => {
  // float64 sources (the creation default) cannot live in GPU buffers: whether refused when
  // built or when run, the error names float64 and the way out, astype('float32')
  test("withDevice('gpu', () => zeros([4])) says float64 has no GPU type", async () => {
    let e: unknown;
    try {
      const z = withDevice('gpu', () => zeros([4], { chunks: 2 }));
      e = await rejectionOf(compute(z, { allowTransfer: true }));
    } catch (err) {
      e = err;
    }
    expect(String((e as Error).message)).toContain('float64');
    expect(String((e as Error).message)).toContain("astype('float32')");
  });
});
