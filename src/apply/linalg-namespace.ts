// The `linalg` namespace of the public API (the Array API's linear-algebra extension, plus
// lstsq): one object gathering the functions of the linalg-*.ts files.

import { matmul, tensordot } from './linalg.ts';
import { cholesky, eig, eigh, eigvalsh, qr, svd, svdvals } from './linalg-decomp.ts';
import { matrixNorm, vectorNorm } from './linalg-norms.ts';
import { cross, diagonal, matrixTranspose, outer, trace, vecdot } from './linalg-shape.ts';
import {
  det,
  inv,
  lstsq,
  matrixPower,
  matrixRank,
  pinv,
  slogdet,
  solve,
  sqrtm,
} from './linalg-solve.ts';

/**
 * The `linalg` namespace (the Array API's linear-algebra extension): `linalg.qr`,
 * `linalg.svd`, `linalg.solve`, `linalg.lstsq`, … Functions act on the last two axes
 * ("matrices") and loop over the leading ones, one task per block of those; `qr`, `svd`
 * (`fullMatrices: false`), `svdvals` and `lstsq` of a 2-d array chunked along its rows run
 * as TSQR, one task per row block.
 * @example
 * const { Q, R } = linalg.qr(x); // x: [1e6, 100] in row blocks
 * const y = linalg.solve(a, b);
 */
export const linalg = {
  cholesky,
  cross,
  det,
  diagonal,
  eig,
  eigh,
  eigvalsh,
  inv,
  lstsq,
  matmul,
  matrixNorm,
  matrixPower,
  matrixRank,
  matrixTranspose,
  outer,
  pinv,
  qr,
  slogdet,
  solve,
  sqrtm,
  svd,
  svdvals,
  tensordot,
  trace,
  vecdot,
  vectorNorm,
} as const;
