import { compute, concat, cumsum, mapBlocks, persist, random, rechunk, stack, type NDArray } from '/work/wt-move/src/index.ts';
const N = Number(process.env.N ?? 2000), C = Number(process.env.C ?? 500);
const opts = { scheduler: 'sync' } as const;
const [X, X3, XT, ...YS] = await persist(random.uniform([N, N], { seed: 1, chunks: [C, C] }),
  random.uniform([128,128,128], { seed: 2, chunks: [128,128,8] }),
  random.uniform([N, N], { seed: 3, chunks: [N, 100] }),
  ...[1,2,3,4].map((s) => random.uniform([N/2, N], { seed: s, chunks: [C, C] })), opts);
function normalise(b: NDArray): Float64Array { const d = b.data as Float64Array; const n=d.length; let s=0; for (let i=0;i<n;i++) s+=d[i]!; const m=s/n; let q=0; for(let i=0;i<n;i++) q+=(d[i]!-m)*(d[i]!-m); const r=1/Math.sqrt(q/n); const o=new Float64Array(n); for(let i=0;i<n;i++) o[i]=(d[i]!-m)*r; return o; }
const cases: Record<string, () => Promise<unknown>> = {
  mask: () => compute(X!.mask(X!.greater(0.5)).sum(), opts),
  gt: () => compute(X!.greater(0.5).sum(), opts),
  sum: () => compute(X!.sum(), opts),
  revslice: () => compute(X!.get('::-1, :').mean({ axis: 0 }), opts),
  mean0: () => compute(X!.mean({ axis: 0 }), opts),
  cumsum0: () => persist(cumsum(X!, { axis: 0 }), opts),
  stack: () => compute(stack(YS as any).sum({ axis: 0 }), opts),
  concat: () => persist(concat(YS as any), opts),
  mapblocks: () => persist(mapBlocks(normalise, X!, { dtype: 'float64' }), opts),
  std0: () => compute(X!.std({ axis: 0 }), opts),
  var0: () => compute(X!.var({ axis: 0 }), opts),
  std1: () => compute(X!.std({ axis: 1 }), opts),
  rechunk3d: () => persist(rechunk(X3!, [8,128,128]), opts),
  rechunkT: () => persist(rechunk(XT!, [100, N]), opts),
};
const sel = (process.env.CASES ?? Object.keys(cases).join(',')).split(',');
for (const k of sel) { await cases[k]!(); }
for (const k of sel) { let best = 1e9; for (let r = 0; r < 3; r++) { const t0 = performance.now(); await cases[k]!(); best = Math.min(best, performance.now() - t0); } console.log(k.padEnd(10), best.toFixed(1), 'ms'); }
