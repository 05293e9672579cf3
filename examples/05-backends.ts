// One pipeline, two CPU backends: the same float32 and float64 expressions built under
// cpu-js (the reference) and cpu-wasm (WebAssembly SIMD), the dispatch decisions printed
// with their reasons, and the results compared (bit for bit for elementwise float64).
//
//   npx tsx examples/05-backends.ts

import assert from 'node:assert/strict';
import {
  compute,
  type Decision,
  listBackends,
  type NDArray,
  random,
  shutdown,
  withBackend,
} from '../src/index.ts';

console.log(
  `backends, highest priority first: ${listBackends()
    .map((b) => b.name)
    .join(', ')}`,
);

/**
 * The pipeline: a chain of elementwise functions, reductions and a matrix product, each
 * call naming `backend` (explicit: it runs there or fails, even where it would defer).
 */
function pipeline(dtype: 'float32' | 'float64', backend: string) {
  const on = { backend };
  const x = random.uniform([2048, 2048], { seed: 7, chunks: 512, dtype });
  const y = x.mul(2, on).sub(1, on).abs(on).sqrt(on);
  const head = x.get('0:512');
  return {
    chain: y,
    total: y.sum(on),
    colMax: y.max({ axis: 0, ...on }),
    gram: head.matmul(head.T, on),
  };
}

const show = (label: string, decisions: readonly Decision[]): void => {
  console.log(`\n${label}: ${decisions.length} decisions`);
  const seen = new Set<string>();
  for (const d of decisions) {
    const line = `  ${d.fn ?? d.op} ${d.op} -> ${d.backend} (${d.reason}); tried ${d.tried.map((a) => `${a.backend}: ${a.verdict}`).join('; ')}`;
    if (!seen.has(line)) console.log(line);
    seen.add(line);
  }
};

async function run(dtype: 'float32' | 'float64'): Promise<void> {
  const js = withBackend({ trace: true }, () => pipeline(dtype, 'cpu-js'));
  const wasm = withBackend({ trace: true }, () => pipeline(dtype, 'cpu-wasm'));
  show(`${dtype} on cpu-js`, js.decisions);
  show(`${dtype} on cpu-wasm`, wasm.decisions);
  // without naming one, dispatch chooses: cpu-wasm where it measured faster
  const chosen = withBackend({ trace: true }, () =>
    random.uniform([2048, 2048], { seed: 7, chunks: 512, dtype }).mul(2).sum(),
  );
  show(`${dtype}, chosen by dispatch`, chosen.decisions);
  const keys = Object.keys(js.value) as (keyof typeof js.value)[];
  const t0 = performance.now();
  const a = (await compute(
    ...(keys.map((k) => js.value[k]) as [never, never]),
  )) as unknown as NDArray[];
  const t1 = performance.now();
  const b = (await compute(
    ...(keys.map((k) => wasm.value[k]) as [never, never]),
  )) as unknown as NDArray[];
  const t2 = performance.now();
  console.log(
    `  cpu-js ${(t1 - t0).toFixed(0)} ms, cpu-wasm ${(t2 - t1).toFixed(0)} ms (2 worker threads)`,
  );
  keys.forEach((k, i) => {
    const p = a[i]!.data as Float64Array;
    const q = b[i]!.data as Float64Array;
    let err = 0;
    let scale = 0;
    for (let j = 0; j < p.length; j++) {
      err = Math.max(err, Math.abs(p[j]! - q[j]!));
      scale = Math.max(scale, Math.abs(p[j]!));
    }
    const rel = scale === 0 ? err : err / scale;
    console.log(`  ${k}: max relative difference ${rel.toExponential(2)}`);
    if (k === 'chain' && dtype === 'float64') {
      assert.ok(
        p.every((v, j) => Object.is(v, q[j])),
        'float64 elementwise must agree bit for bit',
      );
    }
    assert.ok(rel <= (dtype === 'float32' ? 1e-5 : 1e-12), `${dtype} ${k} differs by ${rel}`);
  });
  assert.ok(
    wasm.decisions.some((d) => d.backend === 'cpu-wasm'),
    'cpu-wasm ran some layers',
  );
}

await run('float64');
await run('float32');
await shutdown();
console.log('\nok: cpu-wasm agrees with cpu-js');
