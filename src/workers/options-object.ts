// Entry check of an executor's options argument: a plain object (or omitted). Kept here, not
// in array/, because executors never import array code.

import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';

/**
 * `opts` if it is an options object, `{}` if omitted; otherwise a ValueError naming `caller`.
 * @example
 * new ThreadPoolExecutor(null); // ValueError: ThreadPoolExecutor: options null is not an options object
 */
export function optionsObject<O extends object>(caller: string, opts: O | undefined): O {
  if (opts === undefined) return {} as O;
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts)) {
    const shown = typeof opts === 'function' ? 'a function' : formatValue(opts);
    throw new ValueError(`${caller}: options ${shown} is not an options object`);
  }
  return opts;
}
