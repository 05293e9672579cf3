// WebGPU throughput and fixed costs through the worker handle API: an elementwise chain and a
// sum on float32 (1 GiB on a big device, 64 MiB on a software one) and a float32 matmul, each
// next to cpu-js and cpu-wasm (one thread) on the same data.
//
// Run: eval "$(bash .ci/lavapipe.sh)"; npx tsx bench/gpu.ts     (or on a machine with a GPU)

import { allocate } from '../src/array/dtype.ts';
import { NDArray } from '../src/array/ndarray.ts';
import type { EwParams } from '../src/backends/cpu-js/elementwise/expr.ts';
import { builtinKernels } from '../src/backends/cpu-js/registry.ts';
import { kernels as wasmKernels } from '../src/backends/cpu-wasm/kernels.ts';
import {
  type GpuClient,
  type GpuHandle,
  gpuStatus,
  openGpu,
} from '../src/backends/webgpu/index.ts';
import type { Chunk, Kernel, KernelContext } from '../src/kernels/types.ts';

const GB = 1e9;
const now = (): number => performance.now();

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = now();
  const v = await f();
  return [v, (now() - t0) / 1000];
}

/** Best of `reps` runs of `f` (seconds), after one warm-up. */
async function best(reps: number, f: () => Promise<void>): Promise<number> {
  await f();
  let b = Infinity;
  for (let i = 0; i < reps; i++) b = Math.min(b, (await timed(f))[1]);
  return b;
}

function row(name: string, seconds: number, amount: number, unit: string): void {
  const rate = amount / seconds;
  console.log(
    `  ${name.padEnd(28)} ${(seconds * 1000).toFixed(1).padStart(9)} ms  ${rate.toFixed(2).padStart(9)} ${unit}`,
  );
}

const f = 'float32' as const;
// sqrt(|x · 2 + 1|) + x: four ops, one shader
const chain: EwParams = {
  expr: {
    op: 'add',
    args: [
      {
        op: 'sqrt',
        args: [
          {
            op: 'abs',
            args: [
              {
                op: 'add',
                args: [{ op: 'multiply', args: [{ in: 0 }, { const: 2 }], dtype: f }, { const: 1 }],
                dtype: f,
              },
            ],
            dtype: f,
          },
        ],
        dtype: f,
      },
      { in: 0 },
    ],
    dtype: f,
  },
  dtype: f,
};

const ctx: KernelContext = {
  key: 'bench',
  resolve: () => {
    throw new Error('no user functions here');
  },
  run: () => {
    throw new Error('no steps here');
  },
};

/** The same kernel on cpu-js and cpu-wasm, one thread, on the same data (for comparison). */
async function cpuRows(
  label: string,
  kernel: string,
  inputs: Chunk[],
  params: unknown,
  amount: number,
  unit: string,
): Promise<void> {
  const backends: [string, Kernel<never> | undefined][] = [
    ['cpu-js', builtinKernels.get(kernel) as Kernel<never> | undefined],
    ['cpu-wasm', wasmKernels[kernel]],
  ];
  for (const [name, k] of backends) {
    if (k === undefined) continue;
    const t = await best(3, async () => {
      (k as unknown as Kernel<unknown>)(inputs, params, ctx);
    });
    row(`${label} on ${name} (1 thread)`, t, amount, unit);
  }
}

function filled(n: number): NDArray {
  const d = allocate(f, n) as Float32Array;
  for (let i = 0; i < n; i++) d[i] = (i % 1024) / 1024;
  return new NDArray(d, [n], f);
}

async function streams(gpu: GpuClient, n: number): Promise<void> {
  const bytes = n * 4;
  console.log(`\nfloat32 streams: ${n} elements (${(bytes / 2 ** 20).toFixed(0)} MiB)`);
  const x = filled(n);
  let h: GpuHandle | undefined;
  const up = await best(2, async () => {
    if (h) gpu.release(h);
    h = await gpu.upload(x);
    await gpu.sync();
  });
  row('upload', up, bytes / GB, 'GB/s');
  const ew = await best(3, async () => {
    const [y] = await gpu.run('ew', [h!], chain);
    await gpu.sync();
    gpu.release(y!);
  });
  row('ew chain (4 ops) compute', ew, (2 * bytes) / GB, 'GB/s (read+write)');
  await cpuRows('ew chain', 'ew', [x], chain, (2 * bytes) / GB, 'GB/s');
  const sum = await best(3, async () => {
    const [s] = await gpu.run('reduce-aggregate', [h!], { op: 'sum', axes: [0] });
    await gpu.sync();
    gpu.release(s!);
  });
  row('sum compute', sum, bytes / GB, 'GB/s');
  await cpuRows(
    'sum',
    'reduce-partial',
    [x],
    { op: 'sum', axes: [0], dtype: f },
    bytes / GB,
    'GB/s',
  );
  const down = await best(2, async () => {
    await gpu.download(h!);
  });
  row('readback (fresh host array)', down, bytes / GB, 'GB/s');
  const into = filled(n);
  const reuse = await best(2, async () => {
    await gpu.download(h!, into);
  });
  row('readback (into reused array)', reuse, bytes / GB, 'GB/s');
  gpu.release(h!);
}

async function matmul(gpu: GpuClient, n: number): Promise<void> {
  console.log(`\nfloat32 matmul ${n}×${n}·${n}×${n}`);
  const a = filled(n * n);
  const shape = [n, n];
  const ha = await gpu.upload(new NDArray(a.data, shape, f));
  const hb = await gpu.upload(new NDArray(a.data, shape, f));
  const [up] = [
    await best(1, async () => gpu.release(await gpu.upload(new NDArray(a.data, shape, f)))),
  ];
  row('upload (one operand)', up, (n * n * 4) / GB, 'GB/s');
  let c: GpuHandle | undefined;
  const t = await best(2, async () => {
    if (c) gpu.release(c);
    [c] = await gpu.run('matmul', [ha, hb], { dtype: f, aVec: false, bVec: false });
    await gpu.sync();
  });
  row('compute', t, (2 * n ** 3) / 1e9, 'GFLOP/s');
  const m = new NDArray(a.data, shape, f);
  await cpuRows(
    'matmul',
    'matmul',
    [m, m],
    { dtype: f, aVec: false, bVec: false },
    (2 * n ** 3) / 1e9,
    'GFLOP/s',
  );
  const down = await best(1, async () => {
    await gpu.download(c!);
  });
  row('readback', down, (n * n * 4) / GB, 'GB/s');
  gpu.release(ha, hb, c!);
}

async function main(): Promise<void> {
  const status = await gpuStatus();
  if (status !== true) {
    console.log(`bench/gpu: no adapter: ${status}`);
    return;
  }
  const [gpu, openS] = await timed(() => openGpu('gpu'));
  const a = gpu.adapter;
  const software =
    a.architecture === 'software' || /llvmpipe|lavapipe|swiftshader/i.test(a.description);
  console.log(
    `adapter: ${a.description} (vendor ${a.vendor}, ${a.architecture}; maxBufferSize ${a.maxBufferSize}, maxStorageBufferBindingSize ${a.maxStorageBufferBindingSize})`,
  );
  console.log('\nfixed costs');
  console.log(`  worker + adapter + device      ${(openS * 1000).toFixed(1)} ms`);
  const h = await gpu.upload(filled(1024));
  const [, first] = await timed(async () => {
    const [y] = await gpu.run('ew', [h], chain);
    await gpu.sync();
    gpu.release(y!);
  });
  const pipeMs = (await gpu.stats()).pipelineMs;
  console.log(`  pipeline creation (ew chain)   ${pipeMs.toFixed(1)} ms`);
  console.log(`  first dispatch (incl. pipeline) ${(first * 1000).toFixed(1)} ms`);
  const [, second] = await timed(async () => {
    const [y] = await gpu.run('ew', [h], chain);
    await gpu.sync();
    gpu.release(y!);
  });
  console.log(`  later small dispatch (1K)      ${(second * 1000).toFixed(2)} ms`);
  gpu.release(h);
  const big = !software && a.maxStorageBufferBindingSize >= 2 ** 30;
  await streams(gpu, big ? 2 ** 28 : 2 ** 24);
  await matmul(gpu, big ? 8192 : 1024);
  const s = await gpu.stats();
  console.log(
    `\npool: peak ${(s.peak / 2 ** 20).toFixed(0)} MiB, ${s.created} buffers created, ${s.reused} reused; ${s.pipelines} pipelines`,
  );
  await gpu.close();
}

await main();
