// Devices without a GPU: device names, toDevice/withDevice on the host, disableGuards scopes,
// guardTransfer and readAllowTransfer, and the errors when no adapter is there. Always run.

import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { guardsDisabled, guardTransfer, readAllowTransfer } from '../../src/devices/guards.ts';
import { probeGpu } from '../../src/devices/probe.ts';
import {
  arange,
  compute,
  disableGuards,
  isTesseraError,
  ones,
  parseDevice,
  shutdown,
  TransferGuardError,
  toDevice,
  ValueError,
  withDevice,
  zeros,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';

afterAll(async () => {
  await shutdown();
});

const BAD_DEVICES: unknown[] = [
  'GPU',
  'Cpu',
  'gpu:',
  'gpu:-1',
  'gpu:01',
  'gpu:1.5',
  'gpu: 1',
  ' gpu',
  'gpu1',
  'cuda',
  'cuda:0',
  '',
  0,
  3,
  null,
  undefined,
  true,
  {},
  ['gpu'],
];

describe('parseDevice', () => {
  test("accepts 'cpu', 'gpu' and 'gpu:N'", () => {
    expect(parseDevice('toDevice', 'cpu')).toBe('cpu');
    expect(parseDevice('toDevice', 'gpu')).toBe('gpu');
    expect(parseDevice('toDevice', 'gpu:0')).toBe('gpu:0');
    expect(parseDevice('toDevice', 'gpu:3')).toBe('gpu:3');
    expect(parseDevice('withDevice', 'gpu:12')).toBe('gpu:12');
  });

  test.each(BAD_DEVICES.map((v) => [v]))('rejects %j with a ValueError naming the caller', (v) => {
    expectThrow(() => parseDevice('toDevice', v), 'ValueError', /^toDevice: device must be/);
    expectThrow(() => parseDevice('withDevice', v), 'ValueError', /^withDevice: device must be/);
  });

  test.each(BAD_DEVICES.map((v) => [v]))(
    "toDevice(x, %j) is a ValueError starting 'toDevice:'",
    (v) => {
      const x = ones([4], { chunks: 2 });
      expectThrow(
        () => toDevice(x, v as never),
        'ValueError',
        /^toDevice: device must be 'cpu', 'gpu' or 'gpu:N', got /,
      );
    },
  );

  test.each(BAD_DEVICES.map((v) => [v]))(
    "withDevice(%j, fn) is a ValueError starting 'withDevice:' and never calls fn",
    (v) => {
      let called = false;
      expectThrow(
        () => withDevice(v as never, () => (called = true)),
        'ValueError',
        /^withDevice: device must be 'cpu', 'gpu' or 'gpu:N', got /,
      );
      expect(called).toBe(false);
    },
  );

  test('withDevice with a non-function is a ValueError', () => {
    expectThrow(
      () => withDevice('cpu', 42 as never),
      'ValueError',
      /^withDevice: expected a function/,
    );
  });
});

describe('the host device', () => {
  test("toDevice(x, 'cpu') of a CPU array returns x itself", () => {
    const x = arange(10, { chunks: 3 });
    expect(x.device).toBe('cpu');
    expect(toDevice(x, 'cpu')).toBe(x);
    const y = x.mul(2).add(1);
    expect(toDevice(y, 'cpu')).toBe(y);
  });

  test("withDevice('cpu') places arrays on the host, the same arrays as outside it", async () => {
    const inside = withDevice('cpu', () => zeros([4, 4], { chunks: 2 }));
    const outside = zeros([4, 4], { chunks: 2 });
    expect(inside.device).toBe('cpu');
    expect(inside.name).toBe(outside.name);
    expect(Array.from((await compute(inside)).data as NumberArray)).toEqual(new Array(16).fill(0));
  });

  test('withDevice returns what fn returns and rethrows what it throws', () => {
    expect(withDevice('cpu', () => 7)).toBe(7);
    expect(() =>
      withDevice('cpu', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
  });

  test('compute checks allowTransfer even for CPU arrays', async () => {
    const x = ones([3]);
    const e = await compute(x, { allowTransfer: 'yes' as never }).then(
      () => expect.unreachable('expected a rejection'),
      (err: unknown) => err,
    );
    expect(isTesseraError(e, 'ValueError')).toBe(true);
    expect((e as Error).message).toMatch(/^compute: allowTransfer .+ must be a boolean/);
    expect(Array.from((await compute(x, { allowTransfer: false })).data as NumberArray)).toEqual([
      1, 1, 1,
    ]);
    expect(Array.from((await compute(x, { allowTransfer: true })).data as NumberArray)).toEqual([
      1, 1, 1,
    ]);
  });
});

const guarded = () => guardTransfer('test', 'arr-1', 'gpu', 'cpu', 64);

describe('guardTransfer and readAllowTransfer', () => {
  test('a move between devices throws TransferGuardError with its fields', () => {
    let caught: unknown;
    try {
      guardTransfer('compute', 'arr-1', 'gpu', 'cpu', 4096);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(TransferGuardError);
    const e = caught as TransferGuardError;
    expect(e._tag).toBe('TransferGuardError');
    expect(e.array).toBe('arr-1');
    expect(e.from).toBe('gpu');
    expect(e.to).toBe('cpu');
    expect(e.bytes).toBe(4096);
    expect(e.message).toMatch(
      /^compute: transfer of 'arr-1' \(4096 bytes\) from gpu to cpu is guarded/,
    );
    expect(e.message).toContain('toDevice()');
    expect(e.message).toContain('allowTransfer');
    expect(e.message).toContain('disableGuards()');
  });

  test('unknown sizes report bytes -1', () => {
    expect(() => guardTransfer('add', 'a', 'cpu', 'gpu', null)).toThrow(TransferGuardError);
    try {
      guardTransfer('add', 'a', 'cpu', 'gpu', null);
    } catch (e) {
      expect((e as TransferGuardError).bytes).toBe(-1);
      expect((e as TransferGuardError).from).toBe('cpu');
      expect((e as TransferGuardError).to).toBe('gpu');
    }
  });

  test('the same device, allowTransfer, or disableGuards let it pass', () => {
    expect(() => guardTransfer('f', 'a', 'gpu', 'gpu', 8)).not.toThrow();
    expect(() => guardTransfer('f', 'a', 'cpu', 'cpu', 8)).not.toThrow();
    expect(() => guardTransfer('f', 'a', 'gpu', 'cpu', 8, true)).not.toThrow();
    expect(() => guardTransfer('f', 'a', 'gpu', 'cpu', 8, false)).toThrow(TransferGuardError);
    expect(() => disableGuards(guarded)).not.toThrow();
  });

  test('readAllowTransfer: undefined is false, booleans pass, anything else is a ValueError', () => {
    expect(readAllowTransfer('compute', undefined)).toBe(false);
    expect(readAllowTransfer('compute', true)).toBe(true);
    expect(readAllowTransfer('compute', false)).toBe(false);
    for (const v of ['true', 1, 0, null, {}, []]) {
      expectThrow(
        () => readAllowTransfer('lazyApply', v),
        'ValueError',
        /^lazyApply: allowTransfer must be a boolean, got /,
      );
    }
  });
});

describe('disableGuards', () => {
  test('returns what fn returns and allows transfers only inside', () => {
    expect(guardsDisabled()).toBe(false);
    expect(disableGuards(() => guardsDisabled())).toBe(true);
    expect(disableGuards(() => 'v')).toBe('v');
    expect(guardsDisabled()).toBe(false);
    expect(guarded).toThrow(TransferGuardError);
  });

  test('nests', () => {
    disableGuards(() => {
      disableGuards(() => expect(guardsDisabled()).toBe(true));
      expect(guardsDisabled()).toBe(true);
    });
    expect(guardsDisabled()).toBe(false);
  });

  test('restores the guards when fn throws', () => {
    expect(() =>
      disableGuards(() => {
        guarded();
        throw new Error('inside');
      }),
    ).toThrow('inside');
    expect(guardsDisabled()).toBe(false);
    expect(guarded).toThrow(TransferGuardError);
  });

  test('restores the guards when an async fn rejects', async () => {
    await expect(
      disableGuards(async () => {
        await sleep(1);
        guarded();
        throw new Error('later');
      }),
    ).rejects.toThrow('later');
    expect(guardsDisabled()).toBe(false);
    expect(guarded).toThrow(TransferGuardError);
  });

  test('an async scope stays open across awaits and does not leak into concurrent code', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const inside: boolean[] = [];
    const scope = disableGuards(async () => {
      inside.push(guardsDisabled());
      await gate; // another task runs meanwhile
      inside.push(guardsDisabled());
      guarded(); // still allowed here
      await sleep(2);
      guarded();
      return 'done';
    });
    // outside, while the scope is suspended at its await
    expect(guardsDisabled()).toBe(false);
    expect(guarded).toThrow(TransferGuardError);
    const outside = (async () => {
      await sleep(1);
      expect(guardsDisabled()).toBe(false);
      expect(guarded).toThrow(TransferGuardError);
      release();
      await sleep(1);
      expect(guarded).toThrow(TransferGuardError);
    })();
    await Promise.all([scope, outside]);
    expect(await scope).toBe('done');
    expect(inside).toEqual([true, true]);
    expect(guarded).toThrow(TransferGuardError);
  });

  test('two concurrent scopes each see their own state', async () => {
    const seen: string[] = [];
    await Promise.all([
      disableGuards(async () => {
        await sleep(3);
        seen.push(`a:${guardsDisabled()}`);
      }),
      (async () => {
        await sleep(1);
        seen.push(`b:${guardsDisabled()}`);
        await sleep(4);
        seen.push(`b:${guardsDisabled()}`);
      })(),
    ]);
    expect(seen).toEqual(['b:false', 'a:true', 'b:false']);
  });

  test('a non-function argument is a ValueError', () => {
    for (const v of [undefined, null, 1, 'fn', {}, Promise.resolve()]) {
      expectThrow(
        () => disableGuards(v as never),
        'ValueError',
        /^disableGuards: expected a function to run, got /,
      );
    }
    expect(guardsDisabled()).toBe(false);
  });
});

// Only where the probe finds no adapter by itself (TESSERA_GPU unset): the real "no GPU" path.
const probe = probeGpu();
const noAdapter = !probe.ok && process.env.TESSERA_GPU === undefined;
if (!noAdapter) {
  console.log(
    `[devices cpu] no-adapter errors SKIPPED: ${probe.ok ? 'an adapter is present' : 'TESSERA_GPU is set'}`,
  );
}

describe.runIf(noAdapter)('no GPU adapter', () => {
  const reason = probe.ok ? '' : probe.reason;
  const install = [
    'install a Vulkan driver',
    'libvulkan1',
    'lavapipe',
    'mesa-vulkan-drivers',
    '.ci/lavapipe.sh',
  ];

  test("toDevice(x, 'gpu') says what was looked for and how to install a driver", () => {
    const x = ones([4], { chunks: 2, dtype: 'float32' });
    expectThrow(() => toDevice(x, 'gpu'), 'ValueError', /^toDevice: no GPU for 'gpu': /);
    expectThrow(() => toDevice(x, 'gpu'), 'ValueError', [reason, 'Vulkan', ...install]);
    expectThrow(() => toDevice(x, 'gpu:1'), 'ValueError', /^toDevice: no GPU for 'gpu:1': /);
  });

  test("withDevice('gpu', fn) says the same and never runs fn", () => {
    let called = false;
    const f = () => {
      called = true;
      return zeros([2]);
    };
    expectThrow(() => withDevice('gpu', f), 'ValueError', /^withDevice: no GPU for 'gpu': /);
    expectThrow(() => withDevice('gpu', f), 'ValueError', [reason, ...install]);
    expect(called).toBe(false);
  });

  test('the reason names the Vulkan driver Dawn looks for', () => {
    expect(reason).toMatch(/Vulkan|webgpu/);
  });

  test('host computes are unaffected', async () => {
    const r = await compute(ones([6], { chunks: 2 }).mul(3).sum());
    expect(r.data[0]).toBe(18);
  });
});

test('ValueError is the class thrown', () => {
  expect(() => parseDevice('toDevice', 'x')).toThrow(ValueError);
});
