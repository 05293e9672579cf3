// Dense references for contractions: a naive einsum over every index combination and a
// naive batched matmul with NumPy's 1-d promotion and batch broadcasting.

import { type DType, type NumberArray, typedArrayCtor } from '../../src/array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../../src/array/ndarray.ts';

function store(values: Float64Array, shape: readonly number[], dtype: DType): NDArray {
  const out = new (typedArrayCtor(dtype))(values.length);
  for (let i = 0; i < values.length; i++) {
    out[i] = dtype === 'bool' ? (values[i] !== 0 ? 1 : 0) : values[i]!;
  }
  return new NDArray(out, shape, dtype);
}

/** einsum by brute force: loop over every combination of every letter. */
export function denseEinsum(
  terms: readonly string[],
  out: string,
  xs: readonly NDArray[],
  dtype: DType,
): NDArray {
  const size = new Map<string, number>();
  terms.forEach((t, i) => {
    for (let ax = 0; ax < t.length; ax++) size.set(t[ax]!, xs[i]!.shape[ax]!);
  });
  const letters = [...size.keys()];
  const outShape = [...out].map((l) => size.get(l)!);
  const acc = new Float64Array(shapeSize(outShape));
  const outSt = cStrides(outShape);
  const st = xs.map((x) => cStrides(x.shape));
  const idx = new Map<string, number>();
  const walk = (d: number): void => {
    if (d === letters.length) {
      let prod = 1;
      terms.forEach((t, i) => {
        let off = 0;
        [...t].forEach((l, ax) => {
          off += idx.get(l)! * st[i]![ax]!;
        });
        prod *= (xs[i]!.data as NumberArray)[off]!;
      });
      let o = 0;
      [...out].forEach((l, ax) => {
        o += idx.get(l)! * outSt[ax]!;
      });
      acc[o]! += prod;
      return;
    }
    for (let i = 0; i < size.get(letters[d]!)!; i++) {
      idx.set(letters[d]!, i);
      walk(d + 1);
    }
  };
  walk(0);
  return store(acc, outShape, dtype);
}

/** NumPy matmul by explicit loops: 1-d operands promoted, batch axes broadcast. */
export function denseMatmul(a: NDArray, b: NDArray, dtype: DType): NDArray {
  const A = a.ndim === 1 ? new NDArray(a.data, [1, a.shape[0]!], a.dtype) : a;
  const B = b.ndim === 1 ? new NDArray(b.data, [b.shape[0]!, 1], b.dtype) : b;
  const [m, k] = A.shape.slice(-2) as [number, number];
  const n = B.shape[B.ndim - 1]!;
  const ba = A.shape.slice(0, -2);
  const bb = B.shape.slice(0, -2);
  const nb = Math.max(ba.length, bb.length);
  const batch = Array.from({ length: nb }, (_, i) => {
    const da = ba[i - (nb - ba.length)] ?? 1;
    const db = bb[i - (nb - bb.length)] ?? 1;
    return da === 1 ? db : da;
  });
  const acc = new Float64Array(shapeSize(batch) * m * n);
  const flatBatch = (shape: readonly number[], idx: readonly number[]): number => {
    let f = 0;
    shape.forEach((s, i) => {
      f = f * s + (s === 1 ? 0 : idx[i + (nb - shape.length)]!);
    });
    return f;
  };
  for (let t = 0; t < shapeSize(batch); t++) {
    const idx: number[] = [];
    for (let r = t, d = nb - 1; d >= 0; d--) {
      idx[d] = r % batch[d]!;
      r = Math.floor(r / batch[d]!);
    }
    const oa = flatBatch(ba, idx) * m * k;
    const ob = flatBatch(bb, idx) * k * n;
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let p = 0; p < k; p++)
          s += (A.data as NumberArray)[oa + i * k + p]! * (B.data as NumberArray)[ob + p * n + j]!;
        acc[t * m * n + i * n + j] = s;
      }
  }
  const shape = [...batch, ...(a.ndim === 1 ? [] : [m]), ...(b.ndim === 1 ? [] : [n])];
  return store(acc, shape, dtype);
}
