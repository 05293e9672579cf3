// tessera's public API: lazy, chunked n-d arrays, their operations, and compute.
// Importing this module installs the method forms on LazyArray.

import './array/methods.ts';

export {
  absolute,
  arccos,
  arccosh,
  arcsin,
  arcsinh,
  arctan,
  arctan2,
  arctanh,
  concatenate,
  flatten,
  hstack,
  ravel,
  vstack,
} from './aliases.ts';
export { type AverageOptions, average } from './apply/average.ts';
export { broadcastTo, expandDims, flip, squeeze } from './apply/axes.ts';
export { type BincountOptions, bincount } from './apply/bincount.ts';
export {
  type AdjustChunks,
  type BlockInfo,
  type BlockwiseOptions,
  blockwise,
} from './apply/blockwise.ts';
export {
  type CoarsenOptions,
  type CoarsenReduction,
  type CoarsenReductionName,
  coarsen,
} from './apply/coarsen.ts';
export { conj, imag, real } from './apply/complex-parts.ts';
export { concat, stack } from './apply/concat.ts';
export { type CorrcoefOptions, type CovOptions, corrcoef, cov } from './apply/covariance.ts';
export { cumsum } from './apply/cumsum.ts';
export {
  type CumulativeOptions,
  countNonzero,
  cumulativeProd,
  cumulativeSum,
} from './apply/cumulative.ts';
export { type DiffOptions, diff, gradient } from './apply/difference.ts';
export { einsum } from './apply/einsum.ts';
export {
  abs,
  add,
  ceil,
  cos,
  divide,
  exp,
  expm1,
  floor,
  floorDivide,
  log,
  log1p,
  maximum,
  minimum,
  multiply,
  negative,
  pow,
  remainder,
  round,
  sign,
  sin,
  sqrt,
  subtract,
  tan,
  tanh,
} from './apply/elementwise-arith.ts';
export {
  bitwiseAnd,
  bitwiseInvert,
  bitwiseLeftShift,
  bitwiseOr,
  bitwiseRightShift,
  bitwiseXor,
} from './apply/elementwise-bitwise.ts';
export {
  astype,
  clip,
  equal,
  greater,
  greaterEqual,
  isfinite,
  isinf,
  isnan,
  less,
  lessEqual,
  logicalAnd,
  logicalNot,
  logicalOr,
  logicalXor,
  notEqual,
  signbit,
  where,
} from './apply/elementwise-logic.ts';
export {
  acos,
  acosh,
  asin,
  asinh,
  atan,
  atan2,
  atanh,
  copysign,
  cosh,
  hypot,
  log2,
  log10,
  logaddexp,
  nextafter,
  positive,
  reciprocal,
  sinh,
  square,
  trunc,
} from './apply/elementwise-math.ts';
export { type ElementwiseOptions, elementwise } from './apply/expression.ts';
export type { FftNorm, FftnOptions, FftOptions } from './apply/fft.ts';
export type { FftFreqOptions, FftShiftOptions } from './apply/fft-helpers.ts';
export * as fft from './apply/fft-namespace.ts';
export {
  type FilterMode,
  type FilterOptions,
  type GaussianFilterOptions,
  gaussianFilter,
  uniformFilter,
} from './apply/filters.ts';
export {
  type Bins,
  type Histogram2dOptions,
  type HistogramOptions,
  histogram,
  histogram2d,
} from './apply/histogram.ts';
export { getIndex, type Index, mask, setIndex } from './apply/indexing.ts';
export {
  type ApplyArgFor,
  type ApplyArgs,
  type ApplyKernel,
  type ApplyKwargs,
  type LazyApplyArg,
  type LazyApplyOptions,
  lazyApply,
} from './apply/lazy-apply.ts';
export { matmul, tensordot } from './apply/linalg.ts';
export type {
  EighResult,
  EigResult,
  QRResult,
  QrOptions,
  SVDResult,
  SvdOptions,
} from './apply/linalg-decomp.ts';
export * as linalg from './apply/linalg-namespace.ts';
export type { MatrixNormOrd, VectorNormOptions } from './apply/linalg-norms.ts';
export type { LstsqResult, RtolOptions, SlogdetResult } from './apply/linalg-solve.ts';
export { type MapBlocksOptions, mapBlocks } from './apply/map-blocks.ts';
export {
  nanargmax,
  nanargmin,
  nanmax,
  nanmean,
  nanmin,
  nanprod,
  nanstd,
  nansum,
  nanvar,
} from './apply/nan-reductions.ts';
export {
  type Boundary,
  type BoundarySpec,
  type DepthSpec,
  type MapOverlapOptions,
  mapOverlap,
  overlap,
  trimOverlap,
} from './apply/overlap.ts';
export { type PadMode, type PadOptions, type PadWidths, pad } from './apply/pad.ts';
export {
  median,
  nanmedian,
  nanpercentile,
  nanquantile,
  percentile,
  type QuantileMethod,
  type QuantileOptions,
  quantile,
} from './apply/percentile.ts';
export { type RechunkOptions, rechunk } from './apply/rechunk.ts';
export {
  all,
  any,
  argmax,
  argmin,
  max,
  mean,
  min,
  prod,
  type ReductionOptions,
  std,
  sum,
  variance,
  variance as var,
} from './apply/reductions.ts';
export { reshape } from './apply/reshape.ts';
export {
  nonzero,
  type SearchsortedOptions,
  searchsorted,
  takeAlongAxis,
} from './apply/searching.ts';
export { argsort, type SortOptions, sort } from './apply/sort.ts';
export { broadcastArrays, meshgrid, unstack } from './apply/stacking.ts';
export { take } from './apply/take.ts';
export { repeat, roll, tile } from './apply/tiling.ts';
export { argtopk, type TopkOptions, topk } from './apply/topk.ts';
export { moveaxis, permuteDims, swapaxes, transpose } from './apply/transpose.ts';
export { type EyeOptions, eye, tril, triu } from './apply/triangle.ts';
export { uniqueAll, uniqueCounts, uniqueInverse, uniqueValues } from './apply/unique.ts';
export { matrixTranspose, vecdot } from './apply/vecdot.ts';
export { convolve, medianFilter } from './apply/window-filters.ts';
export { type ZoomOptions, zoom } from './apply/zoom.ts';
export { type AsarrayOptions, asarray } from './array/asarray.ts';
export { type Computed, type ComputeOptions, compute } from './array/compute.ts';
export {
  arange,
  type CreationOptions,
  empty,
  fromFunction,
  full,
  linspace,
  ones,
  zeros,
} from './array/creation.ts';
export {
  emptyLike,
  fullLike,
  type LikeOptions,
  onesLike,
  zerosLike,
} from './array/creation-like.ts';
export { type DType, promoteTypes, resultType, type TypedArray } from './array/dtype.ts';
export {
  canCast,
  type DTypeKindName,
  type FInfo,
  finfo,
  type IInfo,
  iinfo,
  isdtype,
} from './array/dtype-info.ts';
export { type ArrayLike, asLazy, type FromArrayOptions, fromArray } from './array/from-array.ts';
export { isLazyArray, LazyArray } from './array/lazy-array.ts';
export { type Complex, NDArray, ndarray } from './array/ndarray.ts';
export { computeChunkSizes, type Persisted, persist } from './array/persist.ts';
export { random } from './array/random.ts';
export { shutdown } from './array/shutdown.ts';
export {
  type DotOptions,
  type RenderedOptions,
  type VisualizeOptions,
  visualize,
} from './array/visualize.ts';
export { normalizeChunks } from './chunking/normalize.ts';
export type { ChunkSpec, Chunks, Size } from './chunking/types.ts';
export { type Config, config, configure, resetConfig, type SchedulerName } from './config.ts';
export { type Device, parseDevice } from './devices/device.ts';
export { disableGuards } from './devices/guards.ts';
export { toDevice, withDevice } from './devices/placement.ts';
export {
  type Dashboard,
  type DashboardOptions,
  serveDashboard,
} from './diagnostics/dashboard.ts';
export {
  type MemorySample,
  type Profile,
  type ProfileError,
  type ProfileTask,
  type ProfileTasks,
  profileTasks,
} from './diagnostics/profile.ts';
export { readProfileHtml } from './diagnostics/profile-html.ts';
export type { ProgressEvent } from './diagnostics/progress.ts';
export { backendFor } from './dispatch/backend-for.ts';
export {
  listBackends,
  registerBackend,
  unregisterBackend,
} from './dispatch/default.ts';
export {
  type DispatchableOptions,
  dispatchable,
  dispatchableClass,
} from './dispatch/dispatchable.ts';
export {
  type Attempt,
  type Decision,
  type DispatchStat,
  dispatchStats,
  resetDispatchStats,
} from './dispatch/stats.ts';
export type { Backend, BackendDevice, InputMeta, OpMeta, Verdict } from './dispatch/types.ts';
export {
  type BackendScopeOptions,
  type CallOptions,
  type Traced,
  withBackend,
} from './dispatch/with-backend.ts';
export * from './errors.ts';
export { type FromNpyOptions, fromNpy } from './io/npy.ts';
export { fromNpyStack, type ToNpyStackOptions, toNpyStack } from './io/npy-stack.ts';
export { toNpy } from './io/to-npy.ts';
export { type FromZarrOptions, fromZarr, type ToZarrOptions, toZarr } from './io/zarr.ts';
export {
  type CodePolicy,
  type CodePolicyOptions,
  createCodePolicy,
} from './kernels/code-policy.ts';
export {
  defineKernels,
  type KernelHandle,
  type KernelLocation,
} from './kernels/define-kernels.ts';
export { VERSION } from './version.ts';
export { DistributedExecutor, type DistributedOptions } from './workers/distributed.ts';
export {
  type DistributedWorker,
  type DistributedWorkerOptions,
  startDistributedWorker,
} from './workers/distributed-worker.ts';
export { ThreadPoolExecutor } from './workers/pool.ts';
export { ProcessPoolExecutor } from './workers/process-pool.ts';
export type { RunStats } from './workers/scheduler.ts';
export type { Executor, TaskPayload } from './workers/types.ts';
