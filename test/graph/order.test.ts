import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { sum } from '../../src/apply/reductions.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { orderTasks } from '../../src/graph/order.ts';
import { arbDag, buildDag, reduceLayer, sourceLayer, sumLayer } from './dag.ts';

describe('orderTasks', () => {
  test('every task gets a distinct priority after all of its inputs', () => {
    fc.assert(
      fc.property(arbDag, (r) => {
        const layers = buildDag(r, 'a');
        const table = materializeTasks([layers[layers.length - 1]!]);
        const prio = orderTasks(table);
        expect(new Set(prio).size).toBe(table.count);
        for (let t = 0; t < table.count; t++) {
          expect(prio[t]).toBeGreaterThanOrEqual(0);
          for (let i = 0; i < table.depCount[t]!; i++) {
            expect(prio[table.deps[table.depStart[t]! + i]!]).toBeLessThan(prio[t]!);
          }
        }
      }),
    );
  });

  test('the order does not depend on how layers are named', () => {
    fc.assert(
      fc.property(arbDag, (r) => {
        const sequence = (prefix: string) => {
          const layers = buildDag(r, prefix);
          const table = materializeTasks([layers[layers.length - 1]!]);
          const prio = orderTasks(table);
          const byPrio = Array.from(prio, (_, t) => t).sort((a, b) => prio[a]! - prio[b]!);
          const role = new Map(layers.map((l, i) => [l, i]));
          return byPrio.map(
            (t) => `${role.get(table.layers[table.layerOf[t]!]!)}/${table.blockOf[t]}`,
          );
        };
        expect(sequence('zz')).toEqual(sequence('aa'));
      }),
    );
  });

  test('independent branches finish one before the next starts', () => {
    // two reductions over separate chains: each chain's tasks are contiguous in the order
    const branch = (p: string) => reduceLayer(sumLayer([sourceLayer(`${p}src`, 6)], 6, 1, p), p);
    const a = branch('a');
    const b = branch('b');
    const total = sumLayer([a, b], 1, 0, 't');
    const table = materializeTasks([total]);
    const prio = orderTasks(table);
    for (const br of [a, b]) {
      const own: number[] = [];
      for (let t = 0; t < table.count; t++) {
        const layer = table.layers[table.layerOf[t]!]!;
        if (layer === br || br.deps.includes(layer) || br.deps[0]!.deps.includes(layer))
          own.push(prio[t]!);
      }
      own.sort((x, y) => x - y);
      expect(own[own.length - 1]! - own[0]!).toBe(own.length - 1);
    }
  });

  test('one source block read by every block (fromArray) does not release all its readers first', () => {
    // slices of one source block, each reduced: slice i runs just before its partial
    const x = fromArray(new Float64Array(64), { chunks: 8 });
    const table = materializeTasks([sum(x).layer]);
    const prio = orderTasks(table);
    const order = Array.from(prio, (_, t) => t)
      .filter((t) => !table.isConstant[t])
      .sort((a, b) => prio[a]! - prio[b]!)
      .map((t) => `${table.layers[table.layerOf[t]!]!.op}:${table.blockOf[t]}`);
    expect(order.slice(0, 4)).toEqual([
      'from-array:0',
      'sum-partial:0',
      'from-array:1',
      'sum-partial:1',
    ]);
  });
});
