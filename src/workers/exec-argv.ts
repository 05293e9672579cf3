// The Node flags a pool member starts with: the parent's, less the loader flags (the bootstrap
// registers tsx itself) and, for threads, the V8 flags a Worker refuses.

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
