// The running tessera version: what backends' `supports` ranges are checked against.
// Kept equal to package.json's version by a test (test/acceptance/public-api.test.ts).

/** tessera's version (semver). */
export const VERSION = '0.1.0';
