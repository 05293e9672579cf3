// The Node flags a pool member starts with: the parent's, less the loader flags (the bootstrap
// registers tsx itself) and, for threads, the V8 flags a Worker refuses; and whether it needs tsx.

// A loader given as a flag breaks a .mjs bootstrap that registers tsx itself.
const LOADER_FLAG = /^--(import|loader|experimental-loader|require)$/;
const LOADER_FLAG_EQ = /^--(import|loader|experimental-loader|require)=/;
// V8 flags are process-wide and a Worker refuses them in its execArgv (--expose-gc from a
// benchmark runner, heap sizes): they already apply to every thread.
const PROCESS_WIDE =
  /^--(expose[-_]gc|max[-_]old[-_]space[-_]size|max[-_]semi[-_]space[-_]size)(=|$)/;

/**
 * The parent's execArgv for a worker thread (`thread: true`) or a child process.
 * @example
 * new Worker(bootstrap, { execArgv: memberExecArgv({ thread: true }) });
 */
export function memberExecArgv(opts: { readonly thread: boolean }): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (LOADER_FLAG.test(a)) i++;
    else if (!LOADER_FLAG_EQ.test(a) && !(opts.thread && PROCESS_WIDE.test(a))) out.push(a);
  }
  return out;
}

// tsx puts its loader in the parent's flags (`--import file:///…/tsx/dist/loader.mjs`).
const TSX_LOADER = /[\\/]tsx[\\/]/;

/**
 * Whether pool members must register tsx: this package runs from its TypeScript sources, or
 * the program runs under tsx (its kernel modules may be .ts even when tessera is built JS).
 * @example
 * new Worker(bootstrap, { workerData: { entry, tsx: membersNeedTsx() } });
 */
export function membersNeedTsx(): boolean {
  if (import.meta.url.endsWith('.ts')) return true;
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = LOADER_FLAG.test(a) ? argv[i + 1] : LOADER_FLAG_EQ.test(a) ? a : undefined;
    if (value !== undefined && TSX_LOADER.test(value)) return true;
  }
  return false;
}
