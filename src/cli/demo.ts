// The demo job: a sensor-recording pipeline over a few hundred MB — creation, arithmetic,
// rechunk and reductions — printing what it computed and how long each step took, and
// writing the picture of its graph and the profile report of its first compute.

import { join } from 'node:path';
import { formatBytes } from '../diagnostics/progress.ts';
import { type ComputeOptions, compute, random, visualize } from '../index.ts';

const DEMO_SCHEDULERS = ['threads', 'processes', 'sync'] as const;
export type DemoScheduler = (typeof DEMO_SCHEDULERS)[number];

/** Whether `name` is a scheduler the demo runs on. */
export function isDemoScheduler(name: string): name is DemoScheduler {
  return (DEMO_SCHEDULERS as readonly string[]).includes(name);
}

export interface DemoOptions {
  channels: number;
  samples: number;
  scheduler: DemoScheduler;
  /** Write graph.svg and profile.html (the first compute's) into this folder. */
  outDir?: string;
  /** Samples per block along time (default 2¹⁸); the time-major tiling takes a quarter of it. */
  blockSamples?: number;
}

const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(2);

/**
 * Run the demo pipeline and check its statistics; returns the per-channel means.
 * @example
 * await runDemo({ channels: 32, samples: 2 ** 20, scheduler: 'threads' });
 */
export async function runDemo(opts: DemoOptions): Promise<Float64Array> {
  const { channels, samples, blockSamples = 2 ** 18 } = opts;
  const run: ComputeOptions = { scheduler: opts.scheduler };
  // channels × samples of unit noise, chunked along time; scaled to mean 1, std 0.5
  const raw = random.normal([channels, samples], { seed: 7, chunks: [8, blockSamples] });
  const signal = raw.mul(0.5).add(1);
  console.log(
    `tessera demo: ${channels} channels × ${samples.toLocaleString()} samples float64 ` +
      `(${formatBytes(signal.nbytes!)}, ${signal.numBlocks.join(' × ')} blocks) on '${opts.scheduler}'`,
  );

  let t0 = performance.now();
  const stats = [signal.mean({ axis: 1 }), signal.std({ axis: 1 }), signal.abs().max()] as const;
  const report = opts.outDir === undefined ? undefined : join(opts.outDir, 'profile.html');
  const [mean, std, peak] = await compute(...stats, report ? { ...run, profile: report } : run);
  console.log(`  per-channel mean and std, global |max|: ${seconds(t0)} s`);
  if (opts.outDir !== undefined) {
    const graph = join(opts.outDir, 'graph.svg');
    await visualize(stats, { format: 'svg', optimize: true, file: graph });
    console.log(`  graph picture: ${graph}`);
    console.log(`  profile report: ${report}`);
  }

  t0 = performance.now();
  // time-major tiling: whole channel axis per block, then a cross-channel average trace
  const timeMajor = signal.rechunk({ 0: -1, 1: Math.max(1, Math.floor(blockSamples / 4)) });
  const trace = timeMajor.mean({ axis: 0 });
  const [traceMean] = [await compute(trace.mean(), run)];
  console.log(
    `  rechunk to ${timeMajor.numBlocks.join(' × ')} blocks + channel average: ${seconds(t0)} s`,
  );

  const m = mean.data as Float64Array;
  const s = std.data as Float64Array;
  const worst = (a: ArrayLike<number>, target: number) =>
    Math.max(...Array.from(a, (v) => Math.abs(v - target)));
  console.log(`  channel means within ${worst(m, 1).toExponential(2)} of 1`);
  console.log(`  channel stds within ${worst(s, 0.5).toExponential(2)} of 0.5`);
  // float64 results: their elements are numbers
  const peakValue = Number(peak.data[0]);
  const traceValue = Number(traceMean.data[0]);
  console.log(
    `  largest |sample|: ${peakValue.toFixed(3)}; mean of channel average: ${traceValue.toFixed(5)}`,
  );
  const tol = 10 / Math.sqrt(samples);
  if (worst(m, 1) > tol || worst(s, 0.5) > tol || Math.abs(traceValue - 1) > tol) {
    throw new Error('demo: statistics are off — something computed wrong');
  }
  return m;
}
