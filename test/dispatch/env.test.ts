// The dispatch environment variables, parsed from env objects: TESSERA_BACKEND_PRIORITY,
// TESSERA_BACKEND_BLOCK, TESSERA_LOG=dispatch; a malformed value warns and counts as unset.

import { describe, expect, test, vi } from 'vitest';
import { dispatchEnv, envFlag, readDispatchEnv } from '../../src/dispatch/env.ts';

describe('readDispatchEnv', () => {
  const cases: [
    string,
    Record<string, string>,
    { priority: string[]; block: string[]; log: boolean },
  ][] = [
    ['nothing set', {}, { priority: [], block: [], log: false }],
    [
      'a priority list, lowest first',
      { TESSERA_BACKEND_PRIORITY: 'cpu-js,cpu-wasm' },
      { priority: ['cpu-js', 'cpu-wasm'], block: [], log: false },
    ],
    [
      'spaces around names',
      { TESSERA_BACKEND_PRIORITY: ' a , b:1 ', TESSERA_BACKEND_BLOCK: 'webgpu' },
      { priority: ['a', 'b:1'], block: ['webgpu'], log: false },
    ],
    ['an empty list', { TESSERA_BACKEND_PRIORITY: '  ' }, { priority: [], block: [], log: false }],
    ['TESSERA_LOG=dispatch', { TESSERA_LOG: 'dispatch' }, { priority: [], block: [], log: true }],
    [
      'dispatch among other logs',
      { TESSERA_LOG: 'scheduler, dispatch' },
      { priority: [], block: [], log: true },
    ],
    ['another log only', { TESSERA_LOG: 'scheduler' }, { priority: [], block: [], log: false }],
    [
      'TESSERA_LOG_DISPATCH=1',
      { TESSERA_LOG_DISPATCH: '1' },
      { priority: [], block: [], log: true },
    ],
    [
      'TESSERA_LOG_DISPATCH=0',
      { TESSERA_LOG_DISPATCH: '0' },
      { priority: [], block: [], log: false },
    ],
  ];

  test.each(cases)('%s', (_, env, expected) => {
    const warn = vi.fn();
    expect(readDispatchEnv(env, warn)).toEqual(expected);
    expect(warn).not.toHaveBeenCalled();
  });

  const bad: [string, Record<string, string>, string, string][] = [
    ['an empty name', { TESSERA_BACKEND_PRIORITY: 'a,,b' }, 'TESSERA_BACKEND_PRIORITY', '""'],
    [
      'a name with a space',
      { TESSERA_BACKEND_PRIORITY: 'a b' },
      'TESSERA_BACKEND_PRIORITY',
      '"a b"',
    ],
    ['a trailing comma', { TESSERA_BACKEND_BLOCK: 'webgpu,' }, 'TESSERA_BACKEND_BLOCK', '""'],
    ['a leading symbol', { TESSERA_BACKEND_BLOCK: '-x' }, 'TESSERA_BACKEND_BLOCK', '"-x"'],
  ];

  test.each(bad)('%s warns and the variable is ignored', (_, env, variable, quoted) => {
    const warn = vi.fn();
    const out = readDispatchEnv(env, warn);
    expect(out.priority).toEqual([]);
    expect(out.block).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    const message = warn.mock.calls[0]![0] as string;
    expect(message).toContain(variable);
    expect(message).toContain(quoted);
    expect(message).toContain('ignored');
  });

  test('a bad variable does not spoil the good one', () => {
    const warn = vi.fn();
    const out = readDispatchEnv(
      { TESSERA_BACKEND_PRIORITY: 'a;b', TESSERA_BACKEND_BLOCK: 'c' },
      warn,
    );
    expect(out).toEqual({ priority: [], block: ['c'], log: false });
    expect(warn).toHaveBeenCalledTimes(1);
  });

  test('the default warning is a process warning with code TESSERA_ENV', () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      readDispatchEnv({ TESSERA_BACKEND_PRIORITY: 'a b' });
      expect(emit).toHaveBeenCalledTimes(1);
      expect(emit.mock.calls[0]![1]).toMatchObject({ code: 'TESSERA_ENV' });
    } finally {
      emit.mockRestore();
    }
  });

  test('the environment is read once, at import', () => {
    const before = dispatchEnv;
    process.env.TESSERA_BACKEND_BLOCK = 'read-once';
    try {
      expect(dispatchEnv).toBe(before);
      expect(dispatchEnv.block).not.toContain('read-once');
    } finally {
      delete process.env.TESSERA_BACKEND_BLOCK;
    }
  });
});

describe('envFlag', () => {
  test.each([
    ['1', true],
    ['true', true],
    ['TRUE', true],
    [' yes ', true],
    ['on', true],
    ['0', false],
    ['false', false],
    ['False', false],
    ['no', false],
    ['off', false],
    ['', false],
  ])('%j is %s', (raw, expected) => {
    const warn = vi.fn();
    expect(envFlag({ X: raw }, 'X', warn)).toBe(expected);
    expect(warn).not.toHaveBeenCalled();
  });

  test('unset is undefined', () => {
    expect(envFlag({}, 'X', vi.fn())).toBeUndefined();
  });

  test.each(['2', 'maybe', 'tru'])('%j warns and counts as unset', (raw) => {
    const warn = vi.fn();
    expect(envFlag({ X: raw }, 'X', warn)).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`X=${JSON.stringify(raw)}`));
  });
});
