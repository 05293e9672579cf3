// The `linalg` namespace of the public API (the Array API's linear-algebra extension, plus
// lstsq): a module re-exporting the functions of the linalg-*.ts files.

/**
 * The `linalg` namespace (the Array API's linear-algebra extension): `linalg.qr`,
 * `linalg.svd`, `linalg.solve`, `linalg.lstsq`, … Functions act on the last two axes
 * ("matrices") and loop over the leading ones, one task per block of those; `qr`, `svd`
 * (`fullMatrices: false`), `svdvals` and `lstsq` of a 2-d array chunked along its rows run
 * as TSQR, one task per row block.
 * @example
 * const { Q, R } = linalg.qr(x); // x: [1e6, 100] in row blocks
 * const y = linalg.solve(a, b);
 * @module
 */

export { matmul, tensordot } from './linalg.ts';
export { cholesky, eig, eigh, eigvalsh, qr, svd, svdvals } from './linalg-decomp.ts';
export { matrixNorm, vectorNorm } from './linalg-norms.ts';
export { cross, diagonal, matrixTranspose, outer, trace, vecdot } from './linalg-shape.ts';
export {
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
