// The environment variables of dispatch, read once when tessera is imported:
// TESSERA_BACKEND_PRIORITY, TESSERA_BACKEND_BLOCK and TESSERA_LOG=dispatch.

/** What the environment says about backends. */
export interface DispatchEnv {
  /** Backend names, lowest priority first (above config.backendPriority). */
  readonly priority: readonly string[];
  /** Backends never loaded or selected. */
  readonly block: readonly string[];
  /** Print one line per decision. */
  readonly log: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;
type Warn = (message: string) => void;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

const defaultWarn: Warn = (message) =>
  process.emitWarning(message, { code: 'TESSERA_ENV', type: 'TesseraWarning' });

/** A comma-separated list of backend names; a malformed value warns and counts as unset. */
function nameList(env: Env, variable: string, warn: Warn): string[] {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return [];
  const names = raw.split(',').map((s) => s.trim());
  const bad = names.find((n) => !NAME.test(n));
  if (bad !== undefined) {
    warn(
      `${variable}=${JSON.stringify(raw)} is ignored: ${JSON.stringify(bad)} is not a backend name`,
    );
    return [];
  }
  return names;
}

/**
 * A boolean variable: '1', 'true', 'yes', 'on' are true; '0', 'false', 'no', 'off' and ''
 * are false; anything else warns and counts as unset.
 * @example
 * envFlag({ X: 'false' }, 'X'); // false
 */
export function envFlag(env: Env, variable: string, warn: Warn = defaultWarn): boolean | undefined {
  const raw = env[variable];
  if (raw === undefined) return undefined;
  const v = raw.trim().toLowerCase();
  if (v === '1' || v === 'true' || v === 'yes' || v === 'on') return true;
  if (v === '0' || v === 'false' || v === 'no' || v === 'off' || v === '') return false;
  warn(`${variable}=${JSON.stringify(raw)} is ignored: use 1/true or 0/false`);
  return undefined;
}

/**
 * Parse dispatch's variables from `env`.
 * @example
 * readDispatchEnv({ TESSERA_BACKEND_PRIORITY: 'cpu-js,cpu-wasm' }).priority; // ['cpu-js', 'cpu-wasm']
 */
export function readDispatchEnv(env: Env, warn: Warn = defaultWarn): DispatchEnv {
  const logs = (env.TESSERA_LOG ?? '').split(',').map((s) => s.trim());
  return {
    priority: nameList(env, 'TESSERA_BACKEND_PRIORITY', warn),
    block: nameList(env, 'TESSERA_BACKEND_BLOCK', warn),
    log: logs.includes('dispatch') || envFlag(env, 'TESSERA_LOG_DISPATCH', warn) === true,
  };
}

/** The environment as it was when tessera was imported. */
export const dispatchEnv: DispatchEnv = readDispatchEnv(process.env);
