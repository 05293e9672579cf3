// Histograms of generated sources counted tile by tile (sourceCountPartial) and countValues'
// equal-bin fast path, against a dense loop of numpy.histogram's rule (bins [e_i, e_i+1),
// the last closed, NaN and values outside dropped): random blocks, edge values, NaN, ±∞,
// float32 and float64, uniform and explicit edges, blocks of one tile, several and a tail.

import { describe, expect, test } from 'vitest';
import { compute } from '../../../../src/array/compute.ts';
import type { DType, NumberArray } from '../../../../src/array/dtype.ts';
import { random } from '../../../../src/array/random.ts';
import {
  countValues,
  type HistogramBlockParams,
  linspaceEdges,
} from '../../../../src/backends/cpu-js/reduce/histogram.ts';
import type { FusedParams } from '../../../../src/backends/cpu-js/registry.ts';
import { arangeBlock, fullBlock } from '../../../../src/backends/cpu-js/source/creation.ts';
import { uniformBlock } from '../../../../src/backends/cpu-js/source/random.ts';
import { sourceCountPartial } from '../../../../src/backends/cpu-js/source/source-count.ts';
import { arange, histogram } from '../../../../src/index.ts';
import { rng } from '../../../helpers/reference.ts';

type Step = FusedParams['steps'][number];

/** numpy.histogram's counts by a linear scan of the edges. */
function referenceCounts(values: ArrayLike<number>, edges: ArrayLike<number>): number[] {
  const n = edges.length - 1;
  const counts = new Array<number>(n).fill(0);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!(v >= edges[0]! && v <= edges[n]!)) continue;
    let k = n - 1;
    for (let j = 0; j < n; j++) {
      if (v >= edges[j]! && v < edges[j + 1]!) {
        k = j;
        break;
      }
    }
    counts[k]!++;
  }
  return counts;
}

const SPECIAL = [Number.NaN, Infinity, -Infinity, -0];

describe('countValues', () => {
  test.each(['float32', 'float64'] as const)('matches the dense rule, %s', (dtype) => {
    const r = rng(dtype === 'float32' ? 3 : 4);
    for (let trial = 0; trial < 60; trial++) {
      const bins = 1 + Math.floor(r() * 12);
      const lo = Math.floor(r() * 10) - 5;
      const hi = lo + [1e-3, 0.7, 3, 1e6][Math.floor(r() * 4)]!;
      const uniform = r() < 0.7;
      let edges = linspaceEdges(lo, hi, bins, dtype);
      if (!uniform) {
        const e = Array.from({ length: bins + 1 }, () => lo + r() * (hi - lo)).sort(
          (a, b) => a - b,
        );
        if (r() < 0.3) e[1] = e[0]!; // a repeated edge
        edges = Float64Array.from(e);
      }
      const x = dtype === 'float32' ? new Float32Array(500) : new Float64Array(500);
      for (let i = 0; i < x.length; i++) {
        const u = r();
        // edge values exactly, their float32 neighbours, specials and values around the range
        x[i] =
          u < 0.3
            ? edges[Math.floor(r() * edges.length)]!
            : u < 0.35
              ? SPECIAL[Math.floor(r() * SPECIAL.length)]!
              : u < 0.45
                ? Math.fround(edges[Math.floor(r() * edges.length)]! * (1 + (r() - 0.5) * 1e-6))
                : lo - 0.2 * (hi - lo) + r() * 1.4 * (hi - lo);
      }
      const counts = new Float64Array(bins);
      countValues(x, edges, uniform, counts);
      expect(Array.from(counts), JSON.stringify({ edges: Array.from(edges), uniform })).toEqual(
        referenceCounts(x, edges),
      );
    }
  });
});

function histStep(edges: Float64Array, dtype: DType): Step {
  const params: HistogramBlockParams = {
    bins: edges.length - 1,
    edges: Array.from(edges),
    uniform: true,
    edgeDtype: dtype === 'float32' ? 'float32' : 'float64',
    weighted: false,
  };
  return { kernel: 'histogram-block', params, inputs: [-1] };
}

describe('sourceCountPartial', () => {
  test.each([1, 7, 65535, 65536, 65537, 3 * 65536 + 11])(
    'a uniform block of %i counts as the materialized block',
    (n) => {
      for (const dtype of ['float32', 'float64'] as const) {
        const params = {
          seed: [0, n] as [number, number],
          arrayShape: [n + 9],
          offset: [4],
          shape: [n],
          dtype,
          low: -1,
          high: 3,
        };
        const edges = linspaceEdges(-0.5, 2.5, 17, dtype);
        const got = sourceCountPartial([
          { kernel: 'random-uniform', params, inputs: [] },
          histStep(edges, dtype),
        ]);
        expect(Array.from(got!.data as NumberArray)).toEqual(
          referenceCounts(uniformBlock(params).data as NumberArray, edges),
        );
      }
    },
  );

  test('2-d blocks, values on the edges (arange) and a constant on the last edge', () => {
    const edges = linspaceEdges(0, 10, 40, 'float64');
    const shape = [300, 7];
    const uni = { seed: [0, 5] as [number, number], arrayShape: shape, offset: [0, 0], shape };
    const steps: Step[][] = [
      [
        {
          kernel: 'random-uniform',
          params: { ...uni, dtype: 'float64', low: -1, high: 11 },
          inputs: [],
        },
      ],
      [
        {
          kernel: 'arange',
          params: { start: -2, step: 0.25, offset: 3, count: 70000, dtype: 'float64' },
          inputs: [],
        },
      ],
      [{ kernel: 'full', params: { shape: [5, 4], value: 10, dtype: 'float32' }, inputs: [] }],
      [{ kernel: 'full', params: { shape: [9], value: Number.NaN, dtype: 'float64' }, inputs: [] }],
    ];
    const blocks = [
      uniformBlock({ ...uni, dtype: 'float64', low: -1, high: 11 }),
      arangeBlock({ start: -2, step: 0.25, offset: 3, count: 70000, dtype: 'float64' }),
      fullBlock({ shape: [5, 4], value: 10, dtype: 'float32' }),
      fullBlock({ shape: [9], value: Number.NaN, dtype: 'float64' }),
    ];
    steps.forEach(([src], i) => {
      const got = sourceCountPartial([src!, histStep(edges, 'float64')]);
      expect(Array.from(got!.data as NumberArray)).toEqual(
        referenceCounts(blocks[i]!.data as NumberArray, edges),
      );
    });
  });

  test('leaves weighted, computed-range and other steps to the fused kernel', () => {
    const src: Step = {
      kernel: 'full',
      params: { shape: [4], value: 1, dtype: 'float64' },
      inputs: [],
    };
    const h = histStep(linspaceEdges(0, 1, 2, 'float64'), 'float64');
    const cases: Step[][] = [
      [src, { ...h, params: { ...(h.params as HistogramBlockParams), weighted: true } }],
      [src, { ...h, params: { ...(h.params as HistogramBlockParams), edges: null } }],
      [src, { ...h, inputs: [0] }],
      [{ kernel: 'ew', params: {}, inputs: [0] }, h],
      [src, src, h],
    ];
    for (const s of cases) expect(sourceCountPartial(s)).toBeUndefined();
  });

  test('histogram of a random and an arange array: fused equals unfused', async () => {
    const cases = [
      () => random.uniform([200000], { seed: 7, chunks: 70000, dtype: 'float32' }),
      () => arange(-3, 20, 0.125, { chunks: 37 }),
    ];
    for (const make of cases) {
      const [h] = histogram(make(), { bins: 23, range: [0, 10] });
      const fused = await compute(h, { scheduler: 'sync' });
      const plain = await compute(h, { scheduler: 'sync', optimize: false });
      expect(Array.from(fused.data as NumberArray)).toEqual(Array.from(plain.data as NumberArray));
      expect(Array.from(fused.data as NumberArray).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    }
  });
});
