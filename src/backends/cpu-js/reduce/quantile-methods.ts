// NumPy's quantile methods (numpy.quantile's `method`, Hyndman & Fan 1996): for n sorted
// values and q in [0, 1], the order statistics to read and how to mix them, as NumPy 1.24.

/** The methods numpy.quantile accepts. */
export const QUANTILE_METHODS = [
  'inverted_cdf',
  'averaged_inverted_cdf',
  'closest_observation',
  'interpolated_inverted_cdf',
  'hazen',
  'weibull',
  'linear',
  'median_unbiased',
  'normal_unbiased',
  'lower',
  'higher',
  'midpoint',
  'nearest',
] as const;

/** The methods of percentile/quantile (NumPy's names), e.g. 'linear', 'nearest', 'hazen'. */
export type QuantileMethod = (typeof QUANTILE_METHODS)[number];

/** Methods that return one of the data values (integers keep their dtype). */
export const DISCRETE_METHODS: readonly QuantileMethod[] = [
  'inverted_cdf',
  'closest_observation',
  'lower',
  'higher',
  'nearest',
];

/**
 * Where to read: `prev` and `next` (indices into the sorted values) mixed by NumPy's lerp
 * with weight `gamma` (`prev === next` for the discrete methods).
 */
export interface QuantilePick {
  prev: number;
  next: number;
  gamma: number;
}

/** Round half to even (np.around). */
function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const ALPHA_BETA: Partial<Record<QuantileMethod, readonly [number, number]>> = {
  interpolated_inverted_cdf: [0, 1],
  hazen: [0.5, 0.5],
  weibull: [0, 0],
  median_unbiased: [1 / 3.0, 1 / 3.0],
  normal_unbiased: [3 / 8.0, 3 / 8.0],
};

/** NumPy's _discret_interpolation_to_boundaries: floor or floor + 1, clipped at 0. */
function boundary(index: number, takePrev: (gamma: number, index: number) => boolean): number {
  const prev = Math.floor(index);
  const res = takePrev(index - prev, index) ? prev : prev + 1;
  return Math.max(res, 0);
}

function discreteIndex(method: QuantileMethod, n: number, q: number): number | undefined {
  switch (method) {
    case 'lower':
      return Math.floor((n - 1) * q);
    case 'higher':
      return Math.ceil((n - 1) * q);
    case 'nearest':
      return roundHalfEven((n - 1) * q);
    case 'inverted_cdf':
      return boundary(n * q - 1, (g) => g === 0);
    case 'closest_observation':
      return boundary(n * q - 1 - 0.5, (g, i) => g === 0 && Math.floor(i) % 2 === 0);
    default:
      return undefined;
  }
}

function virtualIndex(method: QuantileMethod, n: number, q: number): number {
  if (method === 'linear') return (n - 1) * q;
  if (method === 'averaged_inverted_cdf') return n * q - 1;
  if (method === 'midpoint') return 0.5 * (Math.floor((n - 1) * q) + Math.ceil((n - 1) * q));
  const [alpha, beta] = ALPHA_BETA[method]!;
  return n * q + (alpha + q * (1 - alpha - beta)) - 1;
}

function fixGamma(method: QuantileMethod, gamma: number, index: number): number {
  if (method === 'averaged_inverted_cdf') return gamma === 0 ? 0.5 : 1;
  if (method === 'midpoint') return index % 1 === 0 ? 0 : 0.5;
  return gamma;
}

/**
 * The order statistics of quantile `q` of `n` (>= 1) sorted values under `method`.
 * @example
 * quantilePick('linear', 5, 0.3); // { prev: 1, next: 2, gamma: 0.2 } (up to rounding)
 */
export function quantilePick(method: QuantileMethod, n: number, q: number): QuantilePick {
  const d = discreteIndex(method, n, q);
  if (d !== undefined) return { prev: d, next: d, gamma: 0 };
  const vi = virtualIndex(method, n, q);
  let prevRaw = Math.floor(vi);
  let prev = prevRaw;
  let next = prevRaw + 1;
  if (vi >= n - 1) {
    prevRaw = -1; // NumPy marks the last element as -1, and its gamma sees that
    prev = n - 1;
    next = n - 1;
  }
  if (vi < 0) {
    prevRaw = 0;
    prev = 0;
    next = 0;
  }
  return { prev, next, gamma: fixGamma(method, vi - prevRaw, vi) };
}

/** NumPy's _lerp: a + (b - a)·t, or b - (b - a)·(1 - t) from t = 0.5 on. */
export function lerp(a: number, b: number, t: number): number {
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}
