// The one definition of zoom's resampling (MONAI's resize, torch.nn.functional.interpolate
// with align_corners=False): for each output index along an axis, the input indices it reads
// and their weights. Both the CPU and the GPU kernels apply exactly these taps.

/** Interpolation order: 0 nearest, 1 linear, 3 cubic (cubic convolution, A = -0.75). */
export type ZoomOrder = 0 | 1 | 3;

/** Per output index j, taps `idx[j·taps + t]` with weights `w[j·taps + t]`. */
export interface ZoomTaps {
  readonly taps: number;
  readonly idx: Int32Array;
  readonly w: Float64Array;
}

const A = -0.75;
const cubicNear = (t: number): number => ((A + 2) * t - (A + 3)) * t * t + 1;
const cubicFar = (t: number): number => ((A * t - 5 * A) * t + 8 * A) * t - 4 * A;

/**
 * The taps resampling `nIn` samples to `nOut`.
 * @example
 * zoomTaps(4, 8, 1); // taps 2: output 0 reads input 0 (weight 1), output 1 reads 0 and 1, …
 */
export function zoomTaps(nIn: number, nOut: number, order: ZoomOrder): ZoomTaps {
  const taps = order === 0 ? 1 : order === 1 ? 2 : 4;
  const idx = new Int32Array(nOut * taps);
  const w = new Float64Array(nOut * taps);
  const scale = nIn / nOut;
  const clamp = (i: number): number => Math.min(Math.max(i, 0), nIn - 1);
  for (let j = 0; j < nOut; j++) {
    const o = j * taps;
    if (order === 0) {
      idx[o] = clamp(Math.floor(j * scale));
      w[o] = 1;
      continue;
    }
    const src = (j + 0.5) * scale - 0.5;
    if (order === 1) {
      const s = Math.max(src, 0);
      const i0 = Math.floor(s);
      const t = s - i0;
      idx[o] = clamp(i0);
      idx[o + 1] = clamp(i0 + 1);
      w[o] = 1 - t;
      w[o + 1] = t;
      continue;
    }
    const i = Math.floor(src);
    const t = src - i;
    const ws = [cubicFar(t + 1), cubicNear(t), cubicNear(1 - t), cubicFar(2 - t)];
    for (let k = 0; k < 4; k++) {
      idx[o + k] = clamp(i - 1 + k);
      w[o + k] = ws[k]!;
    }
  }
  return { taps, idx, w };
}

/** Params of the 'zoom-axis' kernel: resample `axis` of the block (whole along it) with `taps`. */
export interface ZoomAxisParams extends ZoomTaps {
  readonly axis: number;
  readonly nOut: number;
  readonly dtype: import('../../../array/dtype.ts').DType;
}
