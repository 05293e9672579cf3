// What dispatch reports: dispatchStats() counts decisions per (operation, backend, reason);
// formatDecision is the TESSERA_LOG=dispatch line, printed once per decision on stderr.

import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { formatDecision, recordDecision } from '../../src/dispatch/stats.ts';
import {
  add,
  configure,
  type Decision,
  dispatchStats,
  fromArray,
  registerBackend,
  resetConfig,
  resetDispatchStats,
  sum,
  unregisterBackend,
  withBackend,
} from '../../src/index.ts';

beforeEach(() => {
  registerBackend({
    name: 'st-a',
    device: 'cpu',
    kernels: ['ew', 'reduce-partial'],
    supports: '*',
  });
  resetDispatchStats();
});
afterEach(() => {
  unregisterBackend('st-a');
  resetConfig();
  vi.restoreAllMocks();
});

const x = fromArray([1, 2, 3, 4], { chunks: 2 });
const row = (op: string, backend: string, reason: string) =>
  dispatchStats().find((r) => r.op === op && r.backend === backend && r.reason === reason)?.count;

describe('dispatchStats', () => {
  test('counts per (operation, backend, reason)', () => {
    add(x, 1);
    add(x, 2);
    sum(x);
    add(x, 1, { backend: 'st-a' });
    withBackend('st-a', () => add(x, 1));
    // the default config names nothing: cpu-js runs by the built-in order
    expect(row('ew', 'cpu-js', 'priority')).toBe(2);
    expect(row('reduce-partial', 'cpu-js', 'priority')).toBe(1);
    expect(row('ew', 'st-a', 'explicit')).toBe(1);
    expect(row('ew', 'st-a', 'withBackend')).toBe(1);
    expect(dispatchStats().reduce((n, r) => n + r.count, 0)).toBe(5);
  });

  test('a backend named by config.backendPriority is counted with that reason', () => {
    configure({ backendPriority: ['st-a'] });
    add(x, 1);
    sum(x);
    expect(row('ew', 'st-a', 'config.backendPriority')).toBe(1);
    expect(row('reduce-partial', 'st-a', 'config.backendPriority')).toBe(1);
    expect(dispatchStats().reduce((n, r) => n + r.count, 0)).toBe(2);
  });

  test('a failed explicit selection is not counted', () => {
    registerBackend({
      name: 'st-no',
      device: 'cpu',
      kernels: ['ew'],
      supports: '*',
      canRun: () => 'no',
    });
    try {
      expect(() => add(x, 1, { backend: 'st-no' })).toThrow();
      expect(dispatchStats()).toEqual([]);
    } finally {
      unregisterBackend('st-no');
    }
  });

  test('resetDispatchStats forgets every count', () => {
    add(x, 1);
    resetDispatchStats();
    expect(dispatchStats()).toEqual([]);
  });
});

describe('the dispatch log line', () => {
  const decision: Decision = {
    op: 'ew',
    fn: 'add',
    backend: 'st-a',
    reason: 'withBackend',
    tried: [
      { backend: 'st-b', verdict: 'cannot run: only float32' },
      { backend: 'st-a', verdict: 'ok' },
    ],
  };

  test.each([
    [
      'with fn',
      decision,
      'tessera dispatch: add ew -> st-a (withBackend) [st-b: cannot run: only float32; st-a: ok]',
    ],
    [
      'without fn',
      { op: 'matmul', backend: 'cpu-js', reason: 'priority', tried: [] },
      'tessera dispatch: matmul -> cpu-js (priority) []',
    ],
  ] as const)('formatDecision %s', (_, d, line) => {
    expect(formatDecision(d)).toBe(line);
  });

  test('recordDecision(d, true) prints one line on stderr; (d, false) prints none', () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    recordDecision(decision, false);
    expect(err).not.toHaveBeenCalled();
    recordDecision(decision, true);
    expect(err).toHaveBeenCalledTimes(1);
    expect(err).toHaveBeenCalledWith(formatDecision(decision));
    expect(row('ew', 'st-a', 'withBackend')).toBe(2);
  });

  test('the traced decision is the one that is counted and printed', () => {
    const { decisions } = withBackend({ trace: true }, () => add(x, 1, { backend: 'st-a' }));
    expect(decisions).toHaveLength(1);
    expect(formatDecision(decisions[0]!)).toBe(
      'tessera dispatch: add ew -> st-a (explicit) [st-a: ok]',
    );
  });
});
