// `tessera info`: the backends found, their versions and kernels, which kernels pass the
// backend contract here, and why a backend is unavailable.

import { probeGpu } from '../devices/probe.ts';
import { runContract, seededDraw } from '../dispatch/contract.ts';
import { listBackends } from '../dispatch/default.ts';
import { VERSION } from '../version.ts';

/** The lines `tessera info` prints. */
export async function infoLines(): Promise<string[]> {
  const lines = [
    `tessera ${VERSION} on Node ${process.versions.node} (${process.platform}-${process.arch})`,
    'backends (highest priority first):',
  ];
  probeGpu(); // so that the webgpu backend knows whether there is an adapter
  for (const b of listBackends()) {
    const avail = b.available?.() ?? true;
    const head = `  ${b.name} ${b.version ?? ''} [${b.device}] supports tessera ${b.supports}`;
    if (avail !== true) {
      lines.push(`${head} — unavailable: ${avail}`);
      continue;
    }
    lines.push(`${head}${b.requiresOptIn ? ' (opt-in)' : ''}`);
    lines.push(`    kernels (${b.kernels.length}): ${b.kernels.join(' ')}`);
    if (b.name === 'cpu-js') {
      lines.push('    contract: the reference every other backend is checked against');
      continue;
    }
    const results = await runContract(b.name, seededDraw(1));
    const byKernel = new Map<string, boolean>();
    for (const r of results) {
      if (r.exercised || !r.passed)
        byKernel.set(r.kernel, (byKernel.get(r.kernel) ?? true) && r.passed);
    }
    const pass = [...byKernel].filter(([, ok]) => ok).map(([k]) => k);
    const fail = [...byKernel].filter(([, ok]) => !ok).map(([k]) => k);
    const none = b.kernels.filter((k) => !byKernel.has(k));
    lines.push(
      `    contract: pass ${pass.join(' ') || '-'}${fail.length ? `; FAIL ${fail.join(' ')}` : ''}${none.length ? `; no cases for ${none.join(' ')}` : ''}`,
    );
  }
  return lines;
}
