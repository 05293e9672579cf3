// The backend contract: every built-in operation a backend implements, run on it and on
// cpu-js (the reference) over random shapes, chunkings and dtypes, compared value by value.
// The test suite and `tessera info` both run it.

import { einsum } from '../apply/einsum.ts';
import {
  add,
  cos,
  divide,
  exp,
  maximum,
  multiply,
  sqrt,
  subtract,
  tanh,
} from '../apply/elementwise-arith.ts';
import { greater, where } from '../apply/elementwise-logic.ts';
import { matmul } from '../apply/linalg.ts';
import { qr } from '../apply/linalg-decomp.ts';
import { max, mean, min, sum } from '../apply/reductions.ts';
import { compute } from '../array/compute.ts';
import type { DType } from '../array/dtype.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import type { NDArray } from '../array/ndarray.ts';
import { uniform } from '../array/random.ts';
import type { Device } from '../devices/device.ts';
import { disableGuards } from '../devices/guards.ts';
import { toDevice } from '../devices/placement.ts';
import { defaultBackends } from './default.ts';
import { type Traced, withBackend } from './with-backend.ts';

/** One case: an expression to build under a backend, and how close results must be. */
export interface ContractCase {
  readonly label: string;
  readonly build: () => LazyArray;
  /** 'exact' (bit for bit) or a relative tolerance scaled by the result's magnitude. */
  readonly tolerance: 'exact' | number;
}

/** A random source for cases: integers in [lo, hi]. */
export type Draw = (lo: number, hi: number) => number;

/** Where cases put their inputs, and the dtypes they use there. */
export interface Placement {
  readonly floats: readonly DType[];
  readonly place: (x: LazyArray) => LazyArray;
}

const HOST: Placement = { floats: ['float64', 'float32'], place: (x) => x };

/** A deterministic Draw from a seed (mulberry32). */
export function seededDraw(seed: number): Draw {
  let s = seed >>> 0;
  return (lo, hi) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return lo + Math.floor(u * (hi - lo + 1));
  };
}

function array(draw: Draw, shape: number[], dtype: DType, at: Placement): LazyArray {
  const chunks = shape.map((n) => Math.max(1, draw(1, n)));
  return at.place(uniform(shape, { seed: draw(0, 1e6), chunks, dtype: dtype as 'float64' }));
}

const shape2 = (draw: Draw): number[] => [draw(1, 300), draw(1, 300)];
const tol = (d: DType): number => (d === 'float32' ? 1e-5 : 1e-12);

/** Cases per kernel name, drawn with `draw`. */
export const CONTRACT: Record<string, (draw: Draw, at: Placement) => ContractCase[]> = {
  ew: (draw, at) =>
    at.floats.flatMap((d) => {
      const s = shape2(draw);
      const x = array(draw, s, d, at);
      const y = array(draw, [s[1]!], d, at);
      return [
        { label: `${d} x*2+1`, build: () => add(multiply(x, 2), 1), tolerance: 'exact' },
        {
          label: `${d} sqrt(x)/(y+1) - exp(x)`,
          build: () => subtract(divide(sqrt(x), add(y, 1)), exp(x)),
          tolerance: 'exact',
        },
        {
          label: `${d} where(x>y, cos(x), tanh(y)) max 0.25`,
          build: () => maximum(where(greater(x, y), cos(x), tanh(y)), 0.25),
          tolerance: 'exact',
        },
      ] satisfies ContractCase[];
    }),
  'reduce-partial': (draw, at) =>
    at.floats.flatMap((d) => {
      const x = array(draw, shape2(draw), d, at);
      return [
        { label: `${d} sum`, build: () => sum(x), tolerance: tol(d) },
        { label: `${d} mean(axis 0)`, build: () => mean(x, { axis: 0 }), tolerance: tol(d) },
        { label: `${d} min(axis 1)`, build: () => min(x, { axis: 1 }), tolerance: 0 },
        { label: `${d} max`, build: () => max(x), tolerance: 0 },
      ] satisfies ContractCase[];
    }),
  'ew-reduce': (draw, at) =>
    at.floats.map((d) => {
      const x = array(draw, shape2(draw), d, at);
      return {
        label: `${d} sum(x*2+1)`,
        build: () => sum(add(multiply(x, 2), 1)),
        tolerance: tol(d),
      };
    }),
  matmul: (draw, at) =>
    at.floats.map((d) => {
      const [m, k, n] = [draw(1, 200), draw(1, 200), draw(1, 200)];
      const a = array(draw, [m, k], d, at);
      const b = array(draw, [k, n], d, at);
      return {
        label: `${d} (${m}×${k}) @ (${k}×${n})`,
        build: () => matmul(a, b),
        tolerance: tol(d) * 10,
      };
    }),
  linalg: (draw, at) =>
    at.floats.flatMap((d) => {
      const n = draw(2, 30);
      const rows = draw(n, 200);
      const x = at.place(
        uniform([rows * draw(1, 4), n], {
          seed: draw(0, 1e6),
          chunks: [rows, n],
          dtype: d as 'float64',
        }),
      );
      return [
        { label: `${d} linalg.qr(${x.shape}).Q`, build: () => qr(x).Q, tolerance: tol(d) * 100 },
        { label: `${d} linalg.qr(${x.shape}).R`, build: () => qr(x).R, tolerance: tol(d) * 100 },
      ] satisfies ContractCase[];
    }),
  einsum: (draw, at) =>
    at.floats.flatMap((d) => {
      const [s, m, k, n] = [draw(1, 4), draw(1, 120), draw(1, 120), draw(1, 120)];
      const a = array(draw, [s, m, k], d, at);
      const b = array(draw, [s, n, k], d, at);
      const c = array(draw, [k, n], d, at);
      return [
        {
          label: `${d} einsum('bik,bjk->bij') of (${s}×${m}×${k}), (${s}×${n}×${k})`,
          build: () => einsum('bik,bjk->bij', a, b),
          tolerance: tol(d) * 10,
        },
        {
          label: `${d} einsum('bik,kj->jbi') of (${s}×${m}×${k}), (${k}×${n})`,
          build: () => einsum('bik,kj->jbi', a, c),
          tolerance: tol(d) * 10,
        },
      ] satisfies ContractCase[];
    }),
};

/** The largest difference between two results, relative to the reference's magnitude. */
export function relativeError(got: ArrayLike<number>, want: ArrayLike<number>): number {
  let scale = 0;
  for (let i = 0; i < want.length; i++) scale = Math.max(scale, Math.abs(want[i]!));
  let err = 0;
  for (let i = 0; i < want.length; i++) {
    const a = got[i]!;
    const b = want[i]!;
    if (Number.isNaN(a) && Number.isNaN(b)) continue;
    err = Math.max(err, Math.abs(a - b));
  }
  return scale === 0 ? err : err / scale;
}

function identical(got: ArrayLike<number>, want: ArrayLike<number>): boolean {
  if (got.length !== want.length) return false;
  for (let i = 0; i < want.length; i++) if (!Object.is(got[i], want[i])) return false;
  return true;
}

/** The outcome of one case. */
export interface ContractResult {
  readonly kernel: string;
  readonly label: string;
  readonly passed: boolean;
  /** Some layer of the case ran on the backend (it may defer small blocks). */
  readonly exercised: boolean;
  readonly detail: string;
}

/**
 * Run every case of every kernel `backend` implements (and has cases for) on it and on cpu-js;
 * a GPU backend's cases start from arrays moved to `device`. A case passes when it ran on
 * the backend and matched.
 * @example
 * const results = await runContract('cpu-wasm', seededDraw(1));
 */
export async function runContract(
  backend: string,
  draw: Draw,
  rounds = 1,
  device: Device = 'gpu',
): Promise<ContractResult[]> {
  const b = defaultBackends.get(backend);
  if (b === undefined) throw new Error(`runContract: no backend named '${backend}'`);
  const others = defaultBackends
    .list()
    .map((x) => x.name)
    .filter((n) => n !== 'cpu-js');
  const at: Placement =
    b.device === 'gpu' ? { floats: ['float32'], place: (x) => toDevice(x, device) } : HOST;
  const host = (x: LazyArray): LazyArray => (x.device === 'cpu' ? x : toDevice(x, 'cpu'));
  const out: ContractResult[] = [];
  for (const kernel of b.kernels) {
    const make = CONTRACT[kernel];
    if (make === undefined) continue;
    for (let r = 0; r < rounds; r++) {
      for (const c of make(draw, at)) {
        let traced: Traced<LazyArray>;
        let g: NDArray | undefined;
        let w: NDArray | undefined;
        try {
          traced = withBackend({ prioritize: backend, trace: true }, c.build);
          const want = disableGuards(() => withBackend({ disable: others }, c.build));
          [g, w] = await compute(host(traced.value), host(want), { scheduler: 'sync' });
        } catch (e) {
          const detail = `failed: ${(e as Error).message}`;
          out.push({ kernel, label: c.label, passed: false, exercised: true, detail });
          continue;
        }
        const gd = g!.data as ArrayLike<number>;
        const wd = w!.data as ArrayLike<number>;
        // GPU transcendentals agree within a few float32 ulps, not bit for bit
        const tolerance = c.tolerance === 'exact' && b.device === 'gpu' ? 1e-5 : c.tolerance;
        const ok = tolerance === 'exact' ? identical(gd, wd) : relativeError(gd, wd) <= tolerance;
        const exercised = traced.decisions.some((d) => d.backend === backend);
        const passed = ok && g!.dtype === w!.dtype;
        const detail = !passed
          ? 'differs from cpu-js'
          : exercised
            ? `ran on ${backend}`
            : `${backend} deferred or declined every layer`;
        out.push({ kernel, label: c.label, passed, exercised, detail });
      }
    }
  }
  return out;
}
