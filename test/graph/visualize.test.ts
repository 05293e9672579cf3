// visualize(): DOT of operations (labels: op, shape, chunks, dtype, device, backend; fused
// nodes list their steps) and of tasks (one node per task, capped), SVG and HTML, files, bad input.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { MAX_DRAWN_TASKS } from '../../src/graph/visualize-tasks.ts';
import { fromArray, ones, ValueError, visualize } from '../../src/index.ts';
import { randomDense } from '../helpers/reference.ts';

const dir = mkdtempSync(join(tmpdir(), 'tessera-visualize-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const labels = (dot: string): string[] =>
  [...dot.matchAll(/label = "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\n/g, '\n'));
const nodeCount = (dot: string): number => labels(dot).length;

describe('operations', () => {
  const x = fromArray(randomDense([10, 6], 'float32', 1), { chunks: [4, 3] });
  const y = x.mul(2).add(1).sum({ axis: 0 });

  test('one node per layer, each with op, shape, chunks, dtype, device and backend', () => {
    const dot = visualize(y);
    const ls = labels(dot);
    // source data, its blocks (from-array), multiply, add, sum-partial, sum-aggregate
    expect(ls).toHaveLength(6);
    const mul = ls.find((l) => l.startsWith('multiply'))!;
    expect(mul).toBe('multiply\n(10×6) float32\nblocks 3×2 of 4…2×3\ndevice cpu\ncpu-js');
    expect(ls.some((l) => l.startsWith('sum-aggregate'))).toBe(true);
    expect(dot).toBe(y.visualize());
  });

  test('optimize: the graph as it runs, a fused chain is one node listing its steps', () => {
    const dot = visualize(y, { optimize: true });
    const fusedLayers = fuseLayers([y.layer]);
    const fused = labels(dot).find((l) => l.includes('fused:'))!;
    expect(fused).toContain('multiply → add');
    expect(nodeCount(dot)).toBeLessThan(nodeCount(visualize(y)));
    expect(nodeCount(dot)).toBeGreaterThanOrEqual(fusedLayers.length);
  });

  test('several arrays: one graph with shared layers drawn once', () => {
    const a = x.add(1);
    const dot = visualize([a.sum(), a.mean()]);
    expect(labels(dot).filter((l) => l.startsWith('add\n'))).toHaveLength(1);
  });
});

describe('tasks', () => {
  test('one node per task (source blocks included) and one edge per dependency', () => {
    const y = ones([8, 8], { chunks: 4 }).add(1).sum();
    const table = materializeTasks([y.layer]);
    const dot = visualize(y, { level: 'tasks' });
    expect(nodeCount(dot)).toBe(table.count);
    expect(dot.match(/->/g)).toHaveLength(table.deps.length);
  });

  test(`more than ${MAX_DRAWN_TASKS} tasks is a ValueError that says what to do`, () => {
    const big = ones([100, 100], { chunks: 2 }).add(1);
    expect(() => visualize(big, { level: 'tasks' })).toThrow(ValueError);
    expect(() => visualize(big, { level: 'tasks' })).toThrow(
      /^visualize: level 'tasks' draws at most 2000 tasks, this graph has \d+; use level 'operations'/,
    );
    expect(() => visualize(big)).not.toThrow();
  });
});

describe('rendered', () => {
  const y = ones([8, 8], { chunks: 4 }).mul(3).sum();

  test('svg: rendered in-process, the nodes as text', async () => {
    const svg = await visualize(y, { format: 'svg' });
    expect(svg).toContain('<svg');
    expect(svg).toContain('multiply');
    expect(svg.match(/class="node"/g)).toHaveLength(nodeCount(visualize(y)));
  });

  test('html with file: a page holding the SVG, the absolute path returned', async () => {
    const path = await y.visualize({ format: 'html', file: join(dir, 'g.html') });
    expect(path).toBe(join(dir, 'g.html'));
    const page = readFileSync(path, 'utf8');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('<svg');
    expect(page).not.toMatch(/<script|<link|https?:\/\/(?!www\.w3\.org)/);
  });

  test('dot with file: written at once, the path returned', () => {
    const path = visualize(y, { file: join(dir, 'g.dot') });
    expect(readFileSync(path, 'utf8')).toBe(visualize(y));
  });
});

test.each([
  [{ format: 'png' }, "visualize: format 'png' is not 'dot', 'svg' or 'html'"],
  [{ level: 'blocks' }, "visualize: level 'blocks' is not 'operations' or 'tasks'"],
  [{ file: '' }, "visualize: file '' is not a path"],
  [{ optimize: 1 }, 'visualize: optimize 1 is not a boolean'],
  ['svg', "visualize: options 'svg' is not an options object"],
])('bad options %j: ValueError', (opts, message) => {
  const y = ones([4], { chunks: 2 });
  expect(() => visualize(y, opts as never)).toThrow(ValueError);
  expect(() => visualize(y, opts as never)).toThrow(message);
});

test('not an array: ValueError', () => {
  expect(() => visualize([] as never)).toThrow(/^visualize: .* is not a LazyArray/);
  expect(() => visualize(3 as never)).toThrow(ValueError);
});
