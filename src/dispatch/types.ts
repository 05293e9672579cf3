// What a backend is: a named set of kernels for one device, with its own rules for when it
// can and should run an operation. The dispatch cascade (cascade.ts) chooses among them.

import type { DType } from '../array/dtype.ts';
import type { Chunks } from '../chunking/types.ts';

/** The device kind a backend's kernels run on. */
export type BackendDevice = 'cpu' | 'gpu';

/** `true`, or the reason a backend cannot (or should not) run an operation. */
export type Verdict = true | string;

/** What a backend sees of one array input of an operation. */
export interface InputMeta {
  readonly dtype: DType;
  readonly chunks: Chunks;
  /** The device the input's blocks live on ('cpu', 'gpu', 'gpu:1', …). */
  readonly device: string;
  /** The backend that makes the input's blocks ('cpu-js' for sources and glue layers). */
  readonly backend: string;
}

/**
 * What the dispatcher knows of an operation when the expression is built: the kernel its
 * tasks run, the kernel's params, the output and its inputs.
 */
export interface OpMeta {
  /** The kernel name (a key of the cpu-js registry: 'ew', 'reduce-partial', 'matmul', …). */
  readonly op: string;
  /** The kernel params every task of the layer shares (EwParams for 'ew', …), if any. */
  readonly params: unknown;
  readonly dtype: DType;
  readonly chunks: Chunks;
  readonly inputs: readonly InputMeta[];
  /** Elements of the largest output block (0 when sizes are unknown). */
  readonly blockElements: number;
  /** The arguments as the user passed them (for backends that claim their own types). */
  readonly args?: readonly unknown[];
}

/**
 * A backend: kernels by name for one device, plus its selection rules. Registered with
 * `registerBackend`; its kernel module is imported only on threads that run its tasks.
 * @example
 * const mine: Backend = {
 *   name: 'my-simd', device: 'cpu', kernels: ['ew'], supports: '>=0.1',
 *   module: new URL('./my-kernels.js', import.meta.url).href,
 *   canRun: (op, meta) => meta.dtype === 'float32' || 'only float32',
 * };
 * registerBackend(mine);
 */
export interface Backend {
  /** Unique name ('cpu-wasm', 'webgpu', …). */
  readonly name: string;
  readonly device: BackendDevice;
  /** The tessera kernels it implements (each must be a kernel tessera knows). */
  readonly kernels: readonly string[];
  /**
   * URL of the module whose export `kernels` (a record of kernel functions by name) holds the
   * implementations; imported lazily, once per thread, the first time one of its tasks runs.
   */
  readonly module?: string;
  /** The backend's own version, shown by `tessera info`. */
  readonly version?: string;
  /** The tessera versions it supports, as a semver range ('>=0.1 <2'). */
  readonly supports: string;
  /** `true` if the backend is usable here, else why not (no adapter, no WebAssembly SIMD). */
  available?(): Verdict;
  /** Whether it can run `op` at all for these inputs; a string says why not (skipped). */
  canRun?(op: string, meta: OpMeta): Verdict;
  /** Whether it should (a string defers it: deferred backends are tried last). */
  shouldRun?(op: string, meta: OpMeta): Verdict;
  /** Backends this one is tried before. */
  readonly higherPriorityThan?: readonly string[];
  /** Backends this one is tried after. */
  readonly lowerPriorityThan?: readonly string[];
  /** Selected only when named (priority list, withBackend, or a call's `backend`). */
  readonly requiresOptIn?: boolean;
  /**
   * Implementations of dispatchable functions (see `dispatchable`), by the name they were
   * made dispatchable under; each name must also be listed in `kernels`.
   */
  readonly functions?: Readonly<Record<string, (...args: never[]) => unknown>>;
  /**
   * Claims an argument type as its own (spatch's primary types): it is then preferred. It
   * should judge the type, not the value: backendFor caches the answer per class.
   */
  owns?(value: unknown): boolean;
}
