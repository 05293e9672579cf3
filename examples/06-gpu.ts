// A 3-D volume on the GPU: placed there with withDevice, zoomed (linear resampling, MONAI's
// resize), normalized and projected (mean and maximum intensity along z) by WebGPU kernels,
// blocks staying in GPU buffers between tasks.
// Bringing it back is a guarded transfer: refused, then allowed inside disableGuards; the
// result is checked against the same pipeline on the CPU.
//
//   eval "$(bash .ci/lavapipe.sh)"; npx tsx examples/06-gpu.ts   (software GPU, no root)

import assert from 'node:assert/strict';
import { probeGpu } from '../src/devices/probe.ts';
import {
  compute,
  disableGuards,
  type LazyArray,
  random,
  shutdown,
  TransferGuardError,
  withDevice,
  zoom,
} from '../src/index.ts';

const gpu = probeGpu();
if (!gpu.ok) {
  console.log(`no GPU: ${gpu.reason}`);
  // CI provides a software adapter: there, a missing GPU is a failure
  process.exit(process.env.CI === 'true' ? 1 : 0);
}
console.log(`GPU: ${gpu.adapters[0]!.description}`);

const side = Number(process.env.TESSERA_EXAMPLE_SIDE ?? 128);
/** The pipeline, on whatever device creation functions place arrays. */
function pipeline(): { mean: LazyArray; mip: LazyArray } {
  const vol = random.normal([side, side, side], { seed: 3, chunks: side / 2, dtype: 'float32' });
  const big = zoom(vol, [1.5, 1.5, 1.5], { order: 1 }); // the same taps on CPU and GPU
  const z = big.mul(0.5).add(1).abs().sqrt(); // a fused chain: one shader per block
  return { mean: z.mean({ axis: 0 }), mip: z.max({ axis: 0 }) };
}

const onGpu = withDevice('gpu', pipeline);
console.log(
  `volume ${side}³ float32 on ${onGpu.mean.device}; mean ran on ${onGpu.mean.layer.backend?.name}`,
);

// 1. computing a GPU array brings it to the host: refused when the expression is built
try {
  await compute(onGpu.mean);
  assert.fail('compute of a GPU array must be guarded');
} catch (e) {
  assert.ok(e instanceof TransferGuardError);
  console.log(`refused: ${e.message}`);
}

// 2. allowed inside disableGuards
const t0 = performance.now();
const [mean, mip] = await disableGuards(() => compute(onGpu.mean, onGpu.mip));
const t1 = performance.now();
const cpu = pipeline();
const [meanCpu, mipCpu] = await compute(cpu.mean, cpu.mip);
console.log(`GPU ${(t1 - t0).toFixed(0)} ms, CPU ${(performance.now() - t1).toFixed(0)} ms`);

for (const [name, a, b] of [
  ['mean', mean!, meanCpu!],
  ['mip', mip!, mipCpu!],
] as const) {
  assert.deepEqual(a.shape, [side * 1.5, side * 1.5]);
  let err = 0;
  for (let i = 0; i < a.data.length; i++) {
    err = Math.max(err, Math.abs(Number(a.data[i]) - Number(b.data[i])));
  }
  console.log(`${name}: max difference from the CPU ${err.toExponential(2)}`);
  assert.ok(err < 1e-4, `${name} differs from the CPU by ${err}`);
}
await shutdown();
console.log('ok: the GPU pipeline agrees with the CPU');
