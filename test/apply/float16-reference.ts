// Dense float16 references, written independently of src/array/float16.ts: nearest-even
// rounding through Math.log2 and exact power-of-two scaling, and one-ulp distances.

/** `x` rounded to the nearest float16 value (ties to even; ±Infinity past 65504). */
export function refRound16(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  if (a >= 65520) return neg ? -Infinity : Infinity;
  let e = a === 0 ? -14 : Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  e = Math.max(e, -14);
  const q = a / 2 ** (e - 10);
  const f = Math.floor(q);
  const d = q - f;
  const m = d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
  const v = m * 2 ** (e - 10);
  return neg ? -v : v;
}

/** The spacing of float16 values at `v` (a float16 value). */
export function ulp16(v: number): number {
  const a = Math.abs(v);
  const e = a === 0 ? -14 : Math.max(-14, Math.floor(Math.log2(a)));
  return 2 ** (e - 10);
}

/** Whether `got` is `want` (NaN, ±0 and ±Infinity exactly) or within `ulps` float16 ulps. */
export function near16(got: number, want: number, ulps: number): boolean {
  if (Object.is(got, want)) return true;
  if (!Number.isFinite(got) || !Number.isFinite(want)) return false;
  return Math.abs(got - want) <= ulps * ulp16(want);
}
