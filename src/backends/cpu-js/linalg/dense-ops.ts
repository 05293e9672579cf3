// The dense per-matrix operations of the 'linalg' kernel, by name: each maps float64 core
// matrices to float64 results (vectors are one-row matrices, scalars 1×1).

import { ValueError } from '../../../errors.ts';
import { eigDense } from './dense-eig.ts';
import { eighDense } from './dense-eigh.ts';
import {
  choleskyDense,
  detDense,
  invDense,
  luFactor,
  luSolve,
  slogdetDense,
  sqrtmDense,
} from './dense-lu.ts';
import {
  eyeMat,
  householderQr,
  type Mat,
  mulMat,
  rowsOf,
  transposeMat,
  zerosMat,
} from './dense-qr.ts';
import { singularValues, svdDense } from './dense-svd.ts';
import { tallQr } from './dense-tall-qr.ts';

/** Op-specific parameters (all plain data). */
export interface DenseOpArgs {
  readonly complete?: boolean;
  readonly full?: boolean;
  readonly upper?: boolean;
  /** Relative cutoff of singular values (pinv, matrixRank, lstsq). */
  readonly rtol?: number;
  readonly power?: number;
  readonly offset?: number;
  readonly rows?: number;
  /** The user-facing function, for error messages. */
  readonly fn: string;
}

export type DenseOp = (mats: readonly Mat[], args: DenseOpArgs) => Mat[];

const row = (v: Float64Array): Mat => ({ data: v, rows: 1, cols: v.length });
const scalar = (x: number): Mat => ({ data: Float64Array.of(x), rows: 1, cols: 1 });

/** V diag(1/s) Uᵀ over the singular values above rtol · max(s). */
function pinvDense(a: Mat, rtol: number): Mat {
  const { u, s, vt } = svdDense(a, false);
  const cut = rtol * (s[0] ?? 0);
  const k = s.length;
  const us = transposeMat(u); // k×m
  for (let i = 0; i < k; i++) {
    const f = s[i]! > cut ? 1 / s[i]! : 0;
    for (let j = 0; j < us.cols; j++) us.data[i * us.cols + j]! *= f;
  }
  return mulMat(transposeMat(vt), us);
}

/** a to the integer power p by repeated squaring (negative: of the inverse). */
function powerDense(a: Mat, p: number, fn: string): Mat {
  let base = p < 0 ? invDense(a, fn) : a;
  let e = Math.abs(p);
  let out = eyeMat(a.rows);
  while (e > 0) {
    if (e % 2 === 1) out = mulMat(out, base);
    e = Math.floor(e / 2);
    if (e > 0) base = mulMat(base, base);
  }
  return out;
}

/** Minimum-norm least squares x of R x ≈ c through the SVD of the small triangle R. */
function lstsqSmall(r: Mat, c: Mat, rtol: number): Mat[] {
  const { u, s, vt } = svdDense(r, false);
  const cut = rtol * (s[0] ?? 0);
  const utc = mulMat(transposeMat(u), c);
  let rank = 0;
  for (let i = 0; i < s.length; i++) {
    const f = s[i]! > cut ? 1 / s[i]! : 0;
    if (f !== 0) rank++;
    for (let j = 0; j < utc.cols; j++) utc.data[i * utc.cols + j]! *= f;
  }
  return [mulMat(transposeMat(vt), utc), scalar(rank), row(s)];
}

function diagonalOf(a: Mat, offset: number): Mat {
  const start = offset >= 0 ? [0, offset] : [-offset, 0];
  const len = Math.max(0, Math.min(a.rows - start[0]!, a.cols - start[1]!));
  return row(
    Float64Array.from({ length: len }, (_, i) => a.data[(start[0]! + i) * a.cols + start[1]! + i]!),
  );
}

function cross3(a: Mat, b: Mat): Mat {
  const [x, y] = [a.data, b.data];
  return row(
    Float64Array.of(
      x[1]! * y[2]! - x[2]! * y[1]!,
      x[2]! * y[0]! - x[0]! * y[2]!,
      x[0]! * y[1]! - x[1]! * y[0]!,
    ),
  );
}

/** Rows of several matrices stacked (the R factors of a TSQR tree level). */
export function stackRows(mats: readonly Mat[]): Mat {
  const cols = mats[0]!.cols;
  const out = zerosMat(
    mats.reduce((s, m) => s + m.rows, 0),
    cols,
  );
  let at = 0;
  for (const m of mats) {
    out.data.set(m.data, at);
    at += m.data.length;
  }
  return out;
}

/** Every dense op by name. */
export const DENSE_OPS: Readonly<Record<string, DenseOp>> = {
  qr: ([a], p) => {
    const { q, r } = p.complete === true ? householderQr(a!, true) : tallQr(a!);
    return [q, r];
  },
  svd: ([a], p) => {
    const { u, s, vt } = svdDense(a!, p.full === true);
    return [u, row(s), vt];
  },
  svdvals: ([a]) => [row(singularValues(a!))],
  eigh: ([a]) => {
    const { values, vectors } = eighDense(a!);
    return [row(values), vectors];
  },
  eigvalsh: ([a]) => [row(eighDense(a!).values)],
  eig: ([a]) => {
    const { values, vectors } = eigDense(a!);
    return [row(values), row(vectors)];
  },
  cholesky: ([a], p) => [choleskyDense(a!, p.upper === true, p.fn)],
  inv: ([a], p) => [invDense(a!, p.fn)],
  solve: ([a, b], p) => [luSolve(luFactor(a!), b!, p.fn)],
  det: ([a]) => [scalar(detDense(a!))],
  slogdet: ([a]) => {
    const { sign, logabsdet } = slogdetDense(a!);
    return [scalar(sign), scalar(logabsdet)];
  },
  pinv: ([a], p) => [pinvDense(a!, p.rtol ?? 0)],
  matrixRank: ([a], p) => {
    const s = singularValues(a!);
    const cut = (p.rtol ?? 0) * (s[0] ?? 0);
    return [scalar(s.filter((v) => v > cut).length)];
  },
  matrixPower: ([a], p) => [powerDense(a!, p.power ?? 1, p.fn)],
  sqrtm: ([a], p) => [sqrtmDense(a!, p.fn)],
  diagonal: ([a], p) => [diagonalOf(a!, p.offset ?? 0)],
  cross: ([a, b]) => [cross3(a!, b!)],
  lstsq: ([r, c], p) => lstsqSmall(r!, c!, p.rtol ?? 0),
  /** A TSQR tree node: the QR of its children's stacked R factors. */
  'tsqr-stack': (mats) => {
    const { q, r } = tallQr(stackRows(mats));
    return [q, r];
  },
  /** A TSQR node's Q times its rows [offset, offset + rows) of its parent's composite Q. */
  'tsqr-down': ([q, g], p) => {
    const off = p.offset ?? 0;
    return [mulMat(q!, rowsOf(g!, off, off + (p.rows ?? q!.cols)))];
  },
};

/** The op `name`, or a ValueError (a task naming an unknown op is a graph bug). */
export function denseOp(name: string): DenseOp {
  const op = Object.hasOwn(DENSE_OPS, name) ? DENSE_OPS[name] : undefined;
  if (op === undefined) throw new ValueError(`linalg: unknown dense op '${name}'`);
  return op;
}
