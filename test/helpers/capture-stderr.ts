// Runs `fn` with this process's stderr captured: for tests whose worker processes crash on
// purpose (V8's FATAL ERROR, a native stack trace), so the test log stays clean and the test
// can check what the crash printed.

/** Resolves with `fn`'s result and everything written to process.stderr while it ran. */
export async function captureStderr<T>(fn: () => Promise<T>): Promise<{ value: T; text: string }> {
  const write = process.stderr.write;
  let text = '';
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }) as typeof process.stderr.write;
  try {
    return { value: await fn(), text };
  } finally {
    process.stderr.write = write;
  }
}
